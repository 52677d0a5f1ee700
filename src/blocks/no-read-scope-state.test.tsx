import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { seedActiveContracts } from '@/testing/seed-contracts';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { mintToken, signInAs } from '@/testing/sign-in-as';

const JOURNEY_TIMEOUT = 40_000;

/**
 * A jwt-mode sandbox with 3 Ious of a fresh owner; participant_admin submits them with a right to
 * act as anyone, which it then loses: it holds no read right, as a fresh participant's admin.
 */
async function sandboxWithContracts() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  const actAsAny = [{ kind: 'CanActAsAnyParty' as const, party: '' }];
  sandbox.state.users.addRights('participant_admin', actAsAny);
  const adminToken = await mintToken(sandbox, 'participant_admin');
  const owner = await sandboxSteps(sandbox, adminToken).allocateFreshParty('holder');
  await seedActiveContracts(sandbox, { owner, count: 3 }, adminToken);
  sandbox.state.users.removeRights('participant_admin', actAsAny);
  return { sandbox, owner };
}

const refusal = () =>
  screen.findByRole('region', { name: 'You may not read any contracts' }, { timeout: 10_000 });

const rightsOf = (sandbox: ReturnType<typeof createSandbox>, userId: string) =>
  sandbox.state.users.rights(userId).map((right) => `${right.kind}:${right.party}`);

describe('a caller who reads no party', () => {
  it(
    'as a participant admin, grants itself Read as a party in place, confirmed, and the page loads',
    async () => {
      const { sandbox, owner } = await sandboxWithContracts();
      await signInAs(sandbox, 'participant_admin');
      const { user } = renderRoute('/contracts', { sandbox });

      const state = await refusal();
      expect(state).toHaveTextContent('You, as a participant admin, can grant it.');
      const party = within(state).getByRole('combobox', { name: 'Party to read as' });
      // Disabled until the participant's parties are there to offer.
      await waitFor(() => {
        expect(party).toBeEnabled();
      });
      await user.click(party);
      await user.paste(owner);
      await user.click(within(state).getByRole('button', { name: 'Grant Read as…' }));

      // Nothing changes before the confirmation, which says what the right means.
      expect(rightsOf(sandbox, 'participant_admin')).not.toContain(`CanReadAs:${owner}`);
      const dialog = await screen.findByRole('dialog', { name: 'Grant yourself Read as?' });
      expect(dialog).toHaveTextContent('Your user participant_admin gets the right Read as');
      expect(dialog).toHaveTextContent("See this party's contracts and transactions");
      expect(dialog).toHaveTextContent('it grants no right to act');
      await user.click(within(dialog).getByRole('button', { name: 'Grant Read as' }));

      await waitFor(
        () => {
          const lines = screen.getAllByRole('status').map((line) => line.textContent);
          expect(lines.some((line) => /^3 contracts active at offset \d+$/.test(line))).toBe(true);
        },
        { timeout: 15_000 },
      );
      expect(rightsOf(sandbox, 'participant_admin')).toContain(`CanReadAs:${owner}`);
      expect(screen.queryByRole('region', { name: 'You may not read any contracts' })).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'as a participant admin, may grant Read as any party instead; a bad party id is refused before',
    async () => {
      const { sandbox } = await sandboxWithContracts();
      await signInAs(sandbox, 'participant_admin');
      const { user } = renderRoute('/contracts', { sandbox });

      const state = await refusal();
      // The field waits, disabled, for the participant's parties to offer.
      await waitFor(() => {
        expect(within(state).getByRole('combobox', { name: 'Party to read as' })).toBeEnabled();
      });
      await user.click(within(state).getByRole('combobox', { name: 'Party to read as' }));
      await user.paste('alice<b>');
      await user.click(within(state).getByRole('button', { name: 'Grant Read as…' }));
      const field = within(state).getByRole('combobox', { name: 'Party to read as' });
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(/"<" is not allowed in a party id/);
      // What was typed stays.
      expect(field).toHaveValue('alice<b>');
      expect(screen.queryByRole('dialog')).toBeNull();

      await user.click(within(state).getByRole('radio', { name: /^Read as any party/ }));
      await user.click(within(state).getByRole('button', { name: 'Grant Read as any party…' }));
      const dialog = await screen.findByRole('dialog', {
        name: 'Grant yourself Read as any party?',
      });
      expect(dialog).toHaveTextContent('read every party');
      await user.click(within(dialog).getByRole('button', { name: 'Grant Read as any party' }));

      await waitFor(
        () => {
          expect(rightsOf(sandbox, 'participant_admin')).toContain('CanReadAsAnyParty:');
        },
        { timeout: 10_000 },
      );
      await waitFor(
        () => {
          expect(
            screen.queryByRole('region', { name: 'You may not read any contracts' }),
          ).toBeNull();
        },
        { timeout: 15_000 },
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'as a plain user, is told which right it needs and who can grant it, with nothing to grant',
    async () => {
      const { sandbox } = await sandboxWithContracts();
      seedRightsHolders(sandbox, [{ userId: 'newcomer', rights: [] }]);
      await signInAs(sandbox, 'newcomer');
      renderRoute('/contracts', { sandbox });

      const state = await refusal();
      expect(state).toHaveTextContent('You are signed in as newcomer (default identity provider).');
      expect(state).toHaveTextContent('This needs the right Read as, Act as or Read as any party');
      expect(state).toHaveTextContent('A participant admin can grant it.');
      expect(within(state).queryByRole('button')).toBeNull();
      expect(within(state).queryByRole('combobox')).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );
});

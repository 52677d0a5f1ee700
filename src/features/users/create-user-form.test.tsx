import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { sandboxJson, seedParties } from '@/testing/seed-parties';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedUsers } from '@/testing/seed-users';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const JWT_SECRET = 'create-user-form-test-secret';
// Whole-app journeys through several forms; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

/** Long ids go in by paste: typing them key by key only slows the test down. */
async function enter(user: UserEvent, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

async function openForm(path = '/users/new', sandbox = createSandbox()) {
  const view = renderRoute(path, { sandbox });
  await screen.findByRole('button', { name: 'Create user' });
  return view;
}

describe('create user', () => {
  it(
    'creates a user with its profile and two rights in one request, then opens it',
    async () => {
      const sandbox = createSandbox();
      const [alice, bob] = await seedParties(sandbox, ['alice', 'bob']);
      const { user, router, interceptNetwork } = await openForm('/users/new', sandbox);
      const requests: string[] = [];
      interceptNetwork((request, sandboxFetch) => {
        if (request.method !== 'GET') {
          requests.push(`${request.method} ${new URL(request.url).pathname}`);
        }
        return sandboxFetch(request);
      });

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'ops');
      const primaryParty = screen.getByRole('combobox', { name: /^Primary party/ });
      await waitFor(() => {
        expect(primaryParty).toBeEnabled();
      });
      await user.type(primaryParty, 'ali');
      await user.click(await screen.findByRole('option', { name: new RegExp(`^alice ${alice}`) }));
      expect(primaryParty).toHaveValue(alice);

      await user.click(screen.getByRole('button', { name: 'Add annotation' }));
      await user.type(
        screen.getByRole('textbox', { name: 'Annotation 1 key' }),
        'example.com/team',
      );
      await enter(user, screen.getByRole('textbox', { name: 'Annotation 1 value' }), 'ledger ops');

      await user.click(screen.getByRole('button', { name: 'Add party right' }));
      await enter(user, screen.getByRole('combobox', { name: 'Right 1 party' }), alice ?? '');
      await user.click(screen.getByRole('button', { name: 'Add party right' }));
      await user.click(screen.getByRole('combobox', { name: 'Right 2 kind' }));
      await user.click(screen.getByRole('option', { name: 'Read as' }));
      await enter(user, screen.getByRole('combobox', { name: 'Right 2 party' }), bob ?? '');
      expect(screen.getByRole('combobox', { name: 'Right 2 kind' })).toHaveAccessibleDescription(
        "See this party's contracts and transactions, without acting for it.",
      );

      await user.click(screen.getByRole('button', { name: 'Create user' }));

      expect(await screen.findByRole('heading', { name: 'ops' })).toBeVisible();
      expect(router.state.location.pathname).toBe('/users/ops');
      expect(await screen.findByText('User ops created')).toBeVisible();
      expect(requests).toEqual(['POST /v2/users']);
      expect(sandbox.state.users.get('ops')).toMatchObject({
        primaryParty: alice,
        isDeactivated: false,
        identityProviderId: '',
        annotations: { 'example.com/team': 'ledger ops' },
      });
      expect(sandbox.state.users.rights('ops')).toEqual(
        expect.arrayContaining([
          { kind: 'CanActAs', party: alice },
          { kind: 'CanReadAs', party: bob },
        ]),
      );
      expect(sandbox.state.users.rights('ops')).toHaveLength(2);
    },
    JOURNEY_TIMEOUT,
  );

  it('shows what is wrong on each field and sends nothing', async () => {
    const { user, sandbox } = await openForm();
    const userId = screen.getByRole('textbox', { name: /^User id/ });

    await user.click(screen.getByRole('button', { name: 'Add party right' }));
    await user.click(screen.getByRole('button', { name: 'Add annotation' }));
    await user.type(screen.getByRole('textbox', { name: 'Annotation 1 key' }), '-team');
    await user.click(screen.getByRole('button', { name: 'Create user' }));

    await waitFor(() => {
      expect(userId).toHaveAccessibleDescription(/Required/);
    });
    expect(screen.getByRole('combobox', { name: 'Right 1 party' })).toHaveAccessibleDescription(
      /Choose a party/,
    );
    expect(screen.getByRole('textbox', { name: 'Annotation 1 key' })).toHaveAccessibleDescription(
      /must start and end with a letter or digit/,
    );
    expect(screen.getByRole('textbox', { name: 'Annotation 1 value' })).toHaveAccessibleDescription(
      /Value is required/,
    );

    await user.type(userId, 'jürgen');
    expect(userId).toHaveAccessibleDescription(/"ü" is not allowed: use ASCII letters, digits and/);
    expect(sandbox.state.users.get('jürgen')).toBeUndefined();
  });

  it('puts USER_ALREADY_EXISTS on the user id field and keeps what was typed', async () => {
    const sandbox = createSandbox();
    await sandboxJson(sandbox, 'POST', '/v2/users', {
      user: { id: 'taken', primaryParty: '', isDeactivated: false, identityProviderId: '' },
      rights: [],
    });
    const { user } = await openForm('/users/new', sandbox);
    const userId = screen.getByRole('textbox', { name: /^User id/ });

    await user.type(userId, 'taken');
    await user.click(screen.getByRole('checkbox', { name: 'Read as any party' }));
    await user.click(screen.getByRole('button', { name: 'Create user' }));

    await waitFor(() => {
      expect(userId).toHaveAccessibleDescription(
        /creating user failed, as user "taken" already exists/,
      );
    });
    expect(userId).toHaveAttribute('aria-invalid', 'true');
    expect(userId).toHaveValue('taken');
    expect(screen.getByRole('checkbox', { name: 'Read as any party' })).toBeChecked();
    expect(screen.queryByRole('alert', { name: /./ })).not.toBeInTheDocument();
    expect(sandbox.state.users.rights('taken')).toEqual([]);
  });

  it('shows a failure no field owns at the top of the form', async () => {
    const { user, interceptNetwork } = await openForm();
    await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'ops');
    interceptNetwork((request, sandboxFetch) =>
      request.method === 'POST'
        ? Promise.reject(new TypeError('fetch failed'))
        : sandboxFetch(request),
    );

    await user.click(screen.getByRole('button', { name: 'Create user' }));

    const form = screen.getByRole('form', { name: 'Create user' });
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the server');
    expect(alert).toHaveTextContent('NETWORK_UNREACHABLE');
    expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('ops');
  });
});

describe('create user as an IdP admin (jwt mode)', () => {
  it(
    'offers only its own IdP and its parties, cannot grant admin-only rights, and creates the user there',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
      const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
      const [carol] = await seedParties(sandbox, ['carol'], {
        identityProviderId: 'acme',
        token: adminToken,
      });
      const [outsider] = await seedParties(sandbox, ['outsider'], { token: adminToken });
      const { user } = await openForm('/users/new', sandbox);

      const identityProvider = screen.getByRole('combobox', { name: /^Identity provider/ });
      expect(identityProvider).toHaveValue('acme');
      expect(identityProvider).toBeDisabled();
      expect(identityProvider).toHaveAccessibleDescription(/only the users of your own identity/);
      for (const name of [
        'Participant admin',
        'Act as any party',
        'Read as any party',
        'Execute as any party',
      ]) {
        const checkbox = screen.getByRole('checkbox', { name });
        expect(checkbox).toBeDisabled();
        expect(checkbox).toHaveAccessibleDescription(/Only a participant admin can grant/);
      }
      expect(screen.getByRole('checkbox', { name: 'Identity provider admin' })).toBeEnabled();

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'acme-ops');
      await user.click(screen.getByRole('button', { name: 'Add party right' }));
      const party = screen.getByRole('combobox', { name: 'Right 1 party' });
      await waitFor(() => {
        expect(party).toBeEnabled();
      });
      await user.click(party);
      const options = screen.getAllByRole('option').map((option) => option.textContent);
      expect(options).toEqual([`carol ${carol ?? ''}`]);

      // A party of another IdP, typed in: the server refuses it, on that row.
      await enter(user, party, outsider ?? '');
      await user.click(screen.getByRole('button', { name: 'Create user' }));
      await waitFor(() => {
        expect(party).toHaveAccessibleDescription(/Provided parties have not been found/);
      });

      await user.clear(party);
      await enter(user, party, carol ?? '');
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      expect(await screen.findByRole('heading', { name: 'acme-ops' })).toBeVisible();
      expect(sandbox.state.users.get('acme-ops')?.identityProviderId).toBe('acme');
      expect(sandbox.state.users.rights('acme-ops')).toEqual([{ kind: 'CanActAs', party: carol }]);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('create user: fixes and Copy as', () => {
  it(
    'says which identity provider already has the id, and moves the user here on request',
    async () => {
      const sandbox = createSandbox();
      seedIdentityProviders(sandbox, [{ identityProviderId: 'acme-idp' }]);
      const [trader] = seedUsers(sandbox, 1, { prefix: 'trader', identityProviderId: 'acme-idp' });
      const { user } = await openForm('/users/new', sandbox);

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), trader ?? '');
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      const cause = await screen.findByText(
        `A user “${trader ?? ''}” already exists in identity provider acme-idp. User ids are unique on a participant, so it cannot also be created in the default identity provider.`,
      );
      const alert = cause.closest<HTMLElement>('[role="alert"]') ?? document.body;
      expect(
        within(alert).getByRole('link', { name: `Open user ${trader ?? ''}` }),
      ).toHaveAttribute('href', `/users/${trader ?? ''}?idp=acme-idp`);
      await user.click(
        within(alert).getByRole('button', { name: 'Move to the default identity provider' }),
      );

      expect(
        await within(alert).findByText('Done: move to the default identity provider.'),
      ).toBeVisible();
      expect(sandbox.state.users.get(trader ?? '')?.identityProviderId).toBe('');
    },
    JOURNEY_TIMEOUT,
  );

  it('copies the request Create user would send as curl', async () => {
    const { user } = await openForm();
    await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'ops');
    await user.click(screen.getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));

    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(/^curl -sS -X POST '.*\/v2\/users'/);
    expect(copied).toContain('"id": "ops"');
    expect(await screen.findByText('Copied as curl')).toBeVisible();
  });
});

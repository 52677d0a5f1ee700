import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedPartyRecords } from '@/testing/seed-parties';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const JWT_SECRET = 'party-access-panel-test-secret';
const HOLDERS = 'Users who can act, read or execute as this party';
const ADMINISTRATORS = 'Administrators who could grant themselves access';
const status = (text: string | RegExp) =>
  screen.findByText(text, { selector: '[role="status"]' }, { timeout: 5000 });

/** Each row of a table as its cells' text, header row excluded. */
function rowsOf(name: string): string[][] {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

describe('who can act as a party', { timeout: 20_000 }, () => {
  it('names the rights that let each user act, read or execute, and the admins apart', async () => {
    const sandbox = createSandbox();
    const [alice, bob] = seedPartyRecords(sandbox, [{ hint: 'alice' }, { hint: 'bob' }]);
    const party = alice ?? '';
    seedRightsHolders(sandbox, [
      { userId: 'direct', rights: [{ kind: 'CanActAs', party }] },
      { userId: 'reader', rights: [{ kind: 'CanReadAs', party }], isDeactivated: true },
      {
        userId: 'executor',
        rights: [{ kind: 'CanExecuteAs', party }, { kind: 'CanReadAsAnyParty' }],
      },
      { userId: 'anyone', rights: [{ kind: 'CanActAsAnyParty' }] },
      { userId: 'bobs', rights: [{ kind: 'CanActAs', party: bob ?? '' }] },
      { userId: 'ops-admin', rights: [{ kind: 'ParticipantAdmin' }] },
      {
        userId: 'reading-admin',
        rights: [{ kind: 'ParticipantAdmin' }, { kind: 'CanReadAs', party }],
      },
      { userId: 'idp-admin', rights: [{ kind: 'IdentityProviderAdmin' }] },
    ]);
    renderRoute(`/parties/${encodeURIComponent(party)}`, { sandbox });

    expect(await status('Checked the rights of 9 users.')).toBeVisible();
    expect(rowsOf(HOLDERS)).toEqual([
      ['anyone', 'Act as any party', 'Act as any party', 'Act as any party'],
      ['direct', 'Act as', 'Act as', 'Act as'],
      ['executor', 'No', 'Read as any party', 'Execute as'],
      ['readerDeactivated', 'No', 'Read as', 'No'],
      ['reading-admin', 'No', 'Read as', 'No'],
    ]);
    const holders = screen.getByRole('table', { name: HOLDERS });
    expect(within(holders).getByRole('link', { name: 'direct' })).toHaveAttribute(
      'href',
      '/users/direct',
    );
    expect(rowsOf(ADMINISTRATORS)).toEqual([
      ['idp-admin', 'Identity provider admin (default)', 'Act as (act, read and execute)'],
      ['ops-admin', 'Participant admin', 'Act as (act, read and execute)'],
      ['participant_admin', 'Participant admin', 'Act as (act, read and execute)'],
      ['reading-admin', 'Participant admin', 'Act as (act, read and execute)'],
    ]);
    expect(
      screen.getByText(/Only the users of the default identity provider are checked/),
    ).toBeVisible();
  });

  it('shows its progress, and keeps what it found when cancelled', async () => {
    const sandbox = createSandbox();
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const party = alice ?? '';
    seedRightsHolders(
      sandbox,
      Array.from({ length: 20 }, (_, index) => ({
        userId: `user-${String(index).padStart(2, '0')}`,
        rights: [{ kind: 'CanActAs' as const, party }],
      })),
    );
    // Rights of users after the first are held, as a slow participant would hold them.
    const held: (() => Promise<Response>)[] = [];
    const { user } = renderRoute(`/parties/${encodeURIComponent(party)}`, {
      sandbox,
      intercept: (request, sandboxFetch) => {
        const path = new URL(request.url).pathname;
        if (!path.endsWith('/rights') || path.includes('user-00')) return sandboxFetch(request);
        return new Promise((resolve) => {
          held.push(() => {
            const response = sandboxFetch(request);
            resolve(response);
            return response;
          });
        });
      },
    });

    expect(await status(/^Reading rights: 1 of 21 users…$/)).toBeVisible();
    expect(screen.getByRole('progressbar', { name: "Reading users' rights" })).toBeVisible();
    // Never more than six requests at once.
    await waitFor(() => {
      expect(held).toHaveLength(6);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(held).toHaveLength(6);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(
      await status('Stopped after checking 1 of 21 users: the tables show only those.'),
    ).toBeVisible();
    expect(rowsOf(HOLDERS)).toEqual([['user-00', 'Act as', 'Act as', 'Act as']]);
    // Answers that arrive after the cancel change nothing.
    await Promise.all(held.map((release) => release()));
    // Longer than the scan takes to show new answers (it publishes at most every 150 ms).
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      screen.getByText('Stopped after checking 1 of 21 users: the tables show only those.'),
    ).toBeVisible();
    expect(rowsOf(HOLDERS)).toEqual([['user-00', 'Act as', 'Act as', 'Act as']]);

    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await status(/^Reading rights/)).toBeVisible();
  });

  it('says whose rights could not be read, and leaves them out', async () => {
    const sandbox = createSandbox();
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const party = alice ?? '';
    seedRightsHolders(sandbox, [
      { userId: 'deleted', rights: [{ kind: 'CanActAs', party }] },
      { userId: 'trader', rights: [{ kind: 'CanActAs', party }] },
    ]);
    renderRoute(`/parties/${encodeURIComponent(party)}`, {
      sandbox,
      // The user goes away between the listing and the reading of its rights.
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/users/deleted/rights'
          ? sandboxFetch(new Request(request.url.replace('/deleted/', '/nobody/'), request))
          : sandboxFetch(request),
    });

    expect(await status('Checked the rights of 3 users.')).toBeVisible();
    expect(screen.getByRole('alert', { name: '1 user not checked' })).toHaveTextContent(
      /The rights of deleted could not be read \(.*unknown user "nobody".*\)/,
    );
    expect(rowsOf(HOLDERS)).toEqual([['trader', 'Act as', 'Act as', 'Act as']]);
  });

  it("lets an IdP admin check its own IdP's users, and names the IdP admins of the party's IdP", async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
    const { identityProviderId } = await signInAsIdentityProviderAdmin(sandbox);
    seedIdentityProviders(sandbox, [{ identityProviderId: 'other' }]);
    const [ours] = seedPartyRecords(sandbox, [{ hint: 'ours', identityProviderId }]);
    const party = ours ?? '';
    seedRightsHolders(sandbox, [
      { userId: 'acme-trader', identityProviderId, rights: [{ kind: 'CanActAs', party }] },
      { userId: 'default-trader', rights: [{ kind: 'CanActAs', party }] },
      {
        userId: 'other-admin',
        identityProviderId: 'other',
        rights: [{ kind: 'IdentityProviderAdmin' }],
      },
    ]);
    renderRoute(`/parties/${encodeURIComponent(party)}`, { sandbox });

    expect(await status('Checked the rights of 2 users.')).toBeVisible();
    expect(rowsOf(HOLDERS)).toEqual([['acme-trader', 'Act as', 'Act as', 'Act as']]);
    expect(within(screen.getByRole('table', { name: HOLDERS })).getByRole('link')).toHaveAttribute(
      'href',
      '/users/acme-trader?idp=acme',
    );
    expect(rowsOf(ADMINISTRATORS)).toEqual([
      ['acme-admin', 'Identity provider admin (acme)', 'Act as (act, read and execute)'],
    ]);
    expect(
      screen.getByText(/Only the users of your identity provider, acme, are checked/),
    ).toBeVisible();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { sandboxJson, seedPartyRecords } from '@/testing/seed-parties';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

// Whole-app journeys with several requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;
const JWT_SECRET = 'party-detail-test-secret';

const partyPath = (party: string, idp = '') =>
  `/parties/${encodeURIComponent(party)}${idp ? `?idp=${idp}` : ''}`;

async function openParty(sandbox: Sandbox, party: string, idp = '') {
  const view = renderRoute(partyPath(party, idp), { sandbox });
  await screen.findByRole('region', { name: 'Details' });
  return view;
}

const annotationsForm = () => screen.getByRole('form', { name: 'Annotations' });

describe('party details', () => {
  it(
    'shows the full id, locality and IdP, and saves annotation changes',
    async () => {
      const sandbox = createSandbox();
      const [alice] = seedPartyRecords(sandbox, [
        { hint: 'alice', annotations: { team: 'ops', tier: 'gold' } },
      ]);
      const party = alice ?? '';
      const { user } = await openParty(sandbox, party);

      expect(screen.getByRole('heading', { name: 'alice', level: 1 })).toBeVisible();
      const id = screen.getByRole('group', { name: 'Party id' });
      expect(within(id).getByText(party)).toBeVisible();
      expect(within(id).getByRole('button', { name: 'Copy party id' })).toBeVisible();
      expect(
        within(screen.getByRole('group', { name: 'Hosting' })).getByText('Local'),
      ).toBeVisible();
      expect(screen.getByRole('group', { name: 'Identity provider' })).toHaveTextContent(
        'Default identity provider',
      );
      const version = screen.getByRole('group', { name: 'Resource version' });
      expect(version).toHaveTextContent('0');
      expect(screen.getByRole('button', { name: 'Save annotations' })).toBeDisabled();

      // Change one key, remove another, add a third.
      await user.clear(screen.getByRole('textbox', { name: 'Annotation 1 value' }));
      await user.type(screen.getByRole('textbox', { name: 'Annotation 1 value' }), 'night');
      await user.click(screen.getByRole('button', { name: 'Remove annotation 2' }));
      await user.click(screen.getByRole('button', { name: 'Add annotation' }));
      await user.type(screen.getByRole('textbox', { name: 'Annotation 2 key' }), 'site');
      await user.type(screen.getByRole('textbox', { name: 'Annotation 2 value' }), 'zrh');
      await user.click(screen.getByRole('button', { name: 'Save annotations' }));

      await waitFor(() => {
        expect(version).toHaveTextContent('1');
      });
      expect(await screen.findByText(/^Annotations of alice::1220.* saved$/)).toBeVisible();
      expect(sandbox.state.parties.get(party)).toMatchObject({
        annotations: { team: 'night', site: 'zrh' },
        resourceVersion: 1,
      });
      expect(screen.getByRole('button', { name: 'Save annotations' })).toBeDisabled();
      // Typing a few annotations and the page's several sections: slow on a loaded machine.
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says so when someone else changed the party meanwhile, keeps the edits, and reloads on request',
    async () => {
      const sandbox = createSandbox();
      const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice', annotations: { team: 'a' } }]);
      const party = alice ?? '';
      const { user } = await openParty(sandbox, party);

      // Someone else, elsewhere, after this page loaded.
      await sandboxJson(sandbox, 'PATCH', `/v2/parties/${encodeURIComponent(party)}`, {
        partyDetails: {
          party,
          isLocal: true,
          identityProviderId: '',
          localMetadata: { resourceVersion: '', annotations: { team: 'theirs' } },
        },
        updateMask: { paths: ['local_metadata.annotations'] },
      });

      const value = screen.getByRole('textbox', { name: 'Annotation 1 value' });
      await user.clear(value);
      await user.type(value, 'mine');
      await user.click(screen.getByRole('button', { name: 'Save annotations' }));

      const alert = await within(annotationsForm()).findByRole('alert');
      expect(alert).toHaveTextContent('Someone else changed this party after you opened it');
      expect(value).toHaveValue('mine');
      expect(sandbox.state.parties.get(party)?.annotations).toEqual({ team: 'theirs' });

      await user.click(within(alert).getByRole('button', { name: 'Reload latest' }));

      await waitFor(() => {
        expect(screen.getByRole('textbox', { name: 'Annotation 1 value' })).toHaveValue('theirs');
      });
      expect(screen.getByRole('group', { name: 'Resource version' })).toHaveTextContent('1');
      expect(within(annotationsForm()).queryByRole('alert')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it('opens a party of another IdP through that IdP, even from a link that does not name it', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [
      { identityProviderId: 'acme' },
      { identityProviderId: 'other' },
    ]);
    const [theirs] = seedPartyRecords(sandbox, [
      { hint: 'theirs', identityProviderId: 'acme', annotations: { team: 'acme-ops' } },
    ]);
    const { router } = renderRoute(partyPath(theirs ?? ''), { sandbox });

    expect(await screen.findByText('Party, as identity provider acme sees it')).toBeVisible();
    expect(router.state.location.search).toBe('?idp=acme');
    expect(
      within(await screen.findByRole('group', { name: 'Hosting' })).getByText('Local'),
    ).toBeVisible();
    expect(screen.getByRole('group', { name: 'Identity provider' })).toHaveTextContent('acme');
    expect(screen.getByRole('textbox', { name: 'Annotation 1 value' })).toHaveValue('acme-ops');
  });

  it('says a party of another participant is not local, and offers no editing', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    const [remote] = seedPartyRecords(sandbox, [{ hint: 'remote', isLocal: false }]);
    await openParty(sandbox, remote ?? '');

    const hosting = screen.getByRole('group', { name: 'Hosting' });
    expect(
      await screen.findByText(/No identity provider of this participant claims it/),
    ).toBeVisible();
    expect(within(hosting).getByText('Hosted elsewhere')).toBeVisible();
    expect(hosting).toHaveTextContent('Hosted on another participant.');
    expect(screen.queryByRole('form', { name: 'Annotations' })).not.toBeInTheDocument();
    expect(screen.getByText(/Annotations are kept for local parties only/)).toBeVisible();
  });

  it('says when the participant does not know the party, with the way back and no Retry', async () => {
    const ghost = `ghost::1220${'ab'.repeat(32)}`;
    renderRoute(partyPath(ghost));

    expect(await screen.findByText(`No party “${ghost}”`)).toBeVisible();
    expect(screen.getByText(/neither hosted here nor known from the topology/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to parties' })).toHaveAttribute('href', '/parties');
    expect(screen.getByRole('link', { name: 'Back to parties' })).toHaveAttribute(
      'href',
      '/parties',
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows why the party could not be loaded, and recovers on Retry', async () => {
    const sandbox = createSandbox();
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const party = alice ?? '';
    allowConsole(/NETWORK_UNREACHABLE/);
    const { user, interceptNetwork } = renderRoute(partyPath(party), {
      sandbox,
      intercept: (request, sandboxFetch) =>
        decodeURIComponent(new URL(request.url).pathname) === `/v2/parties/${party}`
          ? Promise.reject(new TypeError('fetch failed'))
          : sandboxFetch(request),
    });

    const alert = await screen.findByRole('alert', { name: 'Cannot reach the server' });
    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('region', { name: 'Details' })).toBeVisible();
  });

  it('shows a user who may only read as the party its details, read-only, and its own access', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice', annotations: { team: 'ops' } }]);
    const party = alice ?? '';
    sandbox.state.users.insert({
      id: 'reader',
      primaryParty: '',
      isDeactivated: false,
      resourceVersion: 0,
      annotations: {},
      identityProviderId: '',
      primaryPartyAuthentication: false,
    });
    sandbox.state.users.addRights('reader', [{ kind: 'CanReadAs', party }]);
    await signInAs(sandbox, 'reader');
    await openParty(sandbox, party);

    expect(screen.queryByRole('form', { name: 'Annotations' })).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'team' })).toHaveTextContent('ops');
    expect(screen.getByText(/only your own rights are shown/)).toBeVisible();
    const table = await screen.findByRole('table', {
      name: 'Users who can act, read or execute as this party',
    });
    const row = within(table).getByRole('link', { name: 'reader' }).closest('tr');
    if (!row) throw new Error('no row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['reader', 'No', 'Read as', 'No']);
  });
});

describe('granting access from the party page', () => {
  it(
    'grants Act as to a user picked from the suggestions, then lists it among the holders',
    async () => {
      const sandbox = createSandbox();
      const [alice = ''] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
      seedUsers(sandbox, 1, { prefix: 'trader' });
      const { user } = await openParty(sandbox, alice);

      const form = await screen.findByRole('form', { name: 'Grant access to a user' });
      const userField = within(form).getByRole('combobox', { name: /^User/ });
      await user.type(userField, 'trad');
      await user.click(await screen.findByRole('option', { name: 'trader-0001' }));
      await waitFor(() => {
        expect(userField).toHaveAccessibleDescription(
          /✓ User exists in the default identity provider/,
        );
      });

      await user.click(within(form).getByRole('button', { name: 'Copy as…' }));
      await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
      const copied = await navigator.clipboard.readText();
      expect(copied).toContain('/v2/users/trader-0001/rights');
      expect(copied).toContain(`"party": "${alice}"`);

      await user.click(within(form).getByRole('button', { name: 'Grant' }));
      expect(await screen.findByText('Act as granted to trader-0001')).toBeVisible();
      expect(sandbox.state.users.rights('trader-0001')).toEqual([
        { kind: 'CanActAs', party: alice },
      ]);
      const holders = await screen.findByRole('table', {
        name: 'Users who can act, read or execute as this party',
      });
      expect(within(holders).getByRole('link', { name: 'trader-0001' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it('checks a pasted user id, and says when there is no such user', async () => {
    const sandbox = createSandbox();
    const [alice = ''] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const { user } = await openParty(sandbox, alice);

    const form = await screen.findByRole('form', { name: 'Grant access to a user' });
    const userField = within(form).getByRole('combobox', { name: /^User/ });
    await user.click(userField);
    await user.paste('nobody');
    await waitFor(() => {
      expect(userField).toHaveAccessibleDescription(
        /⚠ No user “nobody” in the default identity provider/,
      );
    });
  });
});

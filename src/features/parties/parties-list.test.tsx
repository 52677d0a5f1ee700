import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedPartyRecords } from '@/testing/seed-parties';
import { seedUsers } from '@/testing/seed-users';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const JWT_SECRET = 'parties-list-test-secret';
// Generous: the machine running the suite may be busy, and paging renders a whole table.
const status = (text: string | RegExp) =>
  screen.findByText(text, { selector: '[role="status"]' }, { timeout: 5000 });
const search = (router: ReturnType<typeof renderRoute>['router']) =>
  new URLSearchParams(router.state.location.search);
const partiesTable = () => screen.findByRole('table', { name: 'Parties' });

function rowOf(table: HTMLElement, party: string): HTMLElement {
  const row = within(table).getByTitle(party).closest('tr');
  if (!row) throw new Error(`no row for ${party}`);
  return row;
}

const hints = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    hint: `party-${String(index + 1).padStart(3, '0')}`,
  }));

describe('parties list', { timeout: 30_000 }, () => {
  it('shows each party with its locality, IdP and annotations, linked to its page', async () => {
    const sandbox = createSandbox();
    const [alice, carol] = seedPartyRecords(sandbox, [
      { hint: 'alice', annotations: { team: 'ops', tier: 'gold' } },
      { hint: 'carol', isLocal: false },
    ]);
    renderRoute('/parties', { sandbox });

    const table = await partiesTable();
    expect(await status('Showing parties 1–2')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Parties', level: 1 })).toBeVisible();
    const aliceRow = rowOf(table, alice ?? '');
    const aliceLink = within(aliceRow).getByRole('link', { name: /^alice::/ });
    expect(aliceLink).toHaveAttribute('href', `/parties/${encodeURIComponent(alice ?? '')}`);
    expect(aliceLink).toHaveTextContent(/^alice::1220[0-9a-f]{2}…[0-9a-f]{4}$/);
    // Each row's copy button names its party, so the rows' buttons can be told apart.
    expect(
      within(aliceRow).getByRole('button', { name: `Copy party ${alice ?? ''}` }),
    ).toBeVisible();
    expect(within(aliceRow).getByText('Local')).toBeVisible();
    expect(within(aliceRow).getByText('default')).toBeVisible();
    expect(within(aliceRow).getByText('team=ops, tier=gold')).toBeVisible();
    const carolRow = rowOf(table, carol ?? '');
    expect(within(carolRow).getByText('Not local')).toBeVisible();
    expect(within(carolRow).getByText('none')).toBeVisible();
    expect(screen.getByText('This is the last page.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Allocate party' })).toHaveAttribute(
      'href',
      '/parties/new',
    );
  });

  it('pages forwards and back with the page and its token trail in the URL', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, hints(60));
    const { user, router } = renderRoute('/parties?size=25', { sandbox });

    expect(await status('Showing parties 1–25')).toBeVisible();
    expect(screen.getByText('More parties may follow.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await status('Showing parties 26–50')).toBeVisible();
    expect(screen.getByText('Page 2')).toBeVisible();
    expect(search(router).get('page')).toBe('2');
    expect(search(router).getAll('token')).toHaveLength(1);
    const page2 = router.state.location.search;

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await status('Showing parties 51–60')).toBeVisible();
    expect(screen.getByText('This is the last page.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(screen.getByRole('link', { name: /^party-060::/ })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await status('Showing parties 26–50')).toBeVisible();
    expect(router.state.location.search).toBe(page2);

    // A deep link (reload, shared URL) opens the same page.
    await router.navigate('/parties?size=25');
    await status('Showing parties 1–25');
    await router.navigate(`/parties${page2}`);
    expect(await status('Showing parties 26–50')).toBeVisible();
    expect(screen.getByRole('link', { name: /^party-026::/ })).toBeVisible();
  });

  it('says "No more parties" when the last page was exactly full', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, hints(25));
    const { user } = renderRoute('/parties?size=25', { sandbox });

    await status('Showing parties 1–25');
    // A full page gets a token, even though nothing follows (§5.2).
    expect(screen.getByText('More parties may follow.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Next page' }));

    expect(await status('No more parties')).toBeVisible();
    expect(screen.getByText(/the previous page ended exactly with the last one/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('changes the page size and starts again from the first page', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, hints(60));
    const { user, router } = renderRoute('/parties?size=25', { sandbox });
    await status('Showing parties 1–25');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await status('Showing parties 26–50');

    await user.selectOptions(screen.getByLabelText('Page size'), '50');

    expect(await status('Showing parties 1–50')).toBeVisible();
    expect(search(router).get('size')).toBe('50');
    expect(search(router).getAll('token')).toEqual([]);
  });

  it('filters the loaded page by text and to local parties', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, [
      ...hints(20),
      { hint: 'night', annotations: { shift: 'Night-Owls' } },
      { hint: 'remote', isLocal: false },
    ]);
    const { user } = renderRoute('/parties', { sandbox });
    await status('Showing parties 1–22');

    await user.type(screen.getByLabelText('Filter parties'), 'OWLS');
    expect(await status('Showing 1 match among parties 1–22')).toBeVisible();
    const table = screen.getByRole('table', { name: 'Parties' });
    expect(within(table).getAllByRole('link')).toHaveLength(1);
    expect(within(table).getByRole('link', { name: /^night::/ })).toBeVisible();

    await user.clear(screen.getByLabelText('Filter parties'));
    await user.type(screen.getByLabelText('Filter parties'), 'nobody');
    expect(await screen.findByText('No parties on this page match the filter.')).toBeVisible();

    await user.clear(screen.getByLabelText('Filter parties'));
    await user.click(screen.getByRole('checkbox', { name: 'Local parties only' }));
    expect(await status('Showing 21 matches among parties 1–22')).toBeVisible();
    expect(screen.queryByRole('link', { name: /^remote::/ })).not.toBeInTheDocument();
  });

  it("lists the parties as another IdP sees them, with that IdP's parties local", async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    const [mine, theirs] = seedPartyRecords(sandbox, [
      { hint: 'mine' },
      { hint: 'theirs', identityProviderId: 'acme', annotations: { team: 'acme-ops' } },
    ]);
    const { user, router } = renderRoute('/parties', { sandbox });

    let table = await partiesTable();
    await status('Showing parties 1–2');
    // Blinded to "not local" in the default IdP's view, but hosted here: the console says where.
    expect(
      await within(rowOf(table, theirs ?? '')).findByText('Other identity provider'),
    ).toBeVisible();
    expect(within(rowOf(table, theirs ?? '')).getByText('acme')).toBeVisible();

    const idp = screen.getByRole('combobox', { name: /^Identity provider/ });
    await waitFor(() => {
      expect(idp).toBeEnabled();
    });
    await user.click(idp);
    await user.click(await screen.findByRole('option', { name: 'acme' }));

    await waitFor(() => {
      expect(search(router).get('idp')).toBe('acme');
    });
    table = await partiesTable();
    await waitFor(() => {
      expect(within(rowOf(table, theirs ?? '')).getByText('Local')).toBeVisible();
    });
    expect(within(rowOf(table, theirs ?? '')).getByText('acme')).toBeVisible();
    expect(within(rowOf(table, theirs ?? '')).getByText('team=acme-ops')).toBeVisible();
    await waitFor(() => {
      expect(within(rowOf(table, mine ?? '')).getByText('Other identity provider')).toBeVisible();
    });
    expect(within(rowOf(table, mine ?? '')).getByText('default')).toBeVisible();
  });

  it('offers "Allocate party" when there are no parties', async () => {
    renderRoute('/parties');

    const empty = await screen.findByText('No parties yet');
    const emptyState = empty.closest('[role="status"]');
    if (!(emptyState instanceof HTMLElement)) throw new Error('no empty state');
    expect(within(emptyState).getByRole('link', { name: 'Allocate party' })).toHaveAttribute(
      'href',
      '/parties/new',
    );
    expect(screen.queryByRole('table', { name: 'Parties' })).not.toBeInTheDocument();
  });

  it('shows why the parties could not be listed, and recovers on Retry', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    allowConsole(/^ApiError: NETWORK_UNREACHABLE/);
    const { user, interceptNetwork } = renderRoute('/parties', {
      sandbox,
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/parties'
          ? Promise.reject(new TypeError('fetch failed'))
          : sandboxFetch(request),
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the server');
    expect(within(alert).getByText('NETWORK_UNREACHABLE')).toBeVisible();

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await status('Showing parties 1–1')).toBeVisible();
    expect(screen.getByRole('link', { name: /^alice::/ })).toBeVisible();
  });

  it("shows an IdP admin its own IdP's view, with the IdP fixed", async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
    const { identityProviderId } = await signInAsIdentityProviderAdmin(sandbox);
    const [ours] = seedPartyRecords(sandbox, [
      { hint: 'ours', identityProviderId },
      { hint: 'default-party' },
    ]);
    const { router, user } = renderRoute('/parties?idp=other', { sandbox });

    // Its own parties first; the participant's others (blinded) one click away.
    const table = await partiesTable();
    const localOnly = screen.getByRole('checkbox', { name: 'Local parties only' });
    expect(localOnly).toBeChecked();
    expect(within(table).queryByText(/^default-party/)).not.toBeInTheDocument();
    await user.click(localOnly);
    await status('Showing parties 1–2');
    expect(await within(table).findByText(/^default-party/)).toBeVisible();
    expect(within(rowOf(table, ours ?? '')).getByText('Local')).toBeVisible();
    expect(within(rowOf(table, ours ?? '')).getByText(identityProviderId)).toBeVisible();
    const idp = screen.getByRole('combobox', { name: /^Identity provider/ });
    expect(idp).toBeDisabled();
    expect(idp).toHaveValue(identityProviderId);
    expect(screen.getByText(/your identity provider, acme/)).toBeVisible();
    expect(search(router).get('idp')).toBe('other');
  });

  it('tells a user without admin rights that it cannot list parties', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    renderRoute('/parties', { sandbox });

    expect(await screen.findByRole('region', { name: 'You may not list parties' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Allocate party' })).not.toBeInTheDocument();
  });
});

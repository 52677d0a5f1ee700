import { captureDownloads } from '@/testing/capture-downloads';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { userQueries } from '@/api/users';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { sandboxJson } from '@/testing/seed-parties';
import { seedUserRights, seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

const usersTable = () => screen.findByRole('table', { name: 'Users' });
// Generous: the machine running the suite may be busy, and paging renders a whole table.
const status = (text: string | RegExp) =>
  screen.findByText(text, { selector: '[role="status"]' }, { timeout: 5000 });
const search = (router: ReturnType<typeof renderRoute>['router']) =>
  new URLSearchParams(router.state.location.search);

// Paging renders whole tables against a real sandbox; the machine running the suite may be busy.
describe('users list', { timeout: 30_000 }, () => {
  it('shows the users with their party, IdP, status and annotations, linked to their pages', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 2, {
      prefix: 'ops',
      each: (index) =>
        index === 0
          ? {
              primaryParty: `Alice::${'ab'.repeat(34)}`,
              annotations: { team: 'ops', tier: 'gold' },
            }
          : { isDeactivated: true },
    });
    renderRoute('/users', { sandbox });

    const table = await usersTable();
    expect(await status('Showing users 1–3')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    const first = within(table).getByRole('link', { name: 'ops-0001' });
    expect(first).toHaveAttribute('href', '/users/ops-0001');
    const row = first.closest('tr');
    if (!row) throw new Error('no row');
    // The primary party goes through the one identifier component: shortened, full id on
    // hover, linked to the party's page.
    const party = within(row).getByRole('link', { name: 'Alice::ababab…abab' });
    expect(party).toHaveAttribute('title', `Alice::${'ab'.repeat(34)}`);
    expect(party).toHaveAttribute('href', `/parties/Alice%3A%3A${'ab'.repeat(34)}`);
    // Each row's copy button says whose party it copies.
    expect(
      within(row).getByRole('button', { name: 'Copy primary party of ops-0001' }),
    ).toBeVisible();
    expect(within(row).getByText('default')).toBeVisible();
    expect(within(row).getByText('Active')).toBeVisible();
    expect(within(row).getByRole('cell', { name: '2' })).toBeVisible();
    const second = within(table).getByRole('link', { name: 'ops-0002' }).closest('tr');
    if (!second) throw new Error('no row');
    expect(within(second).getByText('Deactivated')).toBeVisible();
    expect(within(table).getByRole('link', { name: 'participant_admin' })).toBeVisible();
    expect(screen.getByText('This is the last page.')).toBeVisible();
    expect(
      screen.getByRole('alert', { name: /users of the default identity provider/i }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create user' })).toHaveAttribute('href', '/users/new');
  });

  it('pages forwards and back with the page and its token trail in the URL', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 60);
    const { user, router } = renderRoute('/users?size=25', { sandbox });

    expect(await status('Showing users 1–25')).toBeVisible();
    expect(screen.getByText('More users may follow.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await status('Showing users 26–50')).toBeVisible();
    expect(screen.getByText('Page 2')).toBeVisible();
    expect(search(router).get('page')).toBe('2');
    expect(search(router).get('size')).toBe('25');
    expect(search(router).getAll('token')).toHaveLength(1);
    const page2 = router.state.location.search;

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await status('Showing users 51–61')).toBeVisible();
    expect(screen.getByText('This is the last page.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'user-0060' })).toBeVisible();
    expect(search(router).getAll('token')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await status('Showing users 26–50')).toBeVisible();
    expect(router.state.location.search).toBe(page2);

    // The browser's back button walks the same history.
    await router.navigate(-1);
    expect(await status('Showing users 51–61')).toBeVisible();
    await router.navigate(-1);
    await router.navigate(-1);
    expect(await status('Showing users 1–25')).toBeVisible();

    // A deep link (reload, shared URL) opens the same page.
    await router.navigate(`/users${page2}`);
    expect(await status('Showing users 26–50')).toBeVisible();
    expect(screen.getByRole('link', { name: 'user-0025' })).toBeVisible();
  });

  it('shows a prefetched next page within the click, with no loader; a page not fetched waits in it', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 60);
    const { router, queryClient } = renderRoute('/users?size=25', { sandbox });
    await status('Showing users 1–25');
    const navigations: string[] = [];
    router.subscribe((state) => {
      navigations.push(state.navigation.state);
    });
    // Once a page is shown, the next one is prefetched.
    await waitFor(() => {
      expect(
        queryClient.getQueriesData({ queryKey: userQueries.lists() }).filter(([, data]) => data),
      ).toHaveLength(2);
    });

    // The navigation goes through, watched.
    const navigate = vi.spyOn(router, 'navigate');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    // Rendered at once (flushSync, not a transition), with nothing awaited in a loader.
    expect(screen.getByText('Showing users 26–50', { selector: '[role="status"]' })).toBeVisible();
    expect(navigate).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.objectContaining({ flushSync: true }),
    );
    expect(navigations).not.toContain('loading');

    // A page size nobody fetched yet goes through the loader, which waits for it, in a transition.
    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: '50' } });
    expect(await status('Showing users 1–50')).toBeVisible();
    expect(navigate).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.objectContaining({ flushSync: false }),
    );
    expect(navigations).toContain('loading');
  });

  it('says "No more users" when the last page was exactly full', async () => {
    const sandbox = createSandbox();
    // With participant_admin, exactly two pages of 25: the second still gets a token.
    seedUsers(sandbox, 49);
    const { user } = renderRoute('/users?size=25', { sandbox });

    await status('Showing users 1–25');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await status('Showing users 26–50')).toBeVisible();
    expect(screen.getByText('More users may follow.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Next page' }));

    expect(await status('No more users')).toBeVisible();
    expect(screen.getByText(/the previous page ended exactly with the last one/)).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await status('Showing users 26–50')).toBeVisible();
  });

  it('changes the page size and starts again from the first page', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 60);
    const { user, router } = renderRoute('/users?size=25', { sandbox });
    await status('Showing users 1–25');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await status('Showing users 26–50');

    await user.selectOptions(screen.getByLabelText('Page size'), '50');

    expect(await status('Showing users 1–50')).toBeVisible();
    expect(search(router).get('size')).toBe('50');
    expect(search(router).get('page')).toBeNull();
    expect(search(router).getAll('token')).toEqual([]);
  });

  it('filters the loaded page by text', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 30, {
      each: (index) => (index === 6 ? { annotations: { team: 'night-shift' } } : {}),
    });
    const { user } = renderRoute('/users', { sandbox });
    await status('Showing users 1–31');

    await user.type(screen.getByLabelText('Filter users'), 'NIGHT');
    expect(await status('Showing 1 match among users 1–31')).toBeVisible();
    const table = screen.getByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('link')).toHaveLength(1);
    expect(within(table).getByRole('link', { name: 'user-0007' })).toBeVisible();

    await user.clear(screen.getByLabelText('Filter users'));
    await user.type(screen.getByLabelText('Filter users'), 'nobody');
    expect(await screen.findByText('No users on this page match “nobody”.')).toBeVisible();
  });

  it('loads every page with progress, can cancel and continue, then sorts, filters and exports', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 2100, {
      each: (index) => (index === 2049 ? { annotations: { a: '1', b: '2', c: '=SUM(A1)' } } : {}),
    });
    const { user, interceptNetwork } = renderRoute('/users?size=25', { sandbox });
    await status('Showing users 1–25');

    // Hold every follow-up page until the request is aborted, as a slow participant would.
    const heldRequests: Request[] = [];
    interceptNetwork((request, sandboxFetch) => {
      const url = new URL(request.url);
      if (url.pathname !== '/v2/users' || !url.searchParams.get('pageToken')) {
        return sandboxFetch(request);
      }
      heldRequests.push(request);
      return new Promise((_resolve, reject) => {
        request.signal.addEventListener('abort', () => {
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    });

    await user.click(screen.getByRole('button', { name: 'Load all users' }));
    expect(await status('Loading all users: 1000 users in 1 page so far…')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Loading all users' })).toBeVisible();
    await waitFor(() => {
      expect(heldRequests).toHaveLength(1);
    });

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(
      await status('Loading cancelled: 1000 users loaded (1 page); more may follow'),
    ).toBeVisible();
    expect(heldRequests[0]?.signal.aborted).toBe(true);
    expect(screen.getByRole('table', { name: 'Users' })).toHaveAttribute('aria-rowcount', '1001');

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(screen.getByRole('button', { name: 'Continue loading' }));
    expect(await status('All 2101 users loaded (3 pages)')).toBeVisible();
    const table = screen.getByRole('table', { name: 'Users' });
    // Virtualized: every user counts, only the visible rows are in the DOM.
    expect(table).toHaveAttribute('aria-rowcount', '2102');
    expect(within(table).getAllByRole('row').length).toBeLessThan(100);

    // Loaded in the API's order, which is by id.
    const idHeader = within(table).getByRole('columnheader', { name: 'User id' });
    expect(idHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: 'Status' })).toHaveAttribute(
      'aria-sort',
      'none',
    );
    await user.click(within(idHeader).getByRole('button', { name: 'User id' }));
    expect(idHeader).toHaveAttribute('aria-sort', 'descending');
    const firstRow = within(table).getAllByRole('row')[1];
    if (!firstRow) throw new Error('no rows');
    expect(within(firstRow).getByRole('link', { name: 'user-2100' })).toHaveAttribute(
      'href',
      '/users/user-2100',
    );
    expect(firstRow).toHaveAttribute('aria-rowindex', '2');

    await user.type(screen.getByLabelText('Filter users'), 'sum(');
    expect(await status('All 2101 users loaded (3 pages) · showing 1 match')).toBeVisible();

    const { saved, names } = captureDownloads();

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export JSON' }));

    expect(names).toHaveLength(2);
    expect(saved.map((blob) => blob.type)).toEqual([
      'text/csv;charset=utf-8',
      'application/json;charset=utf-8',
    ]);
    const [csv, json] = await Promise.all(saved.map((blob) => blob.text()));
    expect(csv).toBe(
      'id,primaryParty,identityProviderId,isDeactivated,annotationsCount,annotations,resourceVersion\r\n' +
        'user-2050,,,false,3,"{""a"":""1"",""b"":""2"",""c"":""=SUM(A1)""}",0\r\n',
    );
    const exported = JSON.parse(json ?? '') as { id: string; metadata: unknown }[];
    expect(exported).toEqual([
      {
        id: 'user-2050',
        primaryParty: '',
        isDeactivated: false,
        identityProviderId: '',
        primaryPartyAuthentication: false,
        metadata: { resourceVersion: '0', annotations: { a: '1', b: '2', c: '=SUM(A1)' } },
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Back to pages' }));
    expect(await screen.findByLabelText('Page size')).toBeVisible();
  });

  it('offers "Create user" when there are no users', async () => {
    const sandbox = createSandbox();
    await sandboxJson(sandbox, 'DELETE', '/v2/users/participant_admin');
    renderRoute('/users', { sandbox });

    const empty = await screen.findByText('No users yet');
    const emptyState = empty.closest('[role="status"]');
    if (!(emptyState instanceof HTMLElement)) throw new Error('no empty state');
    expect(within(emptyState).getByRole('link', { name: 'Create user' })).toHaveAttribute(
      'href',
      '/users/new',
    );
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('shows why the users could not be listed, and recovers on Retry', async () => {
    const { user, interceptNetwork } = renderRoute('/users', {
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/users'
          ? Promise.reject(new TypeError('fetch failed'))
          : sandboxFetch(request),
    });
    allowConsole(/^ApiError: NETWORK_UNREACHABLE/);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the server');
    expect(within(alert).getByText('NETWORK_UNREACHABLE')).toBeVisible();

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await status('Showing users 1–1')).toBeVisible();
    expect(screen.getByRole('link', { name: 'participant_admin' })).toBeVisible();
  });

  it('tells an IdP admin that the list holds its own IdP users only', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'users-list-test-secret' });
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    seedUsers(sandbox, 3, { prefix: 'acme', identityProviderId: 'acme' });
    seedUsers(sandbox, 2, { prefix: 'default' });
    seedUserRights(sandbox, 'acme-0001', ['IdentityProviderAdmin']);
    await signInAs(sandbox, 'acme-0001');
    renderRoute('/users', { sandbox });

    expect(await status('Showing users 1–3')).toBeVisible();
    const note = screen.getByRole('alert', { name: /users of your identity provider/i });
    expect(note).toHaveTextContent('acme');
    const table = screen.getByRole('table', { name: 'Users' });
    expect(
      within(table)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['acme-0001', 'acme-0002', 'acme-0003']);
    expect(within(table).getByRole('link', { name: 'acme-0002' })).toHaveAttribute(
      'href',
      '/users/acme-0002?idp=acme',
    );
    expect(screen.getByRole('link', { name: 'Create user' })).toBeVisible();
  });
});

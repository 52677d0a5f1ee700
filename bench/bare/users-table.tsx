/**
 * The lists-and-pages limit: plain React (no Mantine, no router, no query library) that fetches
 * the same `GET /v2/users?pageSize=N[&pageToken=…]` the console's users page does and renders the
 * same five columns into a plain `<table>`, every row in the DOM. Like the console it prefetches
 * the next page once a page is shown, so a flip compares the same work: rows already fetched →
 * rows shown. Its status line reads like the console's ("Showing users 1–1000"), so the bench
 * times both with the same text probe (WATCH_SCRIPT in bench-support).
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

type User = {
  id: string;
  primaryParty?: string;
  identityProviderId?: string;
  isDeactivated?: boolean;
  metadata?: { annotations?: Record<string, string> };
};
type UsersPage = { users?: User[]; nextPageToken?: string };
type Shown = { size: number; first: number; page: UsersPage };

/** The default identity provider's id is ''. */
const idpLabel = (id: string | undefined) => (id === undefined || id === '' ? 'default' : id);

const pages = new Map<string, Promise<UsersPage>>();

/** One page, fetched once: the prefetch and the flip share the request. */
function fetchPage(size: number, token: string): Promise<UsersPage> {
  const key = `${String(size)}/${token}`;
  let page = pages.get(key);
  if (!page) {
    const query = new URLSearchParams({ pageSize: String(size) });
    if (token) query.set('pageToken', token);
    page = fetch(`/v2/users?${query.toString()}`).then(
      async (response) => (await response.json()) as UsersPage,
    );
    pages.set(key, page);
  }
  return page;
}

function UsersTable() {
  const [size, setSize] = useState(
    () => Number(new URLSearchParams(window.location.search).get('size')) || 50,
  );
  const [shown, setShown] = useState<Shown | undefined>();

  useEffect(() => {
    let live = true;
    void fetchPage(size, '').then((page) => {
      if (live) setShown({ size, first: 1, page });
    });
    return () => {
      live = false;
    };
  }, [size]);

  const next = shown?.page.nextPageToken ?? '';
  useEffect(() => {
    if (shown && next) void fetchPage(shown.size, next);
  }, [shown, next]);

  if (!shown) return <p>Loading…</p>;
  const users = shown.page.users ?? [];
  return (
    <main>
      <label>
        Page size{' '}
        <select
          value={size}
          onChange={(event) => {
            setSize(Number(event.currentTarget.value));
          }}
        >
          <option value={50}>50</option>
          <option value={1000}>1000</option>
        </select>
      </label>
      <p role="status">{`Showing users ${String(shown.first)}–${String(shown.first + users.length - 1)}`}</p>
      <table>
        <thead>
          <tr>
            <th>User id</th>
            <th>Primary party</th>
            <th>IdP</th>
            <th>Status</th>
            <th>Annotations</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={`${user.identityProviderId ?? ''}/${user.id}`}>
              <td>
                <a href={`/users/${encodeURIComponent(user.id)}`}>{user.id}</a>
              </td>
              <td>{user.primaryParty ?? 'none'}</td>
              <td>{idpLabel(user.identityProviderId)}</td>
              <td>{user.isDeactivated ? 'Deactivated' : 'Active'}</td>
              <td>{Object.keys(user.metadata?.annotations ?? {}).length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        disabled={!next}
        onClick={() => {
          const first = shown.first + users.length;
          void fetchPage(shown.size, next).then((page) => {
            setShown({ size: shown.size, first, page });
          });
        }}
      >
        Next page
      </button>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <UsersTable />
    </StrictMode>,
  );
}

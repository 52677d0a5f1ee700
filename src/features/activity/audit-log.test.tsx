import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startAuditedConsoleFor } from '@/testing/audited-console';
import { captureDownloads } from '@/testing/capture-downloads';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { mintToken, signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { sandboxSteps } from '@/testing/sandbox-steps';

// Whole journeys over a real console server on loopback; a shared 2-core machine is slow.
const JOURNEY_TIMEOUT = 120_000;
const SLOW = { timeout: 30_000 };

function entryRows(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryByRole('button', { name: /details/i }) !== null);
}

async function auditTable() {
  return screen.findByRole('table', { name: 'Audit log' }, SLOW);
}

describe('activity page over the console server’s shared audit log', () => {
  it(
    "shows a colleague's calls beside this browser's, with before → after only for its own, filters, pages and exports them",
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'audit-log-page-secret' });
      const network = await startAuditedConsoleFor(sandbox);
      // A colleague, elsewhere, through the same console server.
      const colleague = await mintToken(sandbox, 'participant_admin');
      await network.createUserElsewhere(colleague, 'ops');
      await signInAs(sandbox, 'participant_admin');
      const { user, router } = renderRoute('/users/new', { sandbox, intercept: network.intercept });

      // This browser creates one through the form.
      await user.type(await screen.findByRole('textbox', { name: /^User id/ }, SLOW), 'dana');
      await user.click(screen.getByRole('button', { name: 'Create user' }));
      expect(await screen.findByRole('heading', { name: 'dana' }, SLOW)).toBeVisible();

      await router.navigate('/activity');
      let table = await auditTable();
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(2);
      }, SLOW);
      const [mine, theirs] = entryRows(table);
      expect(mine).toHaveTextContent('user.create');
      expect(mine).toHaveTextContent('dana');
      expect(mine).toHaveTextContent('participant_admin');
      expect(theirs).toHaveTextContent('ops');
      expect(screen.getByText('You see all entries.')).toBeVisible();
      expect(screen.getByText(/lost when the server restarts.*--data-dir/)).toBeVisible();

      // Before → after for the call this browser made, not for the colleague's.
      await user.click(within(mine ?? table).getByRole('button', { name: 'Details' }));
      expect(
        screen.getByText('This browser made this call and recorded the state around it:'),
      ).toBeVisible();
      expect(screen.getByText('POST /v2/users')).toBeVisible();
      await user.click(within(theirs ?? table).getByRole('button', { name: 'Details' }));
      expect(screen.getByText(/Before and after are known only to the browser/)).toBeVisible();

      // A filter goes to the URL and to the server.
      await user.type(screen.getByRole('textbox', { name: /^Contains/ }), 'ops');
      await waitFor(() => {
        expect(router.state.location.search).toBe('?text=ops');
      }, SLOW);
      table = await auditTable();
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(1);
      }, SLOW);
      expect(entryRows(table)[0]).toHaveTextContent('ops');

      // The export holds the filtered entries with absolute times, not just what is on screen.
      const { saved } = captureDownloads();
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => {
        expect(saved).toHaveLength(1);
      }, SLOW);
      const lines = (await saved[0]?.text())?.split('\r\n') ?? [];
      expect(lines[0]).toBe(
        'at,participant,user,identity provider,token issuer,token subject,authenticated,action,method,path,resource,summary,status,error code,duration ms',
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z,[^,]+,participant_admin,.*,true,user\.create,POST,\/v2\/users,ops,/,
      );

      // Back returns to the unfiltered log, and the field says so rather than the old text.
      await router.navigate(-1);
      await waitFor(() => {
        expect(screen.getByRole('textbox', { name: /^Contains/ })).toHaveValue('');
      }, SLOW);
      expect(router.state.location.search).toBe('');
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(2);
      }, SLOW);

      // Paging: 11 entries, 10 a page; newer entries are one click back.
      for (let index = 0; index < 9; index += 1) {
        await network.createUserElsewhere(colleague, `bulk-${String(index).padStart(2, '0')}`);
      }
      await router.navigate('/activity?size=10');
      table = await auditTable();
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(10);
      }, SLOW);
      expect(entryRows(table)[0]).toHaveTextContent('bulk-08');
      const pager = screen.getByRole('navigation', { name: 'Audit log pages' });
      await user.click(within(pager).getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText('Showing entries 11–11', {}, SLOW)).toBeVisible();
      table = await auditTable();
      // The oldest: the colleague's first.
      expect(entryRows(table).map((row) => row.textContent)).toEqual([
        expect.stringContaining('ops'),
      ]);
      expect(router.state.location.search).toContain('page=2');
      await user.click(within(pager).getByRole('button', { name: 'Previous page' }));
      expect(await screen.findByText('Showing entries 1–10', {}, SLOW)).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows an IdP admin only its identity provider’s entries, and a plain user only their own',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'audit-log-scope-secret' });
      const network = await startAuditedConsoleFor(sandbox);
      const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
      await network.createUserElsewhere(adminToken, 'default-user');
      const acmeAdmin = await mintToken(sandbox, 'acme-admin');
      await network.createUserElsewhere(acmeAdmin, 'acme-user', 'acme');

      const { router, unmount } = renderRoute('/activity', {
        sandbox,
        intercept: network.intercept,
      });
      const table = await auditTable();
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(1);
      }, SLOW);
      expect(entryRows(table)[0]).toHaveTextContent('acme-user');
      expect(
        screen.getByText('You see the entries of identity provider acme, which you administer.'),
      ).toBeVisible();
      expect(router.state.location.pathname).toBe('/activity');
      unmount();

      // A user without admin rights has made no call: an empty log, and says whose it would be.
      await sandboxSteps(sandbox, adminToken).createUser('carol', { rights: [] });
      await signInAs(sandbox, 'carol');
      renderRoute('/activity', { sandbox, intercept: network.intercept });
      expect(await screen.findByText('You see your own entries only.', {}, SLOW)).toBeVisible();
      expect(screen.getByText('No entries yet')).toBeVisible();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});

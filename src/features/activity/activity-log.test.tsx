import { captureDownloads } from '@/testing/capture-downloads';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedParties } from '@/testing/seed-parties';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

// A whole-app journey through several forms; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

/** The body rows of a table (its first row is the header), without the open detail rows. */
function entryRows(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryByRole('button', { name: /details/i }) !== null);
}

describe('activity log', () => {
  it(
    'records what the UI changed, with results, on the activity page, the user page and in exports',
    async () => {
      const sandbox = createSandbox();
      const [alice] = await seedParties(sandbox, ['alice']);
      const { user, router } = renderRoute('/users/new', { sandbox });

      // Create a user through the form.
      await user.type(await screen.findByRole('textbox', { name: /^User id/ }), 'ops');
      await user.click(screen.getByRole('button', { name: 'Create user' }));
      expect(await screen.findByRole('heading', { name: 'ops' })).toBeVisible();

      // Grant it a right on its page, its rights loaded first (the "before").
      await user.click(screen.getByRole('tab', { name: 'Rights' }));
      // The tab is in the URL now: its panel shows once the navigation has landed.
      await waitFor(() => {
        expect(screen.getByText('This user has no rights yet.')).toBeVisible();
      });
      const grant = screen.getByRole('form', { name: 'Grant rights' });
      await user.click(within(grant).getByRole('button', { name: 'Add party right' }));
      await user.click(within(grant).getByRole('combobox', { name: 'Right 1 party' }));
      await user.paste(alice ?? '');
      await user.click(within(grant).getByRole('button', { name: 'Grant rights' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Grant right to ops?' })).getByRole(
          'button',
          { name: 'Grant right' },
        ),
      );
      await screen.findByRole('status', { name: 'Rights granted' });

      // The user's Activity tab lists both, newest first.
      await user.click(screen.getByRole('tab', { name: 'Activity' }));
      const recent = await screen.findByRole('table', { name: 'Recent activity' });
      await waitFor(() => {
        expect(entryRows(recent)).toHaveLength(2);
      });
      const [granted, created] = entryRows(recent);
      expect(granted).toHaveTextContent('user.rights.grant');
      expect(granted).toHaveTextContent('ok');
      expect(created).toHaveTextContent('user.create');
      // Everyone's calls about this user are in the shared log, searched for its id.
      expect(
        screen.getByRole('link', { name: 'Audit log entries that mention this user' }),
      ).toHaveAttribute('href', '/activity?text=ops');

      // A failed create: the id is taken.
      await router.navigate('/users/new');
      await user.type(await screen.findByRole('textbox', { name: /^User id/ }), 'ops');
      await user.click(screen.getByRole('button', { name: 'Create user' }));
      await waitFor(() => {
        expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveAccessibleDescription(
          /already exists/,
        );
      });

      await router.navigate('/activity?log=browser');
      const table = await screen.findByRole('table', { name: 'Activity' });
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(3);
      });
      const [failed, grantRow, createRow] = entryRows(table);
      expect(failed).toHaveTextContent('user.create');
      expect(failed).toHaveTextContent('USER_ALREADY_EXISTS');
      expect(grantRow).toHaveTextContent('user.rights.grant');
      expect(grantRow).toHaveTextContent(`ops, ${alice ?? ''}`);
      expect(createRow).toHaveTextContent('ok');

      await user.click(within(failed ?? table).getByRole('button', { name: 'Details' }));
      expect(screen.getByText(/USER_ALREADY_EXISTS \(HTTP 409\)/)).toBeVisible();
      expect(screen.getByText('POST /v2/users')).toBeVisible();

      await user.click(within(grantRow ?? table).getByRole('button', { name: 'Details' }));
      // The rights tab had loaded the user's rights: none, before the grant.
      expect(screen.getByText('{"rights":[]}')).toBeVisible();
      expect(
        screen.getByText(
          `{"requested":["CanActAs:${alice ?? ''}"],"newlyGranted":["CanActAs:${alice ?? ''}"]}`,
        ),
      ).toBeVisible();

      // Filter to the failures.
      await user.click(screen.getByRole('combobox', { name: 'Result' }));
      await user.click(screen.getByRole('option', { name: 'Failed' }));
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(1);
      });
      await user.click(screen.getByRole('combobox', { name: 'Result' }));
      await user.click(screen.getByRole('option', { name: 'Any result' }));
      await user.type(screen.getByRole('textbox', { name: /^Subject/ }), 'ALICE');
      await waitFor(() => {
        expect(entryRows(table)).toHaveLength(1);
      });
      expect(entryRows(table)[0]).toHaveTextContent('user.rights.grant');
      await user.clear(screen.getByRole('textbox', { name: /^Subject/ }));

      // Export: the file is a Blob behind an object URL.
      const { saved, names } = captureDownloads();
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await user.click(screen.getByRole('button', { name: 'Export JSON' }));
      expect(names).toHaveLength(2);
      expect(router.state.location.pathname).toBe('/activity');

      const [csvBlob, jsonBlob] = saved;
      expect(csvBlob?.type).toBe('text/csv;charset=utf-8');
      const lines = (await csvBlob?.text())?.split('\r\n') ?? [];
      expect(lines[0]).toBe(
        'at,actor,participant,action,method,path,subjects,result,status,error message,correlation id,before,after',
      );
      expect(lines).toHaveLength(5);
      expect(lines[1]).toMatch(
        /^[^,]+,anonymous,[^,]+,user\.create,POST,\/v2\/users,user:ops,USER_ALREADY_EXISTS,409,/,
      );
      expect(lines[2]).toContain(
        `,user.rights.grant,POST,/v2/users/ops/rights,user:ops party:${alice ?? ''},ok,`,
      );
      // JSON in a cell is quoted, its quotes doubled.
      expect(lines[2]).toContain('"{""rights"":[]}"');
      expect(lines[3]).toContain(',user.create,POST,/v2/users,user:ops,ok,,,,,');
      expect(lines[4]).toBe('');

      const json = JSON.parse((await jsonBlob?.text()) ?? '') as { entries: unknown[] };
      expect(json.entries).toHaveLength(3);
      expect(json.entries[0]).toMatchObject({
        action: 'user.create',
        actor: { kind: 'anonymous' },
        call: { method: 'POST', path: '/v2/users' },
        subjects: [{ kind: 'user', userId: 'ops', identityProviderId: '' }],
        before: { kind: 'none' },
        result: { kind: 'error', code: 'USER_ALREADY_EXISTS', status: 409 },
      });

      // Clearing asks first.
      await user.click(screen.getByRole('button', { name: 'Clear log' }));
      const dialog = await screen.findByRole('dialog', { name: 'Clear the activity log?' });
      await user.click(within(dialog).getByRole('button', { name: 'Clear log' }));
      expect(await screen.findByText('No activity yet')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "names the signed-in IdP admin, shows the allocation on the party's page, and stores no token",
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'activity-log-test-secret' });
      await signInAsIdentityProviderAdmin(sandbox);
      const { user } = renderRoute('/parties/new', { sandbox });
      await screen.findByRole('form', { name: 'Allocate party' });

      await user.type(screen.getByRole('textbox', { name: /^Party id hint/ }), 'Dana');
      await user.click(screen.getByRole('button', { name: 'Allocate party' }));
      expect(await screen.findByRole('heading', { name: 'Dana', level: 1 })).toBeVisible();

      const recent = await screen.findByRole('table', { name: 'Recent activity' });
      await waitFor(() => {
        expect(entryRows(recent)).toHaveLength(1);
      });
      const [allocated] = entryRows(recent);
      expect(allocated).toHaveTextContent('party.allocate');
      expect(allocated).toHaveTextContent(`Dana::${sandbox.state.namespace}`);
      expect(allocated).toHaveTextContent('ok');
      expect(
        screen.getByRole('link', { name: 'Audit log entries that mention this party' }),
      ).toHaveAttribute(
        'href',
        `/activity?${new URLSearchParams({ text: `Dana::${sandbox.state.namespace}` }).toString()}`,
      );

      await user.click(within(allocated ?? recent).getByRole('button', { name: 'Details' }));
      expect(screen.getByText(/by acme-admin \(acme\)/)).toBeVisible();

      const token = window.sessionStorage.getItem('ledger-console.access-token') ?? '';
      expect(token).not.toBe('');
      const [key, stored] =
        Object.entries(window.sessionStorage).find(([name]) => name.includes('activity.log')) ?? [];
      expect(stored).toContain('party.allocate');
      expect(key).not.toContain(token);
      expect(stored).not.toContain(token);
    },
    JOURNEY_TIMEOUT,
  );
});

import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';
import {
  auditRows,
  exportAuditLog,
  filterAuditText,
  openAuditLog,
  PAGE_LOAD,
} from './helpers/audit-log';
import { JWT_CONSOLE_URL } from './helpers/jwt';
import { signInAsSandboxUser } from './helpers/session';
import { assertOnUserPage, fillUserId, submitCreateUser } from './helpers/users';

// The console in front of a sandbox with `--auth jwt` and the demo data (participant_admin,
// the IdP acme-idp with its admin acme-admin, the default-IdP user alice.anderson). Its audit log
// is in memory: the console server shares it among every browser for as long as it runs.
test.use({ baseURL: JWT_CONSOLE_URL });

/** Another browser: a context of its own (own storage, own sign-in), as a colleague's would be. */
async function otherBrowser(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: JWT_CONSOLE_URL });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  return {
    page,
    close: async () => {
      await context.close();
      expect(problems, 'the other browser threw').toEqual([]);
    },
  };
}

test("a user created in one browser is on a colleague's Activity page in another, scoped by role", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const userId = uniqueId('audited');

  // Browser one: a participant admin creates a user.
  await signInAsSandboxUser(page, 'participant_admin');
  await page.goto('/users/new');
  await expect(page.getByRole('heading', { name: 'Create user' })).toBeVisible(PAGE_LOAD);
  await fillUserId(page, userId);
  await submitCreateUser(page);
  await assertOnUserPage(page, userId);

  // Browser two: another participant admin sees it in the shared log, without before/after.
  const colleague = await otherBrowser(browser);
  await signInAsSandboxUser(colleague.page, 'participant_admin');
  const table = await openAuditLog(colleague.page);
  await expect(colleague.page.getByText('You see all entries')).toBeVisible();
  await expect(colleague.page.getByText(/lost when the server restarts/)).toBeVisible();
  const row = auditRows(table, userId);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('user.create');
  await expect(row).toContainText('participant_admin');
  await row.getByRole('button', { name: 'Details' }).click();
  await expect(
    colleague.page.getByText('Before and after are known only to the browser that made a call'),
  ).toBeVisible();

  // Filtered to that user, kept in the URL, and exported with absolute times.
  await filterAuditText(colleague.page, userId);
  await expect(auditRows(table, '')).toHaveCount(1);
  const { fileName, text } = await exportAuditLog(colleague.page, 'CSV');
  expect(fileName).toMatch(/^audit-log-.*\.csv$/);
  const lines = text.trim().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[^,]+Z,.*,user\\.create,POST,/v2/users,${userId},`),
  );
  await colleague.page.reload();
  await expect(colleague.page.getByRole('textbox', { name: /^Contains/ })).toHaveValue(
    userId,
    PAGE_LOAD,
  );
  await expect(auditRows(table, userId)).toHaveCount(1);

  // Browser one made the call, so it shows what changed.
  const own = await openAuditLog(page, `?text=${encodeURIComponent(userId)}`);
  await auditRows(own, userId).getByRole('button', { name: 'Details' }).click();
  await expect(
    page.getByText('This browser made this call and recorded the state around it:'),
  ).toBeVisible();
  await expect(page.getByText(`"id":"${userId}"`).first()).toBeVisible();

  // Scoping: the IdP admin of acme-idp sees its IdP's entries, a plain user their own; neither
  // sees the participant admin's call.
  await colleague.close();
  const idpAdmin = await otherBrowser(browser);
  await signInAsSandboxUser(idpAdmin.page, 'acme-admin');
  const idpTable = await openAuditLog(idpAdmin.page);
  await expect(
    idpAdmin.page.getByText('You see the entries of identity provider acme-idp'),
  ).toBeVisible();
  await expect(auditRows(idpTable, userId)).toHaveCount(0);
  await idpAdmin.close();

  const plain = await otherBrowser(browser);
  await signInAsSandboxUser(plain.page, 'alice.anderson');
  await plain.page.getByRole('link', { name: 'Activity' }).click();
  await expect(plain.page.getByText('You see your own entries only.')).toBeVisible(PAGE_LOAD);
  await expect(auditRows(plain.page.getByRole('table', { name: 'Audit log' }), userId)).toHaveCount(
    0,
  );
  await plain.close();
});

import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { uniqueId } from './helpers/api';
import {
  assertPlanSummary,
  assertResults,
  chooseImportFile,
  clickRunImport,
  downloadResults,
  goToUsersImport,
  IMPORT_HEADER,
  planRows,
  showRowsNeedingAttention,
} from './helpers/bulk-import';
import { ACME_PROVIDER, OIDC_CONSOLE_URL, signInAs } from './helpers/oidc';
import { consoleToken } from './helpers/offboarding';

// The OpenID console (`--auth oidc`): acme's IdP admin signs in through the provider's real
// redirect. Its sandbox is shared by every journey of a run, so every id here is fresh.
test.use({
  baseURL: OIDC_CONSOLE_URL,
  allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
});

const ROWS = 200;

/**
 * 200 people with fresh ids and new parties, and three bad rows: a user id with a space (row 7),
 * row 1's user id again (row 50), and the hint of the demo's `bank`, a party of the default IdP
 * (row 120).
 */
function peopleCsv(batch: string): string {
  const lines = [IMPORT_HEADER];
  for (let index = 1; index <= ROWS; index += 1) {
    let userId = `${batch}-${String(index)}`;
    let hint = `${batch}-${String(index)}-party`;
    if (index === 7) userId = `${batch} seven`;
    if (index === 50) userId = `${batch}-1`;
    if (index === 120) hint = 'bank';
    lines.push(`${userId},Person ${String(index)},${hint},,acts-as-own,false`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

test("acme's IdP admin imports 200 people: the plan shows the bad rows, the run creates the rest, a re-run changes nothing", async ({
  page,
}) => {
  test.slow();
  await page.goto('/sign-in');
  await signInAs(page, ACME_PROVIDER, 'acme-admin');
  const batch = uniqueId('bulk');
  const csv = peopleCsv(batch);

  await goToUsersImport(page);
  await chooseImportFile(page, 'people.csv', csv);
  await assertPlanSummary(
    page,
    '200 rows: 197 to create, 0 to complete with missing rights, 0 to skip, 2 invalid, 1 blocked.',
  );
  await showRowsNeedingAttention(page);
  const bad = planRows(page);
  await expect(bad).toHaveCount(3);
  await assertNoAccessibilityViolations(page);
  await expect(bad.nth(0)).toContainText('userId: A space is not allowed in a user id');
  await expect(bad.nth(1)).toContainText('userId: Duplicate: row 1 has this user id');
  await expect(bad.nth(2)).toContainText('Blocked');
  await expect(bad.nth(2)).toContainText(
    'exists already but is not a party of identity provider acme-idp',
  );

  await clickRunImport(page);
  await assertResults(page, 'Results: 197 created, 0 updated, 0 skipped, 3 failed.');

  const { fileName, text } = await downloadResults(page, 'CSV');
  expect(fileName).toMatch(/^people-results-.*\.csv$/);
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('row,userId,party,outcome,reason');
  expect(lines).toHaveLength(ROWS + 1);
  expect(lines[1]).toMatch(new RegExp(`^1,${batch}-1,${batch}-1-party::1220[0-9a-f]{64},created,`));
  expect(lines[7]).toContain(',failed,"userId: A space is not allowed in a user id');
  expect(lines[50]).toContain(',failed,userId: Duplicate: row 1 has this user id');
  expect(lines[120]).toMatch(
    /^120,.*,bank::1220[0-9a-f]{64},failed,.*not a party of identity provider acme-idp/,
  );
  const json = JSON.parse((await downloadResults(page, 'JSON')).text) as { outcome: string }[];
  expect(json.filter((row) => row.outcome === 'created')).toHaveLength(197);

  // A created person is a real user of acme-idp, with its new party as primary party.
  const answer = await page.request.get(`/v2/users/${encodeURIComponent(`${batch}-2`)}`, {
    headers: { Authorization: `Bearer ${await consoleToken(page)}` },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const { user } = (await answer.json()) as {
    user: { identityProviderId: string; primaryParty: string };
  };
  expect(user.identityProviderId).toBe('acme-idp');
  expect(user.primaryParty).toMatch(new RegExp(`^${batch}-2-party::1220[0-9a-f]{64}$`));

  // The same file again: nothing to do, so nothing to run, and nothing is written.
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/v2/')) {
      writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    }
  });
  await goToUsersImport(page);
  await chooseImportFile(page, 'people.csv', csv);
  await assertPlanSummary(
    page,
    '200 rows: 0 to create, 0 to complete with missing rights, 197 to skip, 2 invalid, 1 blocked.',
  );
  await expect(page.getByRole('button', { name: 'Run import' })).toBeDisabled();
  await expect(
    page.getByText('Nothing to run: of 200 rows, 2 invalid, 1 blocked, 197 already onboarded.', {
      exact: false,
    }),
  ).toBeVisible();
  expect(writes).toEqual([]);
});

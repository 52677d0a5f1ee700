import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';
import {
  assertPlanSummary,
  assertResults,
  chooseImportFile,
  clickRunImport,
  goToUsersImport,
  IMPORT_HEADER,
  planRows,
} from './helpers/bulk-import';

// Bulk import as a participant admin (issue 26 item 7): a file without a rights column gets the
// one-person form's default rights, badges keep their whole word, party ids keep a readable
// column (the table scrolls sideways on a phone instead), and Run is disabled, saying why, when
// nothing can run.

/** The element shows all its text: nothing clipped or cut to an ellipsis. */
async function assertNotClipped(element: Locator): Promise<void> {
  const sizes = await element.evaluate((node) => ({
    scroll: node.scrollWidth,
    client: node.clientWidth,
  }));
  expect(sizes.scroll, `${await element.innerText()} is not clipped`).toBeLessThanOrEqual(
    sizes.client,
  );
}

async function assertBadgeWhole(scope: Locator, label: string): Promise<void> {
  const badges = scope.getByText(label, { exact: true });
  expect(await badges.count()).toBeGreaterThan(0);
  for (const badge of await badges.all()) {
    await expect(badge).toBeVisible();
    await assertNotClipped(badge);
    // The badge's own box too: Mantine's label sits inside a root that also hides overflow.
    await assertNotClipped(badge.locator('xpath=..'));
  }
}

async function userRights(page: Page, userId: string): Promise<unknown> {
  const answer = await page.request.get(`/v2/users/${encodeURIComponent(userId)}/rights`);
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { rights: unknown }).rights;
}

for (const size of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a file without a rights column creates users with the default rights; badges and party ids stay whole', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const batch = uniqueId('norights');
      const people = [1, 2, 3].map((index) => ({
        userId: `${batch}-${String(index)}`,
        hint: `${batch}-${String(index)}-party`,
      }));
      const csv = [
        'userId,displayName,partyHint',
        ...people.map(({ userId, hint }) => `${userId},Person,${hint}`),
      ].join('\r\n');

      await goToUsersImport(page);
      await chooseImportFile(page, 'people.csv', `${csv}\r\n`);
      await assertPlanSummary(
        page,
        '3 rows: 3 to create, 0 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.',
      );
      await expect(page.getByRole('alert').filter({ hasText: 'Default rights' })).toContainText(
        'No rights column: each user gets “Acts as own party”, what the one-person onboarding form starts with.',
      );
      const table = page.getByRole('table', { name: 'Import plan' });
      await assertBadgeWhole(table, 'Create');

      // The party id: shortened in the middle, whole on hover, in a column wide enough to read.
      const first = planRows(page).first();
      const partyCell = first.getByRole('cell').nth(2);
      const party = await partyCell.locator('[title]').first().getAttribute('title');
      expect(party).toMatch(new RegExp(`^${people[0]?.hint ?? ''}::1220[0-9a-f]{64}$`));
      await expect(partyCell).toContainText('…');
      const partyBox = await partyCell.boundingBox();
      expect(partyBox?.width ?? 0).toBeGreaterThanOrEqual(200);
      // The id itself on one or two lines, never a column of single characters.
      const idBox = await partyCell.locator('[title]').first().boundingBox();
      expect(idBox?.height ?? 0).toBeLessThanOrEqual(2 * 24);
      expect(idBox?.width ?? 0).toBeGreaterThanOrEqual(120);
      if (size.name === 'phone') {
        // Narrower than the table: it scrolls sideways rather than squeezing the columns.
        const scroller = table.locator(
          'xpath=ancestor::div[contains(@class, "ScrollContainer")][1]',
        );
        const widths = await scroller.evaluate((node) => ({
          scroll: node.scrollWidth,
          client: node.clientWidth,
        }));
        expect(widths.scroll).toBeGreaterThan(widths.client);
      }

      await clickRunImport(page);
      await assertResults(page, 'Results: 3 created, 0 updated, 0 skipped, 0 failed.');
      await assertBadgeWhole(table, 'Created');
      for (const { userId, hint } of people) {
        const rights = await userRights(page, userId);
        expect(rights).toEqual([
          { kind: { CanActAs: { value: { party: expect.stringMatching(`^${hint}::1220`) } } } },
        ]);
      }
    });

    test('Run is disabled, saying why, when every row is invalid', async ({ page }) => {
      test.setTimeout(60_000);
      const batch = uniqueId('invalid');
      await goToUsersImport(page);
      await chooseImportFile(
        page,
        'people.csv',
        `${IMPORT_HEADER}\r\n${batch} one,,${batch}-a,,readAs,\r\n${batch}-two,,,,readAs,\r\n`,
      );
      await assertPlanSummary(
        page,
        '2 rows: 0 to create, 0 to complete with missing rights, 0 to skip, 2 invalid, 0 blocked.',
      );
      await expect(page.getByRole('button', { name: 'Run import' })).toBeDisabled();
      await expect(
        page.getByText(
          'Nothing to run: of 2 rows, 2 invalid. Fix the file (each row’s Details say what is wrong) and choose it again.',
        ),
      ).toBeVisible();
      await assertBadgeWhole(page.getByRole('table', { name: 'Import plan' }), 'Invalid');
    });
  });
}

import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { splitIou } from '../sandbox/src/scenarios/demo-commands';
import { seedApi } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { goToTransactions } from './helpers/transactions';

/** The cell of a column in a row, by the column header the table gives each cell. */
const cell = (row: Locator, column: string) => row.locator(`[data-label="${column}"]`);
const hint = (party: string) => party.split('::')[0] ?? party;

/** Where times read absolute (e.g. "27 Nov 2026, 06:35:24" or "Nov 27, 2026, 6:35:24 AM"). */
const ABSOLUTE = /20\d\d.*\d\d:\d\d/;

/** The live view, connected; the first load of a page has taken over 10 s on a loaded machine. */
async function openLive(page: Page, query = '') {
  await page.goto(`/live${query}`);
  await liveIsConnected(page);
}

async function liveIsConnected(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible({
    timeout: 30_000,
  });
}

async function useTimes(page: Page, display: 'Relative' | 'Absolute') {
  // Mantine's segmented control: a radio input under its visible label.
  await page.getByText(display, { exact: true }).click();
  await expect(page.getByRole('radio', { name: display })).toBeChecked();
}

// Two page loads, a reload and a stream each: whole journeys.
test.describe.configure({ timeout: 150_000 });

test('live and history rows say who did what to which contract, with times as the user chose', async ({
  page,
  request,
}) => {
  const steps = seedApi(request);
  const { owner, issuer, iouId, splitIds } = await steps.iouSplit();

  // /live begins with the last updates, the split among them, filtered to its owner.
  await openLive(page, `?party=${encodeURIComponent(owner)}`);
  await expect(page.getByText(/^Began with .* up to offset \d+/)).toBeVisible();
  const table = page.getByRole('table', { name: 'Live updates' });
  const split = table.getByRole('row').filter({ hasText: /Iou_Split/ });
  const create = table.getByRole('row').filter({ hasText: /^Created Iou/ });
  await expect(split).toHaveCount(1);

  await expect(cell(split, 'Acting parties')).toHaveText(hint(owner));
  await expect(cell(split, 'Acting parties').locator('span')).toHaveAttribute('title', owner);
  await expect(cell(split, 'Key values')).toHaveText('splitAmount 30');
  await expect(cell(split, 'Contract').getByRole('link')).toHaveAttribute('title', iouId);
  await expect(cell(split, 'Contract')).toContainText('+2');
  await expect(cell(split, 'Command id')).toHaveText(/^scenario-/);
  // The short template name on the row, the full id on hover.
  await expect(cell(split, 'What happened').locator('span')).toHaveAttribute(
    'title',
    /^Exercised [0-9a-f]{64}:[\w.]+:Iou:Iou_Split; created [0-9a-f]{64}:[\w.]+:Iou ×2/,
  );
  await expect(cell(create, 'Acting parties')).toHaveText(hint(issuer));
  await expect(cell(create, 'Key values')).toHaveText(
    `owner ${hint(owner)} · currency USD · amount 100`,
  );
  await assertNoAccessibilityViolations(page);

  // Times: relative by default, absolute at one click, the other form on hover; remembered.
  const time = cell(split, 'Record time').locator('time');
  await expect(time).not.toHaveText(ABSOLUTE);
  await useTimes(page, 'Absolute');
  await expect(time).toHaveText(ABSOLUTE);
  await time.hover();
  await expect(page.getByRole('tooltip')).toContainText(/ago|now/);
  await page.reload();
  await liveIsConnected(page);
  await expect(page.getByRole('radio', { name: 'Absolute' })).toBeChecked();
  await expect(cell(split, 'Record time').locator('time')).toHaveText(ABSOLUTE);

  // A new split arrives live on top of the past ones; each update once.
  const [thirty] = splitIds;
  await steps.submit([splitIou(thirty, '10.0')], { actAs: [owner] });
  await expect(table.getByRole('row').filter({ hasText: /Iou_Split/ })).toHaveCount(2);
  const newest = table.getByRole('row').nth(1);
  await expect(cell(newest, 'Key values')).toHaveText('splitAmount 10');
  await expect(cell(newest, 'Contract').getByRole('link')).toHaveAttribute('title', thirty);

  // The history draws the same rows, with the same time setting.
  await goToTransactions(page);
  const history = page.getByRole('table', { name: 'Recent transactions' });
  await expect(history).toBeVisible({ timeout: 30_000 });
  // This test's split, by its contract: other journeys split Ious of 30 on the same ledger meanwhile.
  const historySplit = history
    .getByRole('row')
    .filter({ hasText: 'splitAmount 30' })
    .filter({ has: page.locator(`[title="${iouId}"]`) });
  await expect(cell(historySplit, 'Acting parties')).toHaveText(hint(owner));
  await expect(page.getByRole('radio', { name: 'Absolute' })).toBeChecked();
  await expect(cell(historySplit, 'Record time').locator('time')).toHaveText(ABSOLUTE);
  await useTimes(page, 'Relative');
  await expect(cell(historySplit, 'Record time').locator('time')).not.toHaveText(ABSOLUTE);
});

test('live can start without past updates, and says so', async ({ page, request }) => {
  await seedApi(request).iouSplit();
  await openLive(page);
  await page.getByRole('combobox', { name: /^Start with/ }).click();
  await page.getByRole('option', { name: 'No past updates' }).click();
  await expect(page.getByText(/^Live from offset \d+, without past updates\.$/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Live updates' })).toHaveCount(0);
  await page.reload();
  await liveIsConnected(page);
  await expect(page.getByRole('combobox', { name: /^Start with/ })).toHaveValue('No past updates');
  // Back to the default for the other journeys on this browser's storage (each test has its own).
  await page.getByRole('combobox', { name: /^Start with/ }).click();
  await page.getByRole('option', { name: 'The last 10', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Live updates' })).toBeVisible();
});

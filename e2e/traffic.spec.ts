import { readFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { createIou, splitIou } from '../sandbox/src/scenarios/demo-commands';
import { createdContractIds } from '../sandbox/src/scenarios/ledger-steps';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';

const bytes = (cost: number) => `${cost.toLocaleString('en-US')} bytes`;

/** The cells of the row that names `name`, as text. */
async function rowCells(table: Locator, name: string): Promise<string[]> {
  return table.getByRole('row').filter({ hasText: name }).getByRole('cell').allTextContents();
}

// The e2e console's sandbox runs with --traffic-cost (playwright.config.ts).
test('the Traffic page totals what two users’ commands paid, matches each transaction, and exports it', async ({
  page,
  request,
}) => {
  // Six submissions, two pages, an axe scan and a download on a shared 2-core machine.
  test.setTimeout(90_000);
  const api = seedApi(request);
  // The page reads the first 50 users by id; a shared console may have more, so ours sort first.
  const [trader, clerk] = [uniqueId('0-trader'), uniqueId('0-clerk')];
  const [alice, bob] = await Promise.all([
    api.allocateFreshParty('alice'),
    api.allocateFreshParty('bob'),
  ]);
  await Promise.all([api.createUser(trader), api.createUser(clerk)]);
  const paid: Record<string, number[]> = { [trader]: [], [clerk]: [] };
  const created = await api.submit(
    [createIou({ issuer: alice, owner: alice, currency: 'USD', amount: '100.0' })],
    { actAs: [alice], userId: trader },
  );
  paid[trader]?.push(created.paidTrafficCost ?? 0);
  const split = await api.submit([splitIou(createdContractIds(created)[0] ?? '', '10.0')], {
    actAs: [alice],
    userId: trader,
  });
  paid[trader]?.push(split.paidTrafficCost ?? 0);
  for (let i = 0; i < 2; i++) {
    const iou = await api.submit(
      [createIou({ issuer: bob, owner: bob, currency: 'EUR', amount: '5.0' })],
      { actAs: [bob], userId: clerk },
    );
    paid[clerk]?.push(iou.paidTrafficCost ?? 0);
  }
  const sum = (user: string) => (paid[user] ?? []).reduce((total, cost) => total + cost, 0);
  expect(split.paidTrafficCost).toBeGreaterThan(1024);

  // The split's own page says what it cost.
  await page.goto(`/transactions?update=${split.updateId}`);
  await expect(page.getByRole('group', { name: 'Traffic cost' })).toHaveText(
    `Traffic cost${bytes(split.paidTrafficCost ?? 0)}`,
  );

  await page.getByRole('navigation').getByRole('link', { name: 'Traffic' }).click();
  await expect(page.getByRole('heading', { name: 'Traffic', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Window' }).click();
  await page.getByRole('option', { name: 'Last hour' }).click();
  await expect(page).toHaveURL('/traffic?window=hour');
  // The last window's report stays until the hour's is read; then the summary names the hour.
  await expect(page.getByText(/^Last hour \(/)).toBeVisible({ timeout: 20_000 });

  const byUser = page.getByRole('table', { name: 'By user' });
  await expect(byUser.getByRole('row').filter({ hasText: trader })).toBeVisible({
    timeout: 20_000,
  });
  expect((await rowCells(byUser, trader)).slice(1, 3)).toEqual(['2', bytes(sum(trader))]);
  expect((await rowCells(byUser, clerk)).slice(1, 3)).toEqual(['2', bytes(sum(clerk))]);
  const byChoice = page.getByRole('table', { name: 'By choice' });
  await expect(byChoice.getByRole('row').filter({ hasText: 'Iou_Split' })).not.toHaveCount(0);
  await assertNoAccessibilityViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^traffic-hour-.*\.csv$/);
  const lines = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
  expect(lines[0]).toBe(
    'offset,recordTime,userId,actAs,commandId,updateId,succeeded,templates,choices,paidTrafficCost',
  );
  const ours = (user: string) =>
    lines
      .filter((line) => line.split(',')[2] === user)
      .map((line) => Number(line.split(',').at(-1)));
  expect(ours(trader)).toEqual(paid[trader]);
  expect(ours(clerk)).toEqual(paid[clerk]);
});

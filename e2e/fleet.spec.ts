import { FLEET_BASE_URL } from '../playwright.config';
import { createIou } from '../sandbox/src/scenarios/demo-commands';
import { expect, test } from './fixtures';
import { seedApiOn } from './helpers/fleet';
import { assertNoAccessibilityViolations } from './helpers/overview';

// Issue 28's journey: two participants in one console (`npm start -- --participants 2`), a
// contract made on participant1 with an observer hosted on participant2, the transaction opened on
// both, and its two projections compared.

test.use({ baseURL: FLEET_BASE_URL });

test('a contract with an observer on participant2: opened on both participants, their projections compared', async ({
  page,
  request,
}) => {
  const one = seedApiOn(request, 'participant1');
  const [bank, bob] = await Promise.all([
    one.allocateFreshParty('bank'),
    seedApiOn(request, 'participant2').allocateFreshParty('bob'),
  ]);
  // One transaction, two contracts: one observed by bob (participant2), one the bank's alone.
  const created = await one.submit(
    [
      createIou({ issuer: bank, owner: bank, currency: 'USD', amount: '5.0', observers: [bob] }),
      createIou({ issuer: bank, owner: bank, currency: 'EUR', amount: '7.0' }),
    ],
    { actAs: [bank] },
  );
  const transactionPage = `/transactions?update=${created.updateId}`;

  // Opened on participant2: only the contract bob observes.
  await page.goto(`/p/participant2${transactionPage}`);
  const outline = page.getByRole('tree', { name: 'Transaction outline' });
  await expect(outline.getByRole('treeitem')).toHaveCount(1);

  // Opened on participant1: both contracts.
  await page.goto(`/p/participant1${transactionPage}`);
  await expect(outline.getByRole('treeitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Compare with participant…' }).click();
  await page.getByRole('menuitem', { name: 'participant2' }).click();
  await expect(page).toHaveURL(/compare=participant2/);

  await expect(
    page.getByText('1 node seen by both, 1 by participant1 only, 0 by participant2 only.'),
  ).toBeVisible();
  await expect(
    page.getByRole('figure', { name: 'participant1 (this participant) sees 2 of 2 nodes' }),
  ).toBeVisible();
  await expect(page.getByRole('figure', { name: 'participant2 sees 1 of 2 nodes' })).toBeVisible();

  const table = page.getByRole('table', { name: 'Who sees each node, and why' });
  const rows = table.getByRole('row');
  const observed = rows.filter({ hasText: 'Both' });
  await expect(observed).toHaveCount(1);
  await expect(observed).toContainText(/participant2 through bob-[0-9a-f]+::\S+ \(observer\)/);
  const bankOnly = rows.filter({ hasText: 'participant1 only' });
  await expect(bankOnly).toHaveCount(1);
  await expect(bankOnly).toContainText(
    /participant2 hosts none of its informees: bank-[0-9a-f]+::\S+ \(signatory, hosted on participant1\)/,
  );
  await assertNoAccessibilityViolations(page);

  // The same update on participant2's own pages.
  await page.getByRole('link', { name: 'Open on participant2' }).click();
  await expect(page).toHaveURL(`/p/participant2${transactionPage}`);
  await expect(outline.getByRole('treeitem')).toHaveCount(1);

  // A party in the page links to its page on the same participant, and the router follows it: the
  // page is not loaded again.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  const bankPage = `/p/participant2/parties/${encodeURIComponent(bank)}`;
  await page.locator(`main a[href="${bankPage}"]`).first().click();
  await expect(page).toHaveURL(bankPage);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  );
});

test('Ctrl+K finds an update id on every participant, and opens it on the one chosen', async ({
  page,
  request,
}) => {
  const one = seedApiOn(request, 'participant1');
  const bank = await one.allocateFreshParty('bank');
  // The bank's alone: participant2 has no such update.
  const created = await one.submit(
    [createIou({ issuer: bank, owner: bank, currency: 'USD', amount: '1.0' })],
    { actAs: [bank] },
  );

  await page.goto('/p/participant2/');
  await page.getByRole('button', { name: /^Search/ }).click();
  await page.getByRole('combobox', { name: 'Id, page or action' }).fill(created.updateId);
  const everywhere = page
    .getByRole('listbox', { name: 'Results' })
    .getByRole('group', { name: 'On every participant' });
  await expect(everywhere.getByRole('option')).toHaveText([
    /^Found on participant1 Transaction at offset \d+, 1 event visible$/,
    'Not on participant2 (this participant) No such update that you may see there',
  ]);

  await everywhere.getByRole('option', { name: /^Found on participant1/ }).click();
  await expect(page).toHaveURL(`/p/participant1/transactions?update=${created.updateId}`);
  await expect(
    page.getByRole('tree', { name: 'Transaction outline' }).getByRole('treeitem'),
  ).toHaveCount(1);
});

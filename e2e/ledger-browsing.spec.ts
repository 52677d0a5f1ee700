import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createIou, splitIou } from '../sandbox/src/scenarios/demo-commands';
import { createdContractIds } from '../sandbox/src/scenarios/ledger-steps';
import { mintToken, seedApi, uniqueId } from './helpers/api';
import {
  fillArgumentField,
  fillChoice,
  fillSubmitter,
  outlineItems,
  submit,
} from './helpers/composer';
import { JWT_CONSOLE_URL } from './helpers/jwt';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { signInAsSandboxUser } from './helpers/session';
import { assertGraphNodes } from './helpers/transactions';

const contractLink = (page: Page, contractId: string) =>
  page.locator(`a[href="/contracts/${encodeURIComponent(contractId)}"]`);

test('browse a party’s Ious, open one, split it from there, and see the split live with its graph', async ({
  page,
  context,
  request,
}) => {
  const { owner, split, splitIds } = await seedApi(request).iouSplit();

  // /live starts with the owner's last 10 updates (the seed's own split among them) and follows the
  // ledger from there: open it before the split is submitted, filtered to the owner (other
  // journeys may commit meanwhile).
  const live = await context.newPage();
  await live.goto(`/live?party=${encodeURIComponent(owner)}`);
  await expect(live.getByRole('combobox', { name: /^Party/ })).toHaveValue(owner);
  await expect(live.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  const rows = live.getByRole('table', { name: 'Live updates' }).getByRole('row');
  const splitRows = rows.filter({ hasText: /Iou_Split/ });
  await expect(splitRows).toHaveCount(1);
  await assertNoAccessibilityViolations(live);

  // The owner's two Ious (30 and 70), with the template's fields as columns.
  await page.goto(`/contracts?party=${encodeURIComponent(owner)}`);
  const table = page.getByRole('table', { name: 'Active contracts' });
  await expect(contractLink(page, splitIds[0])).toBeVisible();
  await expect(contractLink(page, splitIds[1])).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  await assertNoAccessibilityViolations(page);

  // Open the Iou of 70 and exercise from its page.
  await contractLink(page, splitIds[1]).click();
  await expect(page).toHaveURL(`/contracts/${encodeURIComponent(splitIds[1])}`);
  // Exactly the contract page's link: while its chunk loads, the list (whose links are named
  // "Exercise… on <id>") may still be on screen under the new URL.
  await page.getByRole('link', { name: 'Exercise…', exact: true }).click();
  await expect(page).toHaveURL(/\/composer\?exercise=/);
  await fillChoice(page, 'Iou_Split');
  await fillArgumentField(page, 'splitAmount', '20');
  await fillSubmitter(page, owner);
  await submit(page);
  await expect(outlineItems(page)).toHaveCount(3);

  // The split arrives in /live on top, summarised, and opens as its graph in one click.
  await expect(splitRows).toHaveCount(2);
  const splitRow = splitRows.first();
  await expect(splitRow).toContainText(/created Iou ×2/);
  await splitRow.getByRole('link', { name: /^Open the transaction at offset/ }).click();
  await expect(live).toHaveURL(/\/transactions\?update=1220[0-9a-f]{64}/);
  // The new split, not the seed's.
  expect(live.url()).not.toContain(split.updateId);
  await assertGraphNodes(live, [
    'Exercise Iou_Split on Iou, node 0',
    'Create Iou, node 1',
    'Create Iou, node 2',
  ]);
  await live.close();

  // The 70 is gone from the active contracts; the two new Ious (20 and 50) are there.
  await page.goto(`/contracts?party=${encodeURIComponent(owner)}`);
  await expect(contractLink(page, splitIds[0])).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(contractLink(page, splitIds[1])).toHaveCount(0);
});

test('Ctrl+K takes a pasted contract id to its contract', async ({ page, request }) => {
  const { splitIds } = await seedApi(request).iouSplit();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog');
  const box = dialog.getByRole('combobox', { name: 'Id, page or action' });
  await expect(box).toBeFocused();
  await box.fill(splitIds[0]);
  await expect(dialog.getByRole('option').first()).toContainText(/contract/i);
  await assertNoAccessibilityViolations(page);
  await box.press('Enter');
  await expect(page).toHaveURL(`/contracts/${encodeURIComponent(splitIds[0])}`);
  await expect(dialog).toHaveCount(0);
});

test.describe('signed in with a token', () => {
  // The console in front of a sandbox with `--auth jwt`: the streams carry the token as a
  // websocket subprotocol through the console's proxy.
  test.use({ baseURL: JWT_CONSOLE_URL });

  test('an admin who acts and reads as any party streams the active contracts and the live updates', async ({
    page,
    request,
  }) => {
    const admin = await mintToken(request, 'participant_admin');
    const clerk = uniqueId('clerk');
    await seedApi(request, admin).createUser(clerk, {
      // Admin to allocate the Iou's parties; any party to submit and read as them.
      rights: [
        { kind: 'ParticipantAdmin' },
        { kind: 'CanActAsAnyParty' },
        { kind: 'CanReadAsAnyParty' },
      ],
    });
    const steps = seedApi(request, await mintToken(request, clerk));
    const [issuer, owner] = await Promise.all([
      steps.allocateFreshParty('bank'),
      steps.allocateFreshParty('owner'),
    ]);
    const asClerk = (party: string) => ({ actAs: [party], userId: clerk });
    const created = await steps.submit(
      [createIou({ issuer, owner, currency: 'USD', amount: '100.0' })],
      asClerk(issuer),
    );
    const [iouId = ''] = createdContractIds(created);
    const [thirty = '', seventy = ''] = createdContractIds(
      await steps.submit([splitIou(iouId, '30.0')], asClerk(owner)),
    );

    await signInAsSandboxUser(page, clerk);
    // What the page's streams receive: the console server's batches (ADR 034), read by Chromium.
    const frames: string[] = [];
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => frames.push(String(payload)));
    });
    await page.goto(`/contracts?party=${encodeURIComponent(owner)}`);
    await expect(contractLink(page, thirty)).toBeVisible();
    await expect(contractLink(page, seventy)).toBeVisible();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((frame) => !/^\d+:\{/.test(frame))).toEqual([]);

    await page.goto(`/live?party=${encodeURIComponent(owner)}`);
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    // The first split is among the last 10 past updates /live starts with; the second arrives live.
    const splits = page
      .getByRole('table', { name: 'Live updates' })
      .getByRole('row')
      .filter({ hasText: /Iou_Split/ });
    await expect(splits).toHaveCount(1);
    await steps.submit([splitIou(seventy, '10.0')], asClerk(owner));
    await expect(splits).toHaveCount(2);
    await expect(splits.first()).toContainText('splitAmount 10');
  });
});

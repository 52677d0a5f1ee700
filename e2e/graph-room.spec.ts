import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  exerciseOnCreated,
  fillArgumentField,
  fillChoice,
  fillIouCreate,
  fillSubmitter,
  goToComposer,
  graphNodes,
  result,
  submit,
} from './helpers/composer';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  detailsHeading,
  goToTransactions,
  graph,
  graphNode,
  openUpdateById,
} from './helpers/transactions';

type Box = { x: number; y: number; width: number; height: number };

/** A laid-out box, which every measured element here has. */
async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('The element has no box (not rendered)');
  return box;
}

/** Inside, give or take a pixel of rounding. */
function expectInside(inner: Box, outer: Box) {
  expect(inner.x).toBeGreaterThanOrEqual(outer.x - 1);
  expect(inner.y).toBeGreaterThanOrEqual(outer.y - 1);
  expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width + 1);
  expect(inner.y + inner.height).toBeLessThanOrEqual(outer.y + outer.height + 1);
}

/** Every node of `nodes` lies whole inside `frame`, once the view has settled (it animates). */
async function expectNodesInside(nodes: Locator, count: number, frame: Locator) {
  await expect(async () => {
    await expect(nodes).toHaveCount(count);
    const outer = await boxOf(frame);
    for (const node of await nodes.all()) expectInside(await boxOf(node), outer);
  }).toPass({ timeout: 10_000 });
}

const resultGraph = (page: Page) => result(page).getByRole('region', { name: 'Transaction graph' });

// The composer's cramped case: from Mantine's xl up, the result is a column beside the form.
test.describe('the composer result graph, beside the form', () => {
  test.use({ viewport: { width: 1600, height: 900 } });

  test('centres a create, shows all of a split, and opens full screen from the keyboard', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const party = await seedApi(request).allocateParty(uniqueId('holder'));
    await goToComposer(page);
    await fillIouCreate(page, { issuer: party, owner: party, currency: 'USD', amount: '100' });
    await fillSubmitter(page, party);
    await submit(page);

    // One node: in the middle of its canvas, which is sized to it, not a fixed 560 px.
    await expect(graphNodes(page)).toHaveCount(1);
    await expect(async () => {
      const frame = await boxOf(resultGraph(page));
      const node = await boxOf(graphNodes(page).first());
      expect(Math.abs(node.x + node.width / 2 - (frame.x + frame.width / 2))).toBeLessThan(2);
      expect(Math.abs(node.y + node.height / 2 - (frame.y + frame.height / 2))).toBeLessThan(2);
      expect(frame.height).toBeLessThan(400);
    }).toPass({ timeout: 10_000 });

    await exerciseOnCreated(page);
    await fillChoice(page, 'Iou_Split');
    await fillArgumentField(page, 'splitAmount', '30');
    await submit(page);

    // The split: the exercise and both Ious whole in a canvas narrower than the split.
    await expectNodesInside(graphNodes(page), 3, resultGraph(page));
    // All of it in view: no minimap covering the right-hand Iou.
    await expect(
      resultGraph(page).getByRole('img', { name: 'Minimap of the transaction graph' }),
    ).toHaveCount(0);

    // Full screen, reached and pressed from the keyboard.
    const open = result(page).getByRole('button', { name: 'Full screen' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Transaction at offset \d+$/ });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/[?&]fullscreen=1(&|$)/);
    await expect(dialog.getByRole('button', { name: 'Exit full screen' })).toBeFocused();
    // It covers the window, the app's header included.
    expect(await boxOf(dialog)).toEqual({ x: 0, y: 0, width: 1600, height: 900 });
    const onTop = await page.evaluate(() => {
      const corner = document.elementFromPoint(8, 8);
      return Boolean(corner?.closest('[role="dialog"]'));
    });
    expect(onTop).toBe(true);
    const big = dialog.getByRole('region', { name: 'Transaction graph' });
    expect((await boxOf(big)).height).toBeGreaterThan(500);
    await expectNodesInside(dialog.locator('.react-flow__node'), 3, big);
    await assertNoAccessibilityViolations(page);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/fullscreen=/);
    await expect(open).toBeFocused();
  });
});

for (const viewport of [
  // Details beside the graph (three columns).
  { width: 1280, height: 800 },
  // Details below outline and graph: the graph loses height when a node is selected.
  { width: 1100, height: 800 },
]) {
  test.describe(`the transaction viewer at ${String(viewport.width)} px`, () => {
    test.use({ viewport });

    test('keeps a selected node in view as the details open, and its template id readable', async ({
      page,
      request,
    }) => {
      const { split } = await seedApi(request).iouSplit();
      await goToTransactions(page);
      await openUpdateById(page, split.updateId);
      await expect(graphNode(page, 2)).toBeVisible();

      await graphNode(page, 2).click();
      await expect(detailsHeading(page)).toHaveText('Create Iou');
      await expect(async () => {
        expectInside(await boxOf(graphNode(page, 2)), await boxOf(graph(page)));
      }).toPass({ timeout: 10_000 });

      // The template id: its package id cut in the middle, whole on hover, at most two lines
      // rather than one character per line.
      const templateId = page
        .getByRole('group', { name: 'Template id' })
        .getByTitle(/^[0-9a-f]{64}:Demo\.Iou:Iou$/);
      await expect(templateId).toHaveText(/^[0-9a-f]{6}…[0-9a-f]{4}:Demo\.Iou:Iou$/);
      const box = await boxOf(templateId);
      expect(box.width).toBeGreaterThan(120);
      expect(box.height).toBeLessThan(50);
    });
  });
}

import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  detailsHeading,
  goToTransactions,
  graph,
  graphNode,
  graphNodes,
  outline,
} from './helpers/transactions';
import { selectColorScheme } from './helpers/overview';
import { goToUsers } from './helpers/users';

const PHONE = { width: 390, height: 844 };

/** Nothing on the page is wider than the screen: no sideways scrolling, nothing clipped off. */
async function assertNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(PHONE.width);
  expect(clientWidth).toBeLessThanOrEqual(PHONE.width);
}

/** The relative luminance (0 black … 1 white) of an element's computed background colour. */
async function backgroundLuminance(locator: Locator): Promise<number> {
  const colour = await locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  const channels = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(colour);
  if (!channels) throw new Error(`Not an rgb colour: ${colour}`);
  const [r, g, b] = channels.slice(1, 4).map((value) => {
    const c = Number(value) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: PHONE });

  test('the users list is a list of cards, each value under its column, and nothing is wider than the screen', async ({
    page,
    request,
  }) => {
    // A long id, to be fitted into a card; `!` sorts first, so it is on the first page however
    // many users other journeys have added.
    const api = seedApi(request);
    const userId = uniqueId('!phone-layout-user-with-a-rather-long-id');
    await api.createUser(userId);

    await goToUsers(page);
    const table = page.getByRole('table', { name: 'Users' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: userId }) });
    // The page's filter leaves only this user's card.
    await page.getByRole('textbox', { name: /^Filter users/ }).fill(userId);
    await expect(row).toBeVisible();

    // A card: the row is a block as wide as the list, its cells stacked, the id as its title.
    const rowBox = await row.boundingBox();
    const tableBox = await table.boundingBox();
    expect(rowBox && tableBox && rowBox.width).toBeGreaterThan((tableBox?.width ?? 0) * 0.9);
    await expect(row).toHaveCSS('display', 'flex');
    await expect(row).toHaveCSS('flex-direction', 'column');
    const cells = row.getByRole('cell');
    await expect(cells).toHaveCount(5);
    // Each line shows its column's header as a label (generated, so it is not read twice).
    const labels = await cells.evaluateAll((elements) =>
      elements.map((element) => getComputedStyle(element, '::before').content),
    );
    // Chromium reports the generated label with its empty alternative text: `"IdP" / ""`.
    expect(labels).toEqual([
      'none',
      expect.stringContaining('"Primary party"'),
      expect.stringContaining('"IdP"'),
      expect.stringContaining('"Status"'),
      expect.stringContaining('"Annotations"'),
    ]);
    // The header row is still there for assistive technology, just not shown as a row.
    await expect(table.getByRole('columnheader', { name: 'User id' })).toBeAttached();

    await assertNoHorizontalOverflow(page);
  });

  test('the transaction view switches between outline and graph, the graph tall enough to use', async ({
    page,
    request,
  }) => {
    const { split } = await seedApi(request).iouSplit();
    await goToTransactions(page, `?update=${split.updateId}&node=1`);

    // Outline first; the graph is a tab away, not a strip beside it.
    const tabs = page.getByRole('tablist');
    await expect(tabs.getByRole('tab', { name: 'Outline' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(outline(page).getByRole('treeitem', { selected: true })).toContainText('#1');
    await expect(graph(page)).toHaveCount(0);
    await assertNoHorizontalOverflow(page);

    await tabs.getByRole('tab', { name: 'Graph' }).click();
    await expect(page).toHaveURL(`/transactions?update=${split.updateId}&node=1&view=graph`);
    await expect(graphNodes(page)).toHaveCount(3);
    const box = await graph(page).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(300);
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(PHONE.width);

    // Selecting in the graph selects for the outline too: the choice survives the switch.
    await graphNode(page, 2).click();
    await expect(detailsHeading(page)).toHaveText('Create Iou');
    await expect(page).toHaveURL(`/transactions?update=${split.updateId}&node=2&view=graph`);
    await tabs.getByRole('tab', { name: 'Outline' }).click();
    await expect(outline(page).getByRole('treeitem', { selected: true })).toContainText('#2');
    await expect(page).toHaveURL(`/transactions?update=${split.updateId}&node=2`);

    // A reload with view=graph opens on the graph.
    await page.goto(`/transactions?update=${split.updateId}&node=2&view=graph`);
    await expect(page.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
    await expect(graphNodes(page)).toHaveCount(3);
  });
});

test('the graph and its minimap are dark in dark mode, from the system or the console control', async ({
  page,
  request,
}) => {
  // More nodes than the view shows at once: a tree wholly in view has no minimap.
  const fanout = await seedApi(request).fanout({ width: 40, depth: 1 });
  const minimap = () => graph(page).locator('.react-flow__minimap');
  const canvas = () => graph(page).locator('.react-flow');

  // The console follows the system until the user picks a scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await goToTransactions(page, `?update=${fanout.updateId}`);
  await expect(minimap()).toBeVisible();
  await expect(canvas()).toHaveClass(/\bdark\b/);
  expect(await backgroundLuminance(minimap())).toBeLessThan(0.1);
  expect(await backgroundLuminance(canvas())).toBeLessThan(0.1);

  // The console's own control wins over a light system.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(canvas()).toHaveClass(/\blight\b/);
  expect(await backgroundLuminance(minimap())).toBeGreaterThan(0.8);
  await selectColorScheme(page, 'Dark');
  await expect(canvas()).toHaveClass(/\bdark\b/);
  expect(await backgroundLuminance(minimap())).toBeLessThan(0.1);
});

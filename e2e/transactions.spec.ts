import { expect, test } from './fixtures';
import { seedApi } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  assertGraphNodes,
  detailsHeading,
  followNodeLinkInNewPage,
  goToTransactions,
  graphNode,
  graphNodes,
  openUpdateById,
  outline,
  toggleGraphNode,
} from './helpers/transactions';

test('a past Iou split opens by id as a 3-node graph that folds, shows details and deep-links', async ({
  page,
  request,
}) => {
  const { split, splitIds } = await seedApi(request).iouSplit();

  await goToTransactions(page);
  await openUpdateById(page, split.updateId);
  await expect(page).toHaveURL(`/transactions?update=${split.updateId}`);

  // The exercise and the two Ious it created.
  await assertGraphNodes(page, [
    'Exercise Iou_Split on Iou, node 0',
    'Create Iou, node 1',
    'Create Iou, node 2',
  ]);
  await expect(outline(page).getByRole('treeitem')).toHaveCount(3);
  // Parties on the nodes: who acted and who saw the exercise; signatories, observers, witnesses.
  await expect(graphNode(page, 0)).toContainText('By:');
  await expect(graphNode(page, 0)).toContainText('Witn:');
  await expect(graphNode(page, 1)).toContainText('Sig:');
  await expect(graphNode(page, 1)).toContainText('Obs:');
  await expect(graphNode(page, 1)).toContainText('Witn:');

  // Collapse the exercise: only it remains, with +2; expand brings the creates back.
  await toggleGraphNode(page, 0, 'Collapse');
  await expect(graphNodes(page)).toHaveCount(1);
  await expect(graphNode(page, 0)).toContainText('+2');
  await expect(outline(page).getByRole('treeitem')).toHaveCount(1);
  await toggleGraphNode(page, 0, 'Expand');
  await expect(graphNodes(page)).toHaveCount(3);

  // A node's details: the second create, the rest of the split.
  await graphNode(page, 2).click();
  await expect(detailsHeading(page)).toHaveText('Create Iou');
  await expect(page).toHaveURL(`/transactions?update=${split.updateId}&node=2`);
  await expect(page.getByRole('group', { name: 'Contract id' }).getByRole('link')).toHaveAttribute(
    'href',
    `/contracts/${encodeURIComponent(splitIds[1])}`,
  );
  await expect(page.getByText('"amount": "70')).toBeVisible();
  await expect(outline(page).getByRole('treeitem', { selected: true })).toContainText('#2');
  await assertNoAccessibilityViolations(page);

  // The node's deep link, in a new page: the same transaction with the same node selected.
  const other = await followNodeLinkInNewPage(page);
  await expect(detailsHeading(other)).toHaveText('Create Iou');
  await expect(
    other
      .getByRole('tree', { name: 'Transaction outline' })
      .getByRole('treeitem', { selected: true }),
  ).toContainText('#2');
  await expect(other.getByText('"amount": "70')).toBeVisible();
  await other.close();
});

test('the recent list links to a transaction, and a contract page to where it was made and archived', async ({
  page,
  request,
}) => {
  const { create, split, iouId } = await seedApi(request).iouSplit();

  await goToTransactions(page);
  const table = page.getByRole('table', { name: 'Recent transactions' });
  await table
    .getByRole('link', { name: `Open the transaction at offset ${String(split.offset)}` })
    .click();
  await expect(page).toHaveURL(`/transactions?update=${split.updateId}`);
  await expect(graphNodes(page)).toHaveCount(3);

  // The exercised contract's page: created at the first offset, archived by the split.
  await graphNode(page, 0).click();
  await page.getByRole('group', { name: 'Contract id' }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Contract', level: 1 })).toBeVisible();
  await expect(page.getByText(iouId)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Archived' })).toBeVisible();
  await assertNoAccessibilityViolations(page);

  // The link names the offset; the viewer finds the update there and shows its id in the URL.
  await expect(
    page.getByRole('link', { name: 'Open the transaction that created it' }),
  ).toHaveAttribute('href', `/transactions?offset=${String(create.offset)}&node=0`);
  await page.getByRole('link', { name: 'Open the transaction that created it' }).click();
  await expect(page).toHaveURL(`/transactions?update=${create.updateId}&node=0`);
  await expect(detailsHeading(page)).toHaveText('Create Iou');
  await expect(page.getByRole('group', { name: 'Archived by' })).toHaveCount(0);
});

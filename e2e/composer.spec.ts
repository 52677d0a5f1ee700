import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  exerciseOnCreated,
  fillArgumentField,
  fillArgumentsJson,
  fillChoice,
  fillIouCreate,
  fillSubmitter,
  fillTemplateId,
  followResultNodeLinkInNewPage,
  goToComposer,
  graphNodes,
  IOU_TEMPLATE,
  outlineItems,
  result,
  resultDetailsHeading,
  resultGraphNode,
  submit,
  templateField,
  toggleResultNode,
} from './helpers/composer';
import { assertNoAccessibilityViolations } from './helpers/overview';

test('create an Iou, split it, see a 3-node graph that folds, shows details and deep-links', async ({
  page,
  request,
}) => {
  const party = await seedApi(request).allocateParty(uniqueId('holder'));

  await goToComposer(page);
  // The form generated from the decoded Iou template.
  await fillIouCreate(page, { issuer: party, owner: party, currency: 'USD', amount: '100' });
  await fillSubmitter(page, party);
  await submit(page);

  await expect(outlineItems(page)).toHaveCount(1);
  await expect(result(page).getByRole('group', { name: 'Offset' })).toBeVisible();

  await exerciseOnCreated(page);
  await fillChoice(page, 'Iou_Split');
  await fillArgumentField(page, 'splitAmount', '30');
  await submit(page);

  // Iou_Split: the exercise and the two Ious it creates.
  await expect(outlineItems(page)).toHaveCount(3);
  await expect(graphNodes(page)).toHaveCount(3);
  await expect(
    page.getByRole('table', { name: 'Submission history' }).getByText('Exercise Iou_Split'),
  ).toBeVisible();
  const viewerLink = result(page).getByRole('link', { name: 'Open in the transaction viewer' });
  await expect(viewerLink).toHaveAttribute('href', /^\/transactions\?update=1220[0-9a-f]{64}$/);

  // Collapse the exercise: only it remains, with +2; expand brings the creates back.
  await toggleResultNode(page, 0, 'Collapse');
  await expect(graphNodes(page)).toHaveCount(1);
  await expect(resultGraphNode(page, 0)).toContainText('+2');
  await expect(outlineItems(page)).toHaveCount(1);
  await toggleResultNode(page, 0, 'Expand');
  await expect(graphNodes(page)).toHaveCount(3);

  // A node's details: the second create, the rest of the split (100 - 30).
  await resultGraphNode(page, 2).click();
  await expect(resultDetailsHeading(page)).toHaveText('Create Iou');
  await expect(page).toHaveURL(/[?&]node=2$/);
  await expect(result(page).getByText('"amount": "70')).toBeVisible();
  await expect(
    outlineItems(page).and(page.getByRole('treeitem', { selected: true })),
  ).toContainText('#2');
  // The composer with the result's graph and a node's details shown.
  await assertNoAccessibilityViolations(page);

  // The node's deep link, in a new page: the transaction viewer at the same node.
  const other = await followResultNodeLinkInNewPage(page);
  await expect(other.getByRole('heading', { level: 3 })).toHaveText('Create Iou');
  await expect(
    other
      .getByRole('tree', { name: 'Transaction outline' })
      .getByRole('treeitem', { selected: true }),
  ).toContainText('#2');
  await other.close();
});

test('a submission error is shown on the composer', async ({ page, request }) => {
  const party = await seedApi(request).allocateParty(uniqueId('holder'));
  const unknown = '#sandbox-demo:Demo.Iou:NoSuchTemplate';

  await goToComposer(page);
  await fillTemplateId(page, unknown);
  await fillArgumentsJson(page, { owner: party });
  await fillSubmitter(page, party);
  await submit(page);

  await expect(templateField(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/Templates do not exist/)).toBeVisible();
  // What was typed stays.
  await expect(templateField(page)).toHaveValue(unknown);
  await expect(result(page)).toHaveCount(0);
});

test('the composer passes an axe scan', async ({ page }) => {
  await goToComposer(page);
  await fillTemplateId(page, IOU_TEMPLATE);
  await expect(
    page.getByRole('region', { name: 'Command 1' }).getByRole('textbox', { name: 'currency' }),
  ).toBeVisible();
  await assertNoAccessibilityViolations(page);
});

import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  exerciseOnCreated,
  fillArgumentField,
  fillArgumentsJson,
  fillChoice,
  fillSubmitter,
  fillTemplateId,
  goToComposer,
  graphNodes,
  IOU_TEMPLATE,
  outlineItems,
  result,
  submit,
  templateField,
} from './helpers/composer';
import { assertNoAccessibilityViolations } from './helpers/overview';

test('create an Iou, split it, see a 3-node graph', async ({ page, request }) => {
  const party = await seedApi(request).allocateParty(uniqueId('holder'));

  await goToComposer(page);
  await fillTemplateId(page, IOU_TEMPLATE);
  // The form generated from the decoded Iou template.
  await fillArgumentField(page, 'issuer', party);
  await fillArgumentField(page, 'owner', party);
  await fillArgumentField(page, 'currency', 'USD');
  await fillArgumentField(page, 'amount', '100');
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

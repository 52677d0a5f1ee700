import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedApi } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';

// The default console: its embedded sandbox carries the demo seed (alice, bank, the Iou
// template), and the caller is unidentified, so it may list everything.

async function openSearch(page: Page) {
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  const box = dialog.getByRole('combobox', { name: 'Id, page or action' });
  await expect(box).toBeFocused();
  return { dialog, box, named: dialog.getByRole('group', { name: 'By name or id' }) };
}

test('search finds alice, bank and Iou by name, and an update by the first 12 characters of its id', async ({
  page,
  request,
}) => {
  // A whole journey: on a loaded 2-core machine the first page alone may take several seconds.
  test.setTimeout(90_000);
  const { split } = await seedApi(request).iouSplit();
  await page.goto('/token-doctor');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  const { dialog, box, named } = await openSearch(page);

  await box.fill('alice');
  // The party whose hint it is comes first; the person, by display name, after it.
  await expect(named.getByRole('option').first()).toContainText(/^Party\s*alice\s*alice::1220/);
  await expect(
    named
      .getByRole('option')
      .filter({ hasText: 'Alice Anderson' })
      .getByText('User', { exact: true }),
  ).toBeVisible();
  await expect(named.getByRole('option').first().locator('mark')).toHaveText('alice');
  await assertNoAccessibilityViolations(page);

  await box.fill('bank');
  await expect(named.getByRole('option').first()).toContainText(/^Party\s*bank\s*bank::1220/);
  await expect(named.getByRole('option').filter({ hasText: 'bank-operator' })).toContainText(
    /^User/,
  );

  await box.fill('Iou');
  await expect(named.getByRole('option').first()).toContainText(/^Template\s*Iou\s*Demo\.Iou:Iou/);
  await expect(named.getByRole('option').filter({ hasText: 'Iou_Transfer' })).toContainText(
    /^Choice/,
  );
  // Arrow keys move through the rows, the input keeping the focus; Enter opens the template's package.
  await box.press('ArrowDown');
  await box.press('ArrowUp');
  await expect(named.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/packages\/[0-9a-f]{64}$/);
  await expect(dialog).toHaveCount(0);

  // Twelve characters of the split's update id: found among the latest updates, and opened.
  const { box: again, named: found } = await openSearch(page);
  await again.fill(split.updateId.slice(0, 12));
  const update = found.getByRole('option').filter({ hasText: split.updateId });
  await expect(update).toContainText(/^Update\s*Update at offset \d+/);
  await expect(update).toContainText(/Seen in the last \d+ updates/);
  await expect(update.locator('mark')).toHaveText(split.updateId.slice(0, 12));
  await update.click();
  await expect(page).toHaveURL(`/transactions?update=${split.updateId}`);
});

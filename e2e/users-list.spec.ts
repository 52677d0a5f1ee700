import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  assertShowingUsers,
  assertUserListed,
  clickNextPage,
  clickPreviousPage,
  goToUsers,
} from './helpers/users';

test('an admin pages through 250 new users forwards and back, with the page in the URL', async ({
  page,
  request,
}) => {
  test.slow();
  const api = seedApi(request);
  // `~` sorts after every other id character, so these are the last users in the list.
  const prefix = uniqueId('~page');
  const ids = Array.from({ length: 250 }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
  for (let i = 0; i < ids.length; i += 25) {
    await Promise.all(ids.slice(i, i + 25).map((id) => api.createUser(id)));
  }

  // Other journeys may add users meanwhile (their ids sort before ours), so the number of pages
  // is read from the console itself: forward until it says this is the last page.
  await goToUsers(page, '?size=100');
  await assertShowingUsers(page, 1, 100);
  let pages = 1;
  while (!(await page.getByText('This is the last page.').isVisible())) {
    await clickNextPage(page);
    pages += 1;
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `Showing users ${String((pages - 1) * 100 + 1)}–` }),
    ).toBeVisible();
    expect(pages).toBeLessThan(50);
  }
  expect(pages).toBeGreaterThanOrEqual(3);
  await assertUserListed(page, ids.at(-1) ?? '');
  await expect(page).toHaveURL(new RegExp(`page=${String(pages)}`));

  await clickPreviousPage(page);
  await assertShowingUsers(page, (pages - 2) * 100 + 1, (pages - 1) * 100);
  // Browser history and a reload keep the page: it is in the URL.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`page=${String(pages)}`));
  await expect(page.getByText('This is the last page.')).toBeVisible();
  await page.reload();
  await assertUserListed(page, ids.at(-1) ?? '');
  for (let n = pages - 1; n >= 1; n--) {
    await clickPreviousPage(page);
    await assertShowingUsers(page, (n - 1) * 100 + 1, n * 100);
  }
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();
});

test('the users list has no detectable accessibility violations', async ({ page }) => {
  await goToUsers(page);
  await assertUserListed(page, 'participant_admin');
  await assertNoAccessibilityViolations(page);
});

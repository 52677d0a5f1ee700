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
  const listed = await request.get('/v2/users?pageSize=1000');
  const { users } = (await listed.json()) as { users: { id: string }[] };
  const total = users.length;
  const pages = Math.ceil(total / 100);

  await goToUsers(page, '?size=100');
  await assertShowingUsers(page, 1, 100);
  for (let n = 2; n <= pages; n++) {
    await clickNextPage(page);
    await assertShowingUsers(page, (n - 1) * 100 + 1, Math.min(n * 100, total));
  }
  await expect(page.getByText('This is the last page.')).toBeVisible();
  await assertUserListed(page, ids.at(-1) ?? '');
  await expect(page).toHaveURL(new RegExp(`page=${String(pages)}`));

  await clickPreviousPage(page);
  await assertShowingUsers(page, (pages - 2) * 100 + 1, (pages - 1) * 100);
  await page.goBack();
  await assertShowingUsers(page, (pages - 1) * 100 + 1, total);
  // A reload keeps the page: it is in the URL.
  await page.reload();
  await assertShowingUsers(page, (pages - 1) * 100 + 1, total);
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

import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  addPartyRight,
  assertOnUserPage,
  assertRightListed,
  assertRightNotListed,
  assertRightsReport,
  assertUserListed,
  fillUserId,
  filterUsers,
  goToNewUser,
  goToUser,
  goToUsers,
  openRightsTab,
  revokeRight,
  submitCreateUser,
} from './helpers/users';

test('an admin creates a user with two rights, finds it listed, revokes one, and the other stays', async ({
  page,
  request,
}) => {
  const api = seedApi(request);
  const alice = await api.allocateParty(uniqueId('alice'));
  const bob = await api.allocateParty(uniqueId('bob'));
  const userId = uniqueId('ops');

  await goToNewUser(page);
  await fillUserId(page, userId);
  await addPartyRight(page, 'Act as', alice);
  await addPartyRight(page, 'Read as', bob);
  await submitCreateUser(page);
  await assertOnUserPage(page, userId);

  await goToUsers(page, '?size=1000');
  await filterUsers(page, userId);
  await assertUserListed(page, userId);
  await page.getByRole('link', { name: userId, exact: true }).click();
  await assertOnUserPage(page, userId);

  await openRightsTab(page);
  await assertRightListed(page, userId, `Act as ${alice}`);
  await assertNoAccessibilityViolations(page);
  await revokeRight(page, `Act as ${alice}`);
  await assertRightsReport(page, `Revoked: Act as ${alice}`);

  await page.reload();
  await openRightsTab(page);
  await assertRightListed(page, userId, `Read as ${bob}`);
  await assertRightNotListed(page, userId, `Act as ${alice}`);
});

test('a duplicate user id is shown on the id field and nothing typed is lost', async ({
  page,
  request,
}) => {
  const userId = uniqueId('dup');
  await seedApi(request).createUser(userId);

  await goToNewUser(page);
  await assertNoAccessibilityViolations(page);
  await fillUserId(page, userId);
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await page.getByRole('textbox', { name: 'Annotation 1 key' }).fill('team');
  await page.getByRole('textbox', { name: 'Annotation 1 value' }).fill('ledger ops');
  await submitCreateUser(page);

  const idField = page.getByRole('textbox', { name: /^User id/ });
  await expect(idField).toHaveAccessibleDescription(/already exists/);
  await expect(idField).toHaveValue(userId);
  await expect(page.getByRole('textbox', { name: 'Annotation 1 value' })).toHaveValue('ledger ops');
});

test('saving a user someone else changed meanwhile says so and reloads the latest on request', async ({
  page,
  request,
}) => {
  const api = seedApi(request);
  const userId = uniqueId('conflict');
  const first = await api.allocateParty(uniqueId('first'));
  const second = await api.allocateParty(uniqueId('second'));
  const mine = await api.allocateParty(uniqueId('mine'));
  await api.createUser(userId, { primaryParty: first });

  await goToUser(page, userId);
  await expect(page.getByRole('group', { name: 'Resource version' })).toContainText('0');
  // Someone else edits the user after the page loaded it.
  await api.updatePrimaryParty(userId, second);

  const primaryParty = page.getByRole('combobox', { name: /^Primary party/ });
  await primaryParty.fill(mine);
  await page.getByRole('button', { name: 'Save changes' }).click();

  const conflict = page
    .getByRole('alert')
    .filter({ hasText: 'Someone else changed this user after you opened it' });
  await expect(conflict).toBeVisible();
  await expect(primaryParty).toHaveValue(mine);
  await conflict.getByRole('button', { name: 'Reload latest' }).click();
  await expect(primaryParty).toHaveValue(second);
  await expect(page.getByRole('group', { name: 'Resource version' })).toContainText('1');
});

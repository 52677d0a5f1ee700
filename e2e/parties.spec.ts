import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  assertAccessChecked,
  assertAdministratorListed,
  assertCanAccess,
  assertCannotAccess,
  assertOnPartyPage,
  assertPartyListed,
  fillPartyHint,
  filterParties,
  goToNewParty,
  goToParties,
  goToParty,
  navigateTo,
  openUserFromAccess,
  pickParty,
  submitAllocateParty,
} from './helpers/parties';
import { assertOnUserPage, fillUserId, submitCreateUser } from './helpers/users';

test('an admin allocates a party and picks it as the primary party of a new user', async ({
  page,
}) => {
  const hint = uniqueId('alice');
  const userId = uniqueId('trader');

  await goToNewParty(page);
  await assertNoAccessibilityViolations(page);
  await fillPartyHint(page, hint);
  await submitAllocateParty(page);
  const party = await assertOnPartyPage(page, hint);

  // Within the same running app: the party picker offers the new party without a reload.
  await navigateTo(page, 'Users');
  await page.getByRole('link', { name: 'Create user' }).click();
  await fillUserId(page, userId);
  await pickParty(page, /^Primary party/, hint, party);
  await submitCreateUser(page);

  await assertOnUserPage(page, userId);
  await expect(page.getByRole('combobox', { name: /^Primary party/ })).toHaveValue(party);
});

test('an admin sees who can act, read and execute as a party, and by which right', async ({
  page,
  request,
}) => {
  const api = seedApi(request);
  const party = await api.allocateParty(uniqueId('desk'));
  const other = await api.allocateParty(uniqueId('other'));
  const trader = uniqueId('trader');
  const auditor = uniqueId('auditor');
  const bystander = uniqueId('bystander');
  const admin = uniqueId('admin');
  await api.createUser(trader, { rights: [{ kind: 'CanActAs', party }] });
  await api.createUser(auditor, {
    rights: [
      { kind: 'CanReadAs', party },
      { kind: 'CanExecuteAs', party },
    ],
  });
  await api.createUser(bystander, { rights: [{ kind: 'CanActAs', party: other }] });
  await api.createUser(admin, { rights: [{ kind: 'ParticipantAdmin' }] });

  await goToParty(page, party);
  await assertAccessChecked(page);
  await assertCanAccess(page, trader, { act: 'Act as', read: 'Act as', execute: 'Act as' });
  await assertCanAccess(page, auditor, { act: 'No', read: 'Read as', execute: 'Execute as' });
  await assertCannotAccess(page, bystander);
  await assertAdministratorListed(page, admin, 'Participant admin');
  await assertNoAccessibilityViolations(page);

  await openUserFromAccess(page, trader);
  await assertOnUserPage(page, trader);
});

test('the parties list shows a new party, and passes an accessibility scan', async ({
  page,
  request,
}) => {
  const hint = uniqueId('listed');
  const party = await seedApi(request).allocateParty(hint);

  await goToParties(page, '?size=1000');
  await filterParties(page, hint);
  await assertPartyListed(page, party);
  await assertNoAccessibilityViolations(page);
});

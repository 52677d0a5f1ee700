import { expect, test } from './fixtures';
import { mintToken, uniqueId } from './helpers/api';
import { JWT_CONSOLE_URL } from './helpers/jwt';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { assertSignInNeeded, signedOutState, signInAsSandboxUser } from './helpers/session';
import {
  addPartyRight,
  assertOnUserPage,
  assertUserListed,
  fillUserId,
  goToNewUser,
  goToUsers,
  submitCreateUser,
} from './helpers/users';

// The console in front of a sandbox with `--auth jwt` and the demo data (IdP acme-idp and its
// admin acme-admin; default-IdP users such as alice.anderson).
test.use({ baseURL: JWT_CONSOLE_URL });

test('without a token the console explains why and signs in as a sandbox user', async ({
  page,
}) => {
  await page.goto('/users');
  await assertSignInNeeded(page);
  await signedOutState(page).getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await assertNoAccessibilityViolations(page);

  await signInAsSandboxUser(page, 'participant_admin');
  await goToUsers(page);
  await assertUserListed(page, 'alice.anderson');
});

test("an IdP admin creates a user in its own IdP and cannot see another IdP's users", async ({
  page,
  request,
}) => {
  const admin = await mintToken(request, 'participant_admin');
  const parties = await request.get('/v2/parties?identity-provider-id=acme-idp', {
    headers: { Authorization: `Bearer ${admin}` },
  });
  const { partyDetails } = (await parties.json()) as { partyDetails: { party: string }[] };
  const acmeParty = partyDetails[0]?.party ?? '';
  expect(acmeParty).not.toBe('');

  await signInAsSandboxUser(page, 'acme-admin');
  await goToUsers(page);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Users of your identity provider' }),
  ).toBeVisible();
  await assertUserListed(page, 'acme-trader');
  await expect(
    page.getByRole('table', { name: 'Users' }).getByRole('link', { name: 'alice.anderson' }),
  ).toHaveCount(0);

  const userId = uniqueId('acme-new');
  await goToNewUser(page);
  await expect(page.getByRole('checkbox', { name: 'Participant admin' })).toBeDisabled();
  await fillUserId(page, userId);
  await addPartyRight(page, 'Act as', acmeParty);
  await submitCreateUser(page);
  await assertOnUserPage(page, userId);
  await expect(page.getByText('User of identity provider acme-idp')).toBeVisible();

  await goToUsers(page);
  await assertUserListed(page, userId);

  // A user of the default IdP is not this admin's to see.
  await page.goto('/users/alice.anderson');
  const forbidden = page.getByRole('region', { name: 'You may not see this' });
  await expect(forbidden).toContainText(
    'You are signed in as acme-admin (identity provider acme-idp)',
  );
  await expect(forbidden.getByRole('link', { name: 'Sign in as someone else' })).toBeVisible();
});

import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { uniqueId } from './helpers/api';
import { ACME_PROVIDER, OIDC_CONSOLE_URL, signInAs, signInThroughProvider } from './helpers/oidc';
import {
  assertNotOnboarded,
  checkAccess,
  consoleToken,
  expectVerdict,
  offboardStep,
  openUserTab,
  onboardThroughApi,
  openUser,
  runOffboardStep,
} from './helpers/offboarding';

// The OpenID console (`--auth oidc`): every sign-in is the provider's real redirect. Its sandbox
// is shared by every journey of a run, so this one offboards a person it onboarded itself and
// leaves the demo users (acme-analyst and the others) alone.
test.use({
  baseURL: OIDC_CONSOLE_URL,
  allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
});

const IDP = 'acme-idp';

test("acme's IdP admin checks a person's access and offboards them; the person meets the not-onboarded page", async ({
  page,
  browser,
}) => {
  test.slow();
  await page.goto('/sign-in');
  await signInAs(page, ACME_PROVIDER, 'acme-admin');
  const leaver = uniqueId('acme-leaver');
  const party = await onboardThroughApi(page, await consoleToken(page), {
    userId: leaver,
    partyHint: uniqueId('Leaver'),
  });

  // The person works today: signed in through acme's provider in their own browser.
  const personContext = await browser.newContext({ baseURL: OIDC_CONSOLE_URL });
  const person = await personContext.newPage();
  await person.goto('/sign-in');
  await signInAs(person, ACME_PROVIDER, leaver);

  await openUser(page, leaver, IDP);
  const verdicts = await checkAccess(page);
  await expect(await expectVerdict(verdicts, 'Status', 'OK')).toContainText(
    `User "${leaver}" is active`,
  );
  await expect(await expectVerdict(verdicts, 'Rights', 'OK')).toContainText('Acts as 1 party.');
  await expect(await expectVerdict(verdicts, 'Primary party', 'OK')).toContainText(party);
  await assertNoAccessibilityViolations(page);
  await expect(await expectVerdict(verdicts, `Party ${party}`, 'OK')).toContainText(
    'Hosted here on',
  );
  await expect(await expectVerdict(verdicts, 'Sign-in provider', 'OK')).toContainText(
    `Signs in through "${ACME_PROVIDER}", as subject "${leaver}"`,
  );

  await openUserTab(page, 'Offboard');
  await expect(page).toHaveURL(/[?&]tab=offboard/);
  const warning = page.getByRole('region', { name: 'Offboard' }).getByRole('alert');
  await expect(warning).toContainText('Parties can never be deleted.');
  await expect(warning).toContainText(`${party} stays on the participant`);

  // 1. Deactivate: the person's very next request is refused.
  await runOffboardStep(page, 'Step 1: Deactivate', 'Deactivate', 'Deactivate user');
  await expect(offboardStep(page, 'Step 1: Deactivate')).toContainText('Done: deactivated');
  await person.reload();
  await assertNotOnboarded(person, leaver);

  // A fresh sign-in through the provider succeeds there, and ends on the same page here.
  const freshContext = await browser.newContext({ baseURL: OIDC_CONSOLE_URL });
  const fresh = await freshContext.newPage();
  await fresh.goto('/sign-in');
  await signInThroughProvider(fresh, ACME_PROVIDER, leaver);
  await assertNotOnboarded(fresh, leaver);
  await freshContext.close();

  // 2. Revoke every right, 3. delete; the party stays.
  await runOffboardStep(page, 'Step 2: Revoke all rights', 'Revoke all 1 right', 'Revoke 1 right');
  await expect(offboardStep(page, 'Step 2: Revoke all rights')).toContainText(
    'Done: no rights left',
  );
  await runOffboardStep(page, 'Step 3: Delete', 'Delete user', 'Delete user');
  await expect(page).toHaveURL(`${OIDC_CONSOLE_URL}/users`);
  await expect(page.getByText(`User ${leaver} deleted`)).toBeVisible();

  const token = await consoleToken(page);
  const gone = await page.request.get(`/v2/users/${leaver}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(gone.status()).toBe(404);
  const kept = await page.request.get(`/v2/parties/${encodeURIComponent(party)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await kept.json()) as { partyDetails: { party: string }[] }).partyDetails).toEqual([
    expect.objectContaining({ party, identityProviderId: IDP }),
  ]);

  // The person's sign-in, still valid at the provider, now meets a participant without them.
  await person.reload();
  await assertNotOnboarded(person, leaver);
  await personContext.close();
});

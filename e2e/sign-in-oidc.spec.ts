import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  ACME_PROVIDER,
  chooseSubjectAtProvider,
  DEFAULT_PROVIDER,
  OIDC_CONSOLE_URL,
  signInAs,
  signInThroughProvider,
  signOutThroughProvider,
} from './helpers/oidc';
import { assertSignInNeeded, assertSignedInAs, signedOutState } from './helpers/session';
import { assertUserListed, fillUserId, goToUsers, submitCreateUser } from './helpers/users';

// The console whose sandbox signs in through its embedded OpenID provider (`--auth oidc`): every
// journey goes console → the provider's login page → back, with code + PKCE.
// One configured provider is unreachable on purpose (e2e/oidc-sign-in-providers.json): every
// sign-in page asks for its discovery document, and Chromium logs the refused connection.
test.use({
  baseURL: OIDC_CONSOLE_URL,
  allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
});

test('a participant admin signs in through the provider and returns to the page it came from', async ({
  page,
}) => {
  await page.goto('/users?q=alice');
  await assertSignInNeeded(page);
  await signedOutState(page).getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: DEFAULT_PROVIDER })).toBeVisible();
  await assertNoAccessibilityViolations(page);

  await signInThroughProvider(page, DEFAULT_PROVIDER, 'participant_admin');
  await expect(page).toHaveURL(`${OIDC_CONSOLE_URL}/users?q=alice`);
  await assertSignedInAs(page, 'participant_admin');
  await assertUserListed(page, 'alice.anderson');

  const header = page.getByRole('button', { name: 'Signed in: participant_admin' });
  await expect(header).toContainText('Participant admin');
  await expect(header).toContainText(/expires in (1 min|under a minute)/);
  await header.click();
  await expect(page.getByRole('menu')).toContainText(`Through: ${DEFAULT_PROVIDER} · default IdP`);
  await page.keyboard.press('Escape');

  // Neither the code nor a token stays in the address bar or the history entry.
  expect(page.url()).not.toMatch(/code=|state=|token/);
  const stored = await page.evaluate(() => JSON.stringify(window.sessionStorage));
  expect(stored).toContain('ledger-console.access-token');
  expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
});

test("the acme IdP admin sees only acme's users and parties, under a banner naming its IdP", async ({
  page,
}) => {
  await page.goto('/sign-in');
  await signInAs(page, ACME_PROVIDER, 'acme-admin');
  await expect(page.getByRole('button', { name: 'Signed in: acme-admin' })).toContainText(
    'IdP admin of acme-idp',
  );
  await goToUsers(page);
  await expect(page.getByRole('alert', { name: 'Identity provider scope' })).toContainText(
    'You administer the identity provider acme-idp',
  );
  await assertUserListed(page, 'acme-trader');
  await expect(
    page.getByRole('table', { name: 'Users' }).getByRole('link', { name: 'alice.anderson' }),
  ).toHaveCount(0);

  await page.goto('/parties');
  const parties = page.getByRole('table', { name: 'Parties' });
  await expect(parties.getByRole('link').filter({ hasText: 'acme-treasury' })).toBeVisible();
  await expect(parties.getByRole('link').filter({ hasText: 'alice' })).toHaveCount(0);
});

test('a plain user gets the read-only console', async ({ page }) => {
  await page.goto('/sign-in');
  await signInAs(page, DEFAULT_PROVIDER, 'alice.anderson');
  // The person's name from the ID token, the user id in the button's name.
  // (The lifetime joins the role while it is short: these tokens live 75 s.)
  await expect(
    page.getByRole('button', {
      name: /^Signed in: Alice Anderson, User\b.*\(user alice\.anderson\)$/,
    }),
  ).toContainText('User');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Command composer' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Identity providers' })).toHaveCount(0);
});

test('a subject who is not onboarded gets a request link that an admin opens prefilled', async ({
  page,
}) => {
  const subject = 'new-hire';
  await page.goto('/sign-in');
  await signInThroughProvider(page, DEFAULT_PROVIDER, subject);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Not onboarded on this participant' }),
  ).toContainText(`Signed in as ${subject} at http://127.0.0.1:`);
  await page
    .getByRole('textbox', { name: 'What do you need to do?' })
    .fill('Read the treasury <b>contracts</b>');
  await assertNoAccessibilityViolations(page);
  const link = page.getByLabel('Access request link');
  await expect(link).toContainText('/access-requests/review?v=1');
  const requestLink = (await link.textContent()) ?? '';
  expect(requestLink).toContain(`sub=${subject}`);
  expect(requestLink).toContain('email=');

  await signOutThroughProvider(page);
  await signInAs(page, DEFAULT_PROVIDER, 'participant_admin');
  await page.goto(requestLink);
  await expect(page.getByRole('heading', { name: 'Access request' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Subject (user id)' })).toContainText(subject);
  // What the person typed is shown as text, never as markup.
  await expect(page.getByRole('group', { name: 'Asks for' })).toContainText(
    'Read the treasury <b>contracts</b>',
  );
  await page.getByRole('link', { name: 'Onboard this person' }).click();
  await expect(page.getByRole('textbox', { name: /^Subject \(user id\)/ })).toHaveValue(subject);
});

test('renewal before expiry keeps a half-filled form, and an expired refresh asks for a sign-in in a popup', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/sign-in?from=/users/new');
  await signInThroughProvider(page, DEFAULT_PROVIDER, 'participant_admin');
  await expect(page.getByRole('heading', { name: 'Create user' })).toBeVisible();
  const userId = uniqueId('renewed');
  await fillUserId(page, userId);

  const tokenNow = () => page.evaluate(() => sessionStorage.getItem('ledger-console.access-token'));
  const first = await tokenNow();
  // A minute before the 75 s token expires, the refresh token renews it in the background.
  await expect.poll(tokenNow, { timeout: 40_000, intervals: [1000] }).not.toBe(first);
  await expect(page.getByRole('textbox', { name: /^User id/ })).toHaveValue(userId);

  // The provider no longer honours the refresh token (it expired): the next renewal fails.
  await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage)) {
      if (!key.startsWith('oidc.user:')) continue;
      const user = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      sessionStorage.setItem(
        key,
        JSON.stringify({ ...user, refresh_token: 'expired-refresh-token' }),
      );
    }
  });
  const prompt = page.getByRole('alert').filter({ hasText: 'Your sign-in ends soon' });
  await expect(prompt).toBeVisible({ timeout: 40_000 });
  await expect(prompt).toContainText('did not renew the sign-in');
  await expect(page.getByRole('textbox', { name: /^User id/ })).toHaveValue(userId);

  // The provider's own session has ended as well (its cookies are its only state here; the
  // console keeps none), so the popup shows its login page.
  await page.context().clearCookies();
  await prompt.getByRole('button', { name: 'Sign in again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in again' });
  const popupOpened = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: `Sign in with ${DEFAULT_PROVIDER}` }).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent('close');
  await chooseSubjectAtProvider(popup, 'participant_admin');
  await closed;
  await expect(dialog).toBeHidden();
  await expect(prompt).toBeHidden();

  await expect(page.getByRole('textbox', { name: /^User id/ })).toHaveValue(userId);
  await submitCreateUser(page);
  await expect(page.getByRole('heading', { name: userId })).toBeVisible();
});

test('the token doctor reads the current token and says what the participant makes of it', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await signInAs(page, ACME_PROVIDER, 'acme-admin');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Token doctor' })
    .click();
  await page.getByRole('button', { name: 'Use my current token' }).click();
  const verdicts = page.getByRole('list', { name: 'Verdicts' });
  await expect(verdicts.getByRole('listitem', { name: 'Issuer (iss)' })).toContainText(
    ACME_PROVIDER,
  );
  await expect(verdicts.getByRole('listitem', { name: 'User record' })).toContainText('acme-admin');
  await expect(verdicts.getByRole('listitem', { name: 'Rights' })).toContainText(
    /IdP admin|Identity provider admin/i,
  );
  // The pasted (here: current) token is never put in the address.
  expect(page.url()).not.toContain('eyJ');
  await assertNoAccessibilityViolations(page);
});

test('sign-out ends the session at the provider too', async ({ page }) => {
  await page.goto('/sign-in');
  await signInAs(page, DEFAULT_PROVIDER, 'participant_admin');
  await signOutThroughProvider(page);
  expect(
    await page.evaluate(() => sessionStorage.getItem('ledger-console.access-token')),
  ).toBeNull();
  await page.goto('/users');
  await assertSignInNeeded(page);

  // The provider asks again: its session ended with the console's.
  await page.goto('/sign-in');
  await page
    .getByRole('region', { name: DEFAULT_PROVIDER })
    .getByRole('button', { name: `Sign in with ${DEFAULT_PROVIDER}` })
    .click();
  await expect(page.getByRole('button', { name: 'Sign in as participant_admin' })).toBeVisible();
});

test.describe('what goes wrong is said on the sign-in page', () => {
  test('a provider whose discovery fails is reported on its own; the others still work', async ({
    page,
  }) => {
    await page.goto('/sign-in');
    const broken = page.getByRole('region', { name: 'Unreachable provider' });
    await expect(broken.getByRole('alert')).toContainText('Unreachable provider is unavailable');
    await expect(broken.getByRole('alert')).toContainText('could not be read');
    await expect(
      broken.getByRole('button', { name: 'Sign in with Unreachable provider' }),
    ).toBeDisabled();
    await signInAs(page, ACME_PROVIDER, 'acme-trader');
  });

  test('a forged, replayed or cancelled answer changes nothing', async ({ page }) => {
    await page.goto('/sign-in/callback?code=abc&state=forged-state');
    await expect(page).toHaveURL(`${OIDC_CONSOLE_URL}/sign-in`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Sign-in did not complete' }),
    ).toContainText('belongs to no sign-in started in this tab');

    await page.goto('/sign-in/callback?code=abc');
    await expect(
      page.getByRole('alert').filter({ hasText: 'Sign-in did not complete' }),
    ).toContainText('not a complete answer');

    // Cancel on the provider's page: access_denied comes back.
    await page
      .getByRole('region', { name: DEFAULT_PROVIDER })
      .getByRole('button', { name: `Sign in with ${DEFAULT_PROVIDER}` })
      .click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Sign-in did not complete' }),
    ).toContainText('cancelled');

    // A real answer, replayed after it was used.
    let callback = '';
    page.on('request', (request) => {
      if (request.url().startsWith(`${OIDC_CONSOLE_URL}/sign-in/callback?`))
        callback = request.url();
    });
    await signInAs(page, DEFAULT_PROVIDER, 'participant_admin');
    expect(callback).toContain('code=');
    await page.goto(callback);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Sign-in did not complete' }),
    ).toContainText('belongs to no sign-in started in this tab');
    // Still signed in as before.
    await assertSignedInAs(page, 'participant_admin');
  });
});

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { goToIdentityProviders } from './helpers/identity-providers';
import {
  DEFAULT_PROVIDER,
  OIDC_CONSOLE_URL,
  PROVIDER_ORIGIN,
  signInAs,
  signOutThroughProvider,
} from './helpers/oidc';
import { goToUsers } from './helpers/users';

// A participant admin delegates a new identity provider, through the real OpenID sign-in: the
// sandbox's provider has a third issuer, /globex, that no IdP configuration names until this
// journey creates globex-idp for it, and the console offers it as "Sandbox provider (globex)".
// The ids are fixed (the console's globex sign-in provider names globex-idp, and an issuer may
// belong to one IdP only), so a run first removes what an earlier run against the same
// long-lived server left behind.
test.use({
  baseURL: OIDC_CONSOLE_URL,
  allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
});

const GLOBEX_PROVIDER = 'Sandbox provider (globex)';
const IDP = 'globex-idp';
const ADMIN = 'globex-admin';
const ISSUER = `${PROVIDER_ORIGIN}/globex`;

test('a participant admin delegates a new identity provider and its first admin signs in', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await signInAs(page, DEFAULT_PROVIDER, 'participant_admin');
  await removeEarlierDelegation(page);

  await goToIdentityProviders(page);
  await page.getByRole('link', { name: 'Create identity provider' }).first().click();
  await expect(
    page.getByRole('heading', { name: 'Create identity provider', level: 1 }),
  ).toBeVisible();

  // Fill from issuer: the console server reads the provider's discovery document and keys.
  const lookup = page.getByRole('form', { name: 'Fill from issuer' });
  await lookup.getByRole('textbox', { name: 'Issuer URL' }).fill(ISSUER);
  await lookup.getByRole('button', { name: 'Fill from issuer' }).click();
  const checks = page.getByRole('list', { name: 'Discovery checks' });
  await expect(checks).toContainText(`The discovery document names exactly ${ISSUER}.`);
  await expect(checks).toContainText('1 signing key (RS256).');
  await expect(checks).toContainText('No identity provider on this participant has this issuer');

  const create = page.getByRole('form', { name: 'Create identity provider' });
  await expect(create.getByRole('textbox', { name: 'Issuer' })).toHaveValue(ISSUER);
  await expect(create.getByRole('textbox', { name: 'JWKS URL' })).toHaveValue(`${ISSUER}/jwks`);
  await create.getByRole('textbox', { name: 'Identity provider id' }).fill(IDP);
  await create.getByRole('button', { name: 'Create identity provider' }).click();
  await expect(page.getByText('Identity provider created')).toBeVisible();

  const firstAdmin = page.getByRole('form', { name: 'Create first IdP admin' });
  await firstAdmin.getByRole('textbox', { name: 'User id' }).fill(ADMIN);
  await firstAdmin.getByRole('button', { name: 'Create IdP admin' }).click();

  const sheet = page.getByRole('region', { name: 'Hand-off sheet' });
  const text = sheet.getByLabel('Hand-off sheet text');
  await expect(text).toContainText(`Identity provider id: ${IDP}`);
  await expect(text).toContainText(`Issuer (iss): ${ISSUER}`);
  await expect(text).toContainText(`First IdP admin: ${ADMIN} (right: IdentityProviderAdmin)`);
  await expect(text).toContainText('Audience expected: https://daml.com/jwt/aud/participant/');
  await expect(sheet.getByLabel('Sign-in configuration (--sign-in-config)')).toContainText(
    `"identityProviderId": "${IDP}"`,
  );
  await expect(sheet.getByRole('button', { name: 'Copy hand-off sheet' })).toBeVisible();
  await assertNoAccessibilityViolations(page);

  // The new IdP admin signs in through the provider the hand-off names.
  await signOutThroughProvider(page);
  await signInAs(page, GLOBEX_PROVIDER, ADMIN);
  // The header fits its second line in whole words beside the short token's lifetime; the
  // whole role is in the button's title (and its menu).
  const identity = page.getByRole('button', { name: `Signed in: ${ADMIN}` });
  await expect(identity).toContainText('IdP admin');
  await expect(identity).toHaveAttribute('title', new RegExp(`^IdP admin of ${IDP}$`, 'm'));
  await goToUsers(page);
  await expect(page.getByRole('alert', { name: 'Identity provider scope' })).toContainText(
    `You administer the identity provider ${IDP}`,
  );
});

/**
 * Against a long-lived server: an earlier run's globex-admin is moved to the default IdP and
 * deleted (a participant admin reaches another IdP's users only so), then globex-idp is deleted.
 * Through the API, with the signed-in participant admin's own token.
 */
async function removeEarlierDelegation(page: Page): Promise<void> {
  const token = await page.evaluate(() =>
    window.sessionStorage.getItem('ledger-console.access-token'),
  );
  expect(token, 'the participant admin’s token in session storage').toBeTruthy();
  const headers = { Authorization: `Bearer ${token ?? ''}` };
  const idp = await page.request.get(`/v2/idps/${IDP}`, { headers });
  if (idp.status() === 404) return;
  expect(idp.status()).toBe(200);
  const admin = await page.request.get(`/v2/users/${ADMIN}?identity-provider-id=${IDP}`, {
    headers,
  });
  if (admin.status() === 200) {
    const moved = await page.request.patch(`/v2/users/${ADMIN}/identity-provider-id`, {
      headers,
      data: { userId: ADMIN, sourceIdentityProviderId: IDP, targetIdentityProviderId: '' },
    });
    expect(moved.status()).toBe(200);
    expect((await page.request.delete(`/v2/users/${ADMIN}`, { headers })).status()).toBe(200);
  }
  const removed = await page.request.delete(`/v2/idps/${IDP}`, { headers });
  expect(
    removed.status(),
    `${IDP} from an earlier run could not be removed (other users or parties in it?): ${await removed.text()}`,
  ).toBe(200);
}

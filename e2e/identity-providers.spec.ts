import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  assertSetting,
  assertStatus,
  findUserOfIdentityProvider,
  goToIdentityProviders,
  openIdentityProvider,
} from './helpers/identity-providers';
import { assertNoAccessibilityViolations } from './helpers/overview';

test('an admin opens an identity provider: its settings, its parties, and one of its users', async ({
  page,
  request,
}) => {
  const api = seedApi(request);
  const idp = uniqueId('e2e-idp');
  await api.createIdentityProvider(idp);
  const party = await api.allocateParty(uniqueId('trader'), { identityProviderId: idp });
  const userId = uniqueId('trader');
  await api.createUser(userId, { identityProviderId: idp, primaryParty: party });

  await goToIdentityProviders(page);
  await openIdentityProvider(page, idp);
  await assertSetting(page, 'Issuer', `https://${idp}.example`);
  await assertSetting(page, 'JWKS URL', `https://${idp}.example/jwks.json`);
  await assertStatus(page, 'Active');
  await expect(page.getByRole('region', { name: 'Parties' })).toContainText(
    party.split('::')[0] ?? party,
  );
  await assertNoAccessibilityViolations(page);

  await findUserOfIdentityProvider(page, userId);
  await page.getByRole('link', { name: userId, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${userId}\\?idp=${idp}`));
});

test('the identity providers list has no detectable accessibility violations', async ({ page }) => {
  await goToIdentityProviders(page);
  await expect(page.getByRole('table', { name: 'Identity providers' })).toBeVisible();
  await assertNoAccessibilityViolations(page);
});

test('the create identity provider page has no detectable accessibility violations', async ({
  page,
}) => {
  await page.goto('/identity-providers/new');
  await expect(
    page.getByRole('heading', { name: 'Create identity provider', level: 1 }),
  ).toBeVisible();
  await assertNoAccessibilityViolations(page);
});

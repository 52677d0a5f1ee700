import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  assertSetting,
  assertStatus,
  copyAsCurl,
  editSettings,
} from './helpers/identity-providers';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { DESIGN_SIZES, useColorScheme } from './helpers/design';

// The IdP page after the design pass (issue 16), at a desktop's and a phone's size: its settings
// shown once and edited in place, "Copy as…" of the exact update, the not-found state, axe in
// light and dark mode.

for (const size of DESIGN_SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('an IdP page shows its settings once, saves one edited field, and copies the update as curl', async ({
      page,
      request,
    }) => {
      test.setTimeout(60_000);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const idp = uniqueId('e2e-design-idp');
      const api = seedApi(request);
      await api.createIdentityProvider(idp, { audience: 'ledger-api' });

      try {
        // By its URL: on a phone the list is laid out differently (another journey's concern).
        await page.goto(`/identity-providers/${encodeURIComponent(idp)}`);
        await expect(page.getByRole('heading', { name: idp, level: 1 })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Back to identity providers' })).toBeVisible();
        await assertStatus(page, 'Active');
        // Once: the values are read-only text, and no form repeats them.
        await assertSetting(page, 'Issuer', `https://${idp}.example`);
        await expect(page.getByText(`https://${idp}.example/jwks.json`)).toHaveCount(1);
        await expect(page.getByRole('form', { name: 'Edit identity provider' })).toHaveCount(0);
        await expect(page.getByRole('textbox', { name: /Issuer/ })).toHaveCount(0);

        for (const scheme of ['light', 'dark'] as const) {
          await useColorScheme(page, scheme);
          await expect(page.getByRole('region', { name: 'Settings' })).toBeVisible();
          await assertNoAccessibilityViolations(page);
        }

        await editSettings(page);
        const form = page.getByRole('form', { name: 'Edit identity provider' });
        // The edit form replaces the read-only values instead of standing beside them.
        await expect(
          page.getByRole('region', { name: 'Settings' }).getByRole('group', { name: 'Issuer' }),
        ).toHaveCount(0);
        await form.getByRole('textbox', { name: /Audience/ }).fill('ledger-api-2');

        const curl = await copyAsCurl(page, form);
        expect(curl).toContain(`-X PATCH '`);
        expect(curl).toContain(`/v2/idps/${encodeURIComponent(idp)}'`);
        expect(curl).toContain('Authorization: Bearer $TOKEN');
        expect(curl).toContain('"audience": "ledger-api-2"');
        expect(curl).toMatch(/"paths": \[\s*"audience"\s*\]/);
        await assertNoAccessibilityViolations(page);

        await form.getByRole('button', { name: 'Save changes' }).click();
        await expect(page.getByText(`Identity provider ${idp} updated`)).toBeVisible();
        await expect(form).toHaveCount(0);
        await assertSetting(page, 'Audience', 'ledger-api-2');
        await assertSetting(page, 'Issuer', `https://${idp}.example`);
      } finally {
        // Participants hold at most 16 IdPs: leave room for the other journeys.
        await api.client.request('DELETE', `/v2/idps/${encodeURIComponent(idp)}`);
      }
    });

    test('an unknown IdP says so, with the way back to the list', async ({ page }) => {
      await page.goto('/identity-providers/no-such-idp');
      await expect(page.getByRole('heading', { name: 'no-such-idp', level: 1 })).toBeVisible();
      const state = page.getByRole('region', { name: 'No identity provider “no-such-idp”' });
      await expect(state).toBeVisible();
      await expect(page.getByRole('button', { name: /Retry/ })).toHaveCount(0);
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await expect(state).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }
      await state.getByRole('link', { name: 'Go to identity providers' }).click();
      await expect(
        page.getByRole('heading', { name: 'Identity providers', level: 1 }),
      ).toBeVisible();
    });
  });
}

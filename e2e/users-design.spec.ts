import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { copyAsCurl } from './helpers/identity-providers';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  addPartyRight,
  assertOnUserPage,
  assertRightListed,
  fillUserId,
  goToNewUser,
  submitCreateUser,
} from './helpers/users';
import { DESIGN_SIZES, useColorScheme } from './helpers/design';

// Users after the design pass (issue 16), at a desktop's and a phone's size: the primary party
// picked from the picker with its hosted-here check, the rights tab opened by its URL, a grant
// copied as curl before it is sent, axe in light and dark mode.

for (const size of DESIGN_SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('creates a user with a picked primary party, grants a right on the rights tab by URL, and copies the grant as curl', async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const hint = uniqueId('design-party');
      const party = await seedApi(request).allocateParty(hint);
      const userId = uniqueId('design-user');

      await goToNewUser(page);
      await expect(page.getByRole('link', { name: 'Back to users' })).toBeVisible();
      await fillUserId(page, userId);
      const primaryParty = page.getByRole('combobox', { name: /^Primary party/ });
      await expect(primaryParty).toBeEnabled();
      await primaryParty.fill(hint);
      await page.getByRole('option', { name: new RegExp(`^${hint} `) }).click();
      await expect(primaryParty).toHaveValue(party);
      await expect(primaryParty).toHaveAccessibleDescription(/✓ Hosted here/);
      // Cancel sits next to the submit, in one bar.
      await expect(page.getByRole('link', { name: 'Cancel' })).toBeVisible();
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await expect(page.getByRole('form', { name: 'Create user' })).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }
      // The reload cleared the form: fill it again.
      await fillUserId(page, userId);
      await primaryParty.fill(hint);
      await page.getByRole('option', { name: new RegExp(`^${hint} `) }).click();
      await submitCreateUser(page);
      await assertOnUserPage(page, userId);

      await page.goto(`/users/${encodeURIComponent(userId)}?tab=rights`);
      await assertOnUserPage(page, userId);
      await expect(page.getByRole('tab', { name: 'Rights' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const form = page.getByRole('form', { name: 'Grant rights' });
      await expect(form).toBeVisible();
      await addPartyRight(page, 'Read as', party);

      const curl = await copyAsCurl(page, form);
      expect(curl).toContain(`-X POST '`);
      expect(curl).toContain(`/v2/users/${encodeURIComponent(userId)}/rights'`);
      expect(curl).toContain('Authorization: Bearer $TOKEN');
      expect(curl).toContain('"CanReadAs"');
      expect(curl).toContain(`"party": "${party}"`);

      await form.getByRole('button', { name: 'Grant rights' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(`Read as ${party}`);
      await dialog.getByRole('button', { name: 'Grant right' }).click();
      await assertRightListed(page, userId, `Read as ${party}`);
      // Still on the rights tab, which the URL keeps.
      expect(new URL(page.url()).searchParams.get('tab')).toBe('rights');

      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await expect(page.getByRole('tab', { name: 'Rights' })).toHaveAttribute(
          'aria-selected',
          'true',
        );
        await expect(page.getByRole('table', { name: `Rights of ${userId}` })).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }
    });

    test('an unknown user says so, with the way back to the users', async ({ page }) => {
      await page.goto('/users/no-such-user');
      await expect(page.getByText('No user “no-such-user”')).toBeVisible();
      await expect(page.getByRole('button', { name: /Retry/ })).toHaveCount(0);
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await expect(page.getByText('No user “no-such-user”')).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }
      await page.getByRole('link', { name: 'Go to users' }).click();
      await expect(page).toHaveURL(/\/users$/);
    });
  });
}

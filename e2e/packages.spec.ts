import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';
import {
  assertChoiceArgumentFields,
  assertListedPackage,
  assertPreviewDecodeError,
  assertPreviewMainPackage,
  assertTemplateChoices,
  assertUploaded,
  assertUploadRejected,
  assertVetting,
  changeVetting,
  chooseDarFile,
  clickUpload,
  goToPackage,
  goToPackages,
  goToUploadDar,
  ILLFORMED_DAR,
  openModule,
  openUploadedPackage,
  PARTY_REPLICATION_DAR,
  PARTY_REPLICATION_MAIN,
  PARTY_REPLICATION_NAME,
  PARTY_REPLICATION_TITLE,
  PARTY_REPLICATION_VERSION,
  PING_DAR,
  PING_TITLE,
  seedDar,
} from './helpers/packages';

test('upload the workflows DAR and browse to the Ping template’s choices', async ({ page }) => {
  await goToUploadDar(page);
  await chooseDarFile(page, PING_DAR);
  await assertPreviewMainPackage(page, PING_TITLE);

  await clickUpload(page);
  await assertUploaded(page);
  await openUploadedPackage(page, PING_TITLE);

  const module = await openModule(page, 'Fixture.Ping');
  const choices = await assertTemplateChoices(module, 'Ping', ['Respond', 'Archive', 'AbortPing']);
  await assertChoiceArgumentFields(choices, 'AbortPing', ['anyone: Party']);
  await assertNoAccessibilityViolations(page);
});

test('upload the ill-formed DAR and read the error', async ({ page }) => {
  await goToUploadDar(page);
  await chooseDarFile(page, ILLFORMED_DAR);
  // The browser's own reading fails first, and says why.
  await assertPreviewDecodeError(page, 'A package is not valid Daml-LF');

  await clickUpload(page);
  await assertUploadRejected(page, {
    code: 'DAR_VALIDATION_ERROR',
    message: 'Package validation failed.',
    detail: 'Type checking failed',
  });
});

test('unvet a package and vet it again', async ({ page, request }) => {
  // Uploading vets every package again, whatever an earlier run left; the workflows DAR too, so
  // that the upload journey running alongside does not change the vetting under this test.
  await seedDar(request, PING_DAR);
  await seedDar(request, PARTY_REPLICATION_DAR);
  await goToPackage(page, PARTY_REPLICATION_MAIN, PARTY_REPLICATION_TITLE);
  await assertVetting(page, 'Vetted');

  await changeVetting(page, 'Unvet', PARTY_REPLICATION_TITLE);
  await assertVetting(page, 'Not vetted');
  // Out of the vetting list, the package is named from its archive, read in the Web Worker.
  const listing = {
    packageId: PARTY_REPLICATION_MAIN,
    name: PARTY_REPLICATION_NAME,
    version: PARTY_REPLICATION_VERSION,
  };
  await goToPackages(page);
  await assertListedPackage(page, { ...listing, status: 'Not vetted' });

  await goToPackage(page, PARTY_REPLICATION_MAIN, PARTY_REPLICATION_TITLE);
  await changeVetting(page, 'Vet', PARTY_REPLICATION_TITLE);
  await assertVetting(page, 'Vetted');
  await goToPackages(page);
  await assertListedPackage(page, { ...listing, status: 'Vetted' });
});

test('the packages list has no detectable accessibility violations', async ({ page }) => {
  await goToPackages(page);
  await expect(page.getByRole('link', { name: 'sandbox-demo' })).toBeVisible();
  await assertNoAccessibilityViolations(page);
});

test('the upload page, with a DAR read, has no detectable accessibility violations', async ({
  page,
}) => {
  await goToUploadDar(page);
  await assertNoAccessibilityViolations(page);
  await chooseDarFile(page, PING_DAR);
  await assertPreviewMainPackage(page, PING_TITLE);
  await assertNoAccessibilityViolations(page);
});

test('a confirmation appears in place for who asks for less motion, and slides in otherwise', async ({
  page,
  request,
}) => {
  await seedDar(request, PARTY_REPLICATION_DAR);
  const styles = await dialogStylesOnOpening(page, 'reduce');
  expect(styles.length).toBeGreaterThan(0);
  expect(styles.filter((style) => style.includes('opacity: 0'))).toEqual([]);

  const moving = await dialogStylesOnOpening(page, 'no-preference');
  expect(moving.filter((style) => style.includes('opacity: 0')).length).toBeGreaterThan(0);
});

/**
 * Opens the vetting confirmation with the system's motion preference set, and returns each inline
 * style the dialog carried on its way in, as a MutationObserver saw them; then cancels.
 */
async function dialogStylesOnOpening(
  page: Page,
  reducedMotion: 'reduce' | 'no-preference',
): Promise<string[]> {
  await page.emulateMedia({ reducedMotion });
  await goToPackage(page, PARTY_REPLICATION_MAIN, PARTY_REPLICATION_TITLE);
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { dialogStyles: seen });
    const record = () => {
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog) seen.push(dialog.getAttribute('style') ?? '');
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['style'],
    });
  });
  const row = page.getByRole('table', { name: 'Vetting per synchronizer' }).getByRole('row').nth(1);
  await row.getByRole('button', { name: /^(Vet|Unvet) on / }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`${PARTY_REPLICATION_TITLE} on `) });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS('opacity', '1');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  return page.evaluate(() => (window as unknown as { dialogStyles: string[] }).dialogStyles);
}

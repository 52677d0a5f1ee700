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

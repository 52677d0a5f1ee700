import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { fixtureDar, type FixtureDarName } from '@ledger-console/participant/testing/fixture-dars';
import { expect } from '../fixtures';
import { seedApi } from './api';

// The project's generated DARs (packages/participant/src/testing/fixture-dars.ts), built in this process.
export const PING_DAR: FixtureDarName = 'workflows';
export const PING_TITLE = fixtureDar(PING_DAR).title;
export const PARTY_REPLICATION_DAR: FixtureDarName = 'replication';
export const PARTY_REPLICATION_MAIN = fixtureDar(PARTY_REPLICATION_DAR).main.packageId;
export const PARTY_REPLICATION_NAME = fixtureDar(PARTY_REPLICATION_DAR).main.name;
export const PARTY_REPLICATION_VERSION = fixtureDar(PARTY_REPLICATION_DAR).main.version;
export const PARTY_REPLICATION_TITLE = fixtureDar(PARTY_REPLICATION_DAR).title;
export const ILLFORMED_DAR: FixtureDarName = 'illformed';

/** A fixture DAR as the file a user picks: its name, type and bytes (no file on disk). */
export function fixtureDarUpload(name: FixtureDarName) {
  const dar = fixtureDar(name);
  return { name: dar.file, mimeType: 'application/octet-stream', buffer: Buffer.from(dar.bytes()) };
}

/**
 * Uploads a fixture DAR through the participant's endpoint, vetting all its packages (again, if a
 * test had unvetted some), as an administrator's script would.
 */
export async function seedDar(request: APIRequestContext, name: FixtureDarName): Promise<void> {
  await seedApi(request).uploadDar(fixtureDar(name).bytes(), { vetAllPackages: true });
}

export async function goToPackages(page: Page): Promise<void> {
  await page.goto('/packages');
  await expect(page.getByRole('heading', { name: 'Packages', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Packages' })).toBeVisible();
}

/**
 * The packages list's row of one package, found by its copy button (named by the package id), and
 * what it shows: the name and version, from the vetting list or read from the archive.
 */
export async function assertListedPackage(
  page: Page,
  { packageId, name, version, status }: PackageListing,
): Promise<void> {
  const row = page
    .getByRole('table', { name: 'Packages' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copy package id ${packageId}` }) });
  await expect(row.getByRole('rowheader')).toHaveText(name);
  await expect(row.getByRole('cell').first()).toHaveText(version);
  await expect(row.getByRole('cell').nth(2)).toHaveText(
    status === 'Vetted' ? /^Vetted/ : /^Not vetted/,
  );
}

export type PackageListing = {
  packageId: string;
  name: string;
  version: string;
  status: 'Vetted' | 'Not vetted';
};

export async function goToUploadDar(page: Page): Promise<void> {
  await page.goto('/packages/upload');
  await expect(page.getByRole('heading', { name: 'Upload a DAR', level: 1 })).toBeVisible();
}

export async function goToPackage(page: Page, packageId: string, title: string): Promise<void> {
  await page.goto(`/packages/${packageId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

/** Picks the file with the page's real file input, as the browser's file chooser would. */
export async function chooseDarFile(page: Page, name: FixtureDarName): Promise<Locator> {
  await page.getByLabel('Choose a DAR file').setInputFiles(fixtureDarUpload(name));
  const preview = page.getByRole('region', { name: 'In this DAR', exact: true });
  await expect(preview).toBeVisible();
  return preview;
}

export async function assertPreviewMainPackage(page: Page, title: string): Promise<void> {
  await expect(
    page
      .getByRole('region', { name: 'In this DAR', exact: true })
      .getByRole('group', { name: 'Main package' }),
  ).toHaveText(new RegExp(`${title}$`));
}

export async function assertPreviewDecodeError(page: Page, title: string): Promise<void> {
  await expect(
    page.getByRole('region', { name: 'In this DAR', exact: true }).getByRole('alert'),
  ).toContainText(title);
}

export async function clickUpload(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

export async function assertUploaded(page: Page): Promise<void> {
  await expect(page.getByRole('alert', { name: 'Uploaded' })).toContainText(
    'is stored on the participant',
  );
}

export async function assertUploadRejected(
  page: Page,
  { code, message, detail }: { code: string; message: string; detail: string },
): Promise<void> {
  const error = page.getByRole('alert', { name: 'Invalid request' });
  await expect(error).toContainText(message);
  await expect(error.getByText(code, { exact: true })).toBeVisible();
  await expect(error.getByRole('button', { name: /^Copy (correlation|trace) id$/ })).toBeVisible();
  await error.getByText('Details').click();
  await expect(error).toContainText(detail);
}

export async function openUploadedPackage(page: Page, title: string): Promise<void> {
  await page.getByRole('link', { name: `Open ${title}` }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

export async function openModule(page: Page, moduleName: string): Promise<Locator> {
  const contents = page.getByRole('region', { name: 'Contents' });
  await contents
    .getByRole('button', { name: new RegExp(`^${moduleName.replaceAll('.', '\\.')}`) })
    .click();
  const module = contents.getByRole('region', {
    name: new RegExp(`^${moduleName.replaceAll('.', '\\.')}`),
  });
  await expect(module).toBeVisible();
  return module;
}

export async function assertTemplateChoices(
  module: Locator,
  template: string,
  choices: readonly string[],
): Promise<Locator> {
  const list = module
    .getByRole('region', { name: template, exact: true })
    .getByRole('list', { name: `Choices of ${template}` });
  await expect(list.getByRole('heading', { level: 6 })).toHaveText([...choices]);
  return list;
}

export async function assertChoiceArgumentFields(
  choices: Locator,
  choice: string,
  fields: readonly string[],
): Promise<void> {
  await expect(
    choices.getByRole('list', { name: `Argument fields of ${choice}` }).getByRole('listitem'),
  ).toHaveText([...fields]);
}

/** The first synchronizer's row of the vetting table (the sandbox has one unless told otherwise). */
function firstVettingRow(page: Page): Locator {
  return page.getByRole('table', { name: 'Vetting per synchronizer' }).getByRole('row').nth(1);
}

export async function assertVetting(page: Page, status: 'Vetted' | 'Not vetted'): Promise<void> {
  await expect(firstVettingRow(page).getByRole('cell').nth(1)).toHaveText(
    status === 'Vetted' ? /^Vetted/ : /^Not vetted/,
  );
}

/** Clicks Vet or Unvet, and confirms in the dialog that names the package. */
export async function changeVetting(
  page: Page,
  operation: 'Vet' | 'Unvet',
  packageTitle: string,
): Promise<void> {
  await firstVettingRow(page)
    .getByRole('button', { name: new RegExp(`^${operation} on `) })
    .click();
  const dialog = page.getByRole('dialog', {
    name: new RegExp(`^${operation} ${packageTitle} on `),
  });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `${operation} package` }).click();
  await expect(dialog).toBeHidden();
}

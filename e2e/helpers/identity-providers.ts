import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export async function goToIdentityProviders(page: Page): Promise<void> {
  await page.goto('/identity-providers');
  await expect(page.getByRole('heading', { name: 'Identity providers', level: 1 })).toBeVisible();
}

export async function openIdentityProvider(page: Page, id: string): Promise<void> {
  await page
    .getByRole('table', { name: 'Identity providers' })
    .getByRole('link', { name: id, exact: true })
    .click();
  await expect(page.getByRole('heading', { name: id, level: 1 })).toBeVisible();
}

export async function assertSetting(page: Page, label: string, value: string): Promise<void> {
  await expect(
    page.getByRole('region', { name: 'Settings' }).getByRole('group', { name: label }),
  ).toContainText(value);
}

export async function findUserOfIdentityProvider(page: Page, userId: string): Promise<void> {
  const search = page.getByRole('search', { name: 'Find a user of this IdP' });
  await search.getByRole('textbox', { name: 'User id' }).fill(userId);
  await search.getByRole('button', { name: 'Find user' }).click();
}

/** The status badge beside the IdP page's title. */
export async function assertStatus(page: Page, value: 'Active' | 'Deactivated'): Promise<void> {
  await expect(page.getByRole('group', { name: 'Status', exact: true })).toHaveText(value);
}

/** Swaps the read-only settings for the form, in place. */
export async function editSettings(page: Page): Promise<void> {
  await page
    .getByRole('region', { name: 'Settings' })
    .getByRole('button', { name: 'Edit settings' })
    .click();
  await expect(page.getByRole('form', { name: 'Edit identity provider' })).toBeVisible();
}

/**
 * "Copy as…" → curl inside `scope`; returns what landed on the clipboard. Menus that name what they
 * copy ("Copy grant as…") count too.
 */
export async function copyAsCurl(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
): Promise<string> {
  await scope.getByRole('button', { name: /^Copy (.+ )?as…$/ }).click();
  await page.getByRole('menuitem', { name: 'curl' }).click();
  await expect(page.getByText('Copied as curl')).toBeVisible();
  // The menu closes with a transition; scans right after must not catch it half gone.
  await expect(page.getByRole('menu')).toHaveCount(0);
  return page.evaluate(() => navigator.clipboard.readText());
}

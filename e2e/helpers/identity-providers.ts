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

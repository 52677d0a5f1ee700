import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export async function goToUsers(page: Page, query = ''): Promise<void> {
  await page.goto(`/users${query}`);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
}

export async function assertShowingUsers(page: Page, from: number, to: number): Promise<void> {
  await expect(
    page.getByRole('status').filter({ hasText: `Showing users ${String(from)}–${String(to)}` }),
  ).toBeVisible();
}

export async function clickNextPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next page' }).click();
}

export async function clickPreviousPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Previous page' }).click();
}

export async function assertUserListed(page: Page, userId: string): Promise<void> {
  await expect(
    page.getByRole('table', { name: 'Users' }).getByRole('link', { name: userId, exact: true }),
  ).toBeVisible();
}

export async function filterUsers(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Filter users' }).fill(text);
}

export async function goToNewUser(page: Page): Promise<void> {
  await page.goto('/users/new');
  await expect(page.getByRole('heading', { name: 'Create user' })).toBeVisible();
}

export async function fillUserId(page: Page, userId: string): Promise<void> {
  await page.getByRole('textbox', { name: /^User id/ }).fill(userId);
}

/** Adds a row to the rights editor: "Act as", "Read as" or "Execute as" a party. */
export async function addPartyRight(
  page: Page,
  kind: 'Act as' | 'Read as' | 'Execute as',
  party: string,
): Promise<void> {
  await page.getByRole('button', { name: 'Add party right' }).click();
  const rows = page.getByRole('combobox', { name: /^Right \d+ kind$/ });
  const n = await rows.count();
  if (kind !== 'Act as') {
    await page.getByRole('combobox', { name: `Right ${String(n)} kind` }).click();
    await page.getByRole('option', { name: kind, exact: true }).click();
  }
  await page.getByRole('combobox', { name: `Right ${String(n)} party` }).fill(party);
}

export async function submitCreateUser(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create user' }).click();
}

export async function assertOnUserPage(page: Page, userId: string): Promise<void> {
  await expect(page.getByRole('heading', { name: userId, level: 1 })).toBeVisible();
}

export async function goToUser(page: Page, userId: string, identityProviderId = ''): Promise<void> {
  const query = identityProviderId ? `?idp=${encodeURIComponent(identityProviderId)}` : '';
  await page.goto(`/users/${encodeURIComponent(userId)}${query}`);
  await assertOnUserPage(page, userId);
}

export async function openRightsTab(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Rights' }).click();
}

/** Selects one right ("Act as alice::1220…") and revokes it through the confirm step. */
export async function revokeRight(page: Page, right: string): Promise<void> {
  await page.getByRole('checkbox', { name: `Select ${right}` }).check();
  await page.getByRole('button', { name: 'Revoke selected' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(right);
  await dialog.getByRole('button', { name: 'Revoke right' }).click();
}

export async function assertRightsReport(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: text })).toBeVisible();
}

export async function assertRightListed(page: Page, userId: string, right: string): Promise<void> {
  await expect(
    page
      .getByRole('table', { name: `Rights of ${userId}` })
      .getByRole('checkbox', { name: `Select ${right}` }),
  ).toBeVisible();
}

export async function assertRightNotListed(
  page: Page,
  userId: string,
  right: string,
): Promise<void> {
  await expect(
    page
      .getByRole('table', { name: `Rights of ${userId}` })
      .getByRole('checkbox', { name: `Select ${right}` }),
  ).toHaveCount(0);
}

export async function assertFieldError(page: Page, field: RegExp, message: string | RegExp) {
  await expect(page.getByRole('textbox', { name: field })).toHaveAccessibleDescription(message);
}

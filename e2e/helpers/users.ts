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

import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** Sandbox (jwt mode) only: signs in through the "Sign in as a sandbox user" option. */
export async function signInAsSandboxUser(page: Page, userId: string): Promise<void> {
  await page.goto('/sign-in');
  const section = page.getByRole('region', { name: 'Sign in as a sandbox user' });
  // A fresh context loads the whole console and probes the participant first: on a loaded
  // 2-core machine that alone can take over 10 s.
  await expect(section.getByText('Sandbox only')).toBeVisible({ timeout: 30_000 });
  await section.getByRole('combobox', { name: 'Sandbox user' }).fill(userId);
  await page.getByRole('option', { name: new RegExp(`^${escapeRegExp(userId)}( \\(|$)`) }).click();
  await section.getByRole('button', { name: 'Sign in as this user' }).click();
  await assertSignedInAs(page, userId);
}

/**
 * The header names the signed-in user: by its user id, or by the person's name from the ID token
 * with the user id in brackets (`Signed in: Alice Anderson, User (user alice.anderson)`).
 */
export async function assertSignedInAs(page: Page, userId: string): Promise<void> {
  const id = escapeRegExp(userId);
  await expect(
    page.getByRole('button', { name: new RegExp(`^Signed in: (${id}(,|$)|.*[(; ]user ${id}\\))`) }),
  ).toBeVisible();
}

/** The signed-out state a page shows instead of its content (docs/design-system.md §States). */
export const signedOutState = (page: Page) =>
  page.getByRole('region', { name: 'Sign in to see this' });

export async function assertSignInNeeded(page: Page): Promise<void> {
  await expect(signedOutState(page)).toBeVisible();
  // The participant's redacted answer is never what a person reads.
  await expect(page.getByText('security-sensitive')).toHaveCount(0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

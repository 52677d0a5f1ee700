import type { Page } from '@playwright/test';
import { OIDC_PORT, OIDC_PROVIDER_PORT } from '../../playwright.config';
import { expect } from '../fixtures';
import { assertSignedInAs } from './session';

/** The console whose sandbox signs in through its embedded OpenID provider (`--auth oidc`). */
export const OIDC_CONSOLE_URL = `http://127.0.0.1:${String(OIDC_PORT)}`;
export const PROVIDER_ORIGIN = `http://127.0.0.1:${String(OIDC_PROVIDER_PORT)}`;

export const DEFAULT_PROVIDER = 'Sandbox provider (default IdP)';
export const ACME_PROVIDER = 'Sandbox provider (acme-idp)';

/**
 * From the console's sign-in page through the provider's login page and back: the real redirect
 * with code + PKCE. Ends wherever the console sends the browser after the callback.
 */
export async function signInThroughProvider(
  page: Page,
  provider: string,
  subject: string,
): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/sign-in')) await page.goto('/sign-in');
  await page
    .getByRole('region', { name: provider })
    .getByRole('button', { name: `Sign in with ${provider}` })
    .click();
  await chooseSubjectAtProvider(page, subject);
  await page.waitForURL(
    (url) => url.origin === OIDC_CONSOLE_URL && url.pathname !== '/sign-in/callback',
  );
}

/** On the provider's (sandbox-only) login page: picks the subject to sign in as. */
export async function chooseSubjectAtProvider(page: Page, subject: string): Promise<void> {
  await page.waitForURL((url) => url.origin === PROVIDER_ORIGIN);
  await expect(page.getByText('for development only')).toBeVisible();
  await page.getByRole('button', { name: `Sign in as ${subject}`, exact: true }).click();
}

export async function signInAs(page: Page, provider: string, userId: string): Promise<void> {
  await signInThroughProvider(page, provider, userId);
  await assertSignedInAs(page, userId);
}

/** Header menu → Sign out → the provider's end-session page → back on the console's sign-in page. */
export async function signOutThroughProvider(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Signed in: / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.origin === PROVIDER_ORIGIN);
  await page.getByRole('button', { name: 'Sign out of the sandbox provider' }).click();
  await page.waitForURL(`${OIDC_CONSOLE_URL}/sign-in`);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
}

import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The two sizes the design journeys run at (issue 16): a desktop's and a phone's. */
export const DESIGN_SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The console in `scheme`, as a user who chose it would have it: the choice stored, then a reload. */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate((chosen) => {
    window.localStorage.setItem('ledger-console.color-scheme', chosen);
  }, scheme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

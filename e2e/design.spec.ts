import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';

// The design pass's promises in a real browser (docs/design-system.md): nothing clips at a phone's
// width, the header stays compact, and every main page passes axe in light and dark mode.

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const PAGES = [
  { path: '/', heading: 'Participant' },
  { path: '/users', heading: 'Users' },
  { path: '/parties', heading: 'Parties' },
  { path: '/packages', heading: 'Packages' },
  { path: '/identity-providers', heading: 'Identity providers' },
  { path: '/transactions', heading: 'Transactions' },
  { path: '/contracts', heading: 'Active contracts' },
  { path: '/live', heading: 'Live' },
  { path: '/activity', heading: 'Activity' },
  { path: '/users/no-such-user', heading: 'no-such-user' },
] as const;

async function useScheme(page: Page, scheme: (typeof SCHEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.addInitScript((chosen) => {
    window.localStorage.setItem('ledger-console.color-scheme', chosen);
  }, scheme);
}

/** No element makes the page scroll sideways: the clipped "Create us" of a phone, say. */
async function assertNoHorizontalOverflow(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(width);
}

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    test(`main pages at ${size.name} size in ${scheme} mode: nothing clipped, axe clean`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await useScheme(page, scheme);
      for (const { path, heading } of PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.mantine-Skeleton-root')).toHaveCount(0);
        await assertNoHorizontalOverflow(page, size.width);
        // The compact header: the title sits near the top of the content.
        const top = await page.getByRole('heading', { level: 1 }).boundingBox();
        expect(top?.y ?? 999).toBeLessThan(size.name === 'phone' ? 140 : 130);
        await assertNoAccessibilityViolations(page);
      }
    });
  }
}

test('the navigation is grouped, with the groups named', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const group of ['Access', 'Ledger', 'Help']) {
    await expect(nav.getByRole('group', { name: group })).toBeVisible();
  }
  await expect(
    nav.getByRole('group', { name: 'Ledger' }).getByRole('link', { name: 'Packages' }),
  ).toBeVisible();
});

test('on a phone the navigation opens from the burger and closes on a choice', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Users' })).toBeHidden();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toBeHidden();
});

test('an unknown user says so, with the way back and no pointless Retry', async ({ page }) => {
  await page.goto('/users/no-such-user');
  const state = page.getByRole('region', { name: 'No user “no-such-user”' });
  await expect(state).toBeVisible();
  await expect(state.getByRole('button', { name: /retry/i })).toHaveCount(0);
  await state.getByRole('link', { name: 'Go to users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
});

test('on a phone the colour scheme menu works and the header fits', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: /^Colour scheme: / }).click();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Colour scheme: Dark' })).toBeVisible();
  // Every control in the header lies within the screen.
  const header = page.getByRole('banner');
  for (const control of await header.getByRole('button').all()) {
    const box = await control.boundingBox();
    if (box === null) continue;
    expect(box.x + box.width, 'a header control is cut off').toBeLessThanOrEqual(390);
  }
});

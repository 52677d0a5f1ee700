import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import { openUserTab } from './helpers/offboarding';

// The user page in tabs whose selection is in the URL (issue 26 item 6): Profile, Rights, Access
// check, Offboard, Activity; each action in one place; deep links, back and forward.

const TABS = ['Profile', 'Rights', 'Access check', 'Offboard', 'Activity'] as const;

async function seedUserWithRights(request: Parameters<typeof seedApi>[0]): Promise<string> {
  const api = seedApi(request);
  const party = await api.allocateFreshParty('tabs');
  const userId = uniqueId('tabs-user');
  await api.createUser(userId, {
    primaryParty: party,
    rights: [
      { kind: 'CanActAs', party },
      { kind: 'CanReadAs', party },
    ],
  });
  return userId;
}

async function assertTabSelected(page: Page, name: (typeof TABS)[number]): Promise<void> {
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
}

/** The user's page at `search`; a full page load on a loaded machine may take a while. */
async function goToUser(page: Page, userId: string, search = ''): Promise<void> {
  await page.goto(`/users/${encodeURIComponent(userId)}${search}`);
  await assertUserHeading(page, userId);
}

async function assertUserHeading(page: Page, userId: string): Promise<void> {
  await expect(page.getByRole('heading', { name: userId, level: 1 })).toBeVisible({
    timeout: 30_000,
  });
}

function tabOfUrl(page: Page): string | null {
  return new URL(page.url()).searchParams.get('tab');
}

test('an old user link lands on Profile; tabs change the URL, and back and forward walk them', async ({
  page,
  request,
}) => {
  // Several full page loads, each slow on a shared 2-core machine.
  test.setTimeout(120_000);
  const userId = await seedUserWithRights(request);
  await goToUser(page, userId);
  await assertTabSelected(page, 'Profile');
  expect(tabOfUrl(page)).toBeNull();
  await expect(page.getByRole('tab')).toHaveText([...TABS]);

  await openUserTab(page, 'Rights');
  await expect(page).toHaveURL(/\?tab=rights$/);
  await expect(page.getByRole('table', { name: `Rights of ${userId}` })).toBeVisible();
  await openUserTab(page, 'Offboard');
  await expect(page).toHaveURL(/\?tab=offboard$/);
  await expect(page.getByRole('region', { name: 'Offboard' })).toBeVisible();

  await page.goBack();
  await assertTabSelected(page, 'Rights');
  expect(tabOfUrl(page)).toBe('rights');
  await page.goBack();
  await assertTabSelected(page, 'Profile');
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await page.goForward();
  await assertTabSelected(page, 'Rights');

  // The keyboard moves between tabs, and the URL follows.
  await page.getByRole('tab', { name: 'Rights' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\?tab=access$/);
  await expect(page.getByRole('tab', { name: 'Access check' })).toBeFocused();

  // A deep link opens its tab directly, after a reload too.
  await goToUser(page, userId, '?tab=activity');
  await assertTabSelected(page, 'Activity');
  await expect(page.getByRole('region', { name: 'Recent activity' })).toBeVisible();
  await page.reload();
  await assertUserHeading(page, userId);
  await assertTabSelected(page, 'Activity');
  // An unknown tab is the profile.
  await goToUser(page, userId, '?tab=nonsense');
  await assertTabSelected(page, 'Profile');
});

test('one Delete and one Copy as… per request on the whole page, and a page that fits the screen', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const userId = await seedUserWithRights(request);
  await goToUser(page, userId);
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();

  const copies: string[] = [];
  let deletes = 0;
  const heights: Record<string, number> = {};
  const ready = {
    Profile: page.getByRole('button', { name: 'Save changes' }),
    Rights: page.getByRole('table', { name: `Rights of ${userId}` }),
    'Access check': page.getByRole('button', { name: 'Check access', exact: true }),
    Offboard: page.getByRole('button', { name: 'Revoke all 2 rights', exact: true }),
    Activity: page.getByRole('region', { name: 'Recent activity' }),
  };
  for (const name of TABS) {
    await openUserTab(page, name);
    await expect(ready[name]).toBeVisible();
    const main = page.getByRole('main');
    copies.push(...(await main.getByRole('button', { name: /^Copy .*as…$/ }).allTextContents()));
    deletes += await main.getByRole('button', { name: /^Delete/ }).count();
    heights[name] = await page.evaluate(() => document.documentElement.scrollHeight);
  }
  console.log(`user page height at 1280×800, per tab: ${JSON.stringify(heights)}`);
  expect(deletes, 'one Delete, on the Offboard tab').toBe(1);
  expect(copies.sort()).toEqual([
    'Copy deactivate as…',
    'Copy delete as…',
    'Copy grant as…',
    'Copy revoke all as…',
    'Copy revoke as…',
    'Copy update as…',
  ]);
  // Before the tabs, this user's page was 1,693 px tall at 1280×800 (2,300 with more activity).
  for (const [name, height] of Object.entries(heights)) {
    expect(height, `${name} tab height`).toBeLessThanOrEqual(1200);
  }
});

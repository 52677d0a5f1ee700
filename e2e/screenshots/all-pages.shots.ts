import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { seedDar } from '../helpers/packages';
import { seedApi } from '../helpers/api';
import { SCREENSHOTS_DIR } from './screenshots.config';

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

type Shot = { name: string; path: string };

/** Ids of real things on the demo ledger, so every detail page shows something. */
async function discoverPages(request: APIRequestContext): Promise<Shot[]> {
  await seedDar(request, 'workflows');
  const steps = seedApi(request);
  const iou = await steps.iouSplit();
  const users = (await (await request.get('/v2/users?pageSize=5')).json()) as {
    users: { id: string }[];
  };
  const parties = (await (await request.get('/v2/parties?pageSize=5')).json()) as {
    partyDetails: { party: string }[];
  };
  const packages = (await (await request.get('/v2/packages')).json()) as { packageIds: string[] };
  const idps = (await (await request.get('/v2/idps')).json()) as {
    identityProviderConfigs: { identityProviderId: string }[];
  };
  const userId = users.users[0]?.id ?? 'participant_admin';
  const party = parties.partyDetails[0]?.party ?? '';
  const packageId = packages.packageIds[0] ?? '';
  const idp = idps.identityProviderConfigs[0]?.identityProviderId;
  const encode = encodeURIComponent;

  return [
    { name: 'overview', path: '/' },
    { name: 'users', path: '/users' },
    { name: 'user-new', path: '/users/new' },
    { name: 'users-import', path: '/users/import' },
    { name: 'user', path: `/users/${encode(userId)}` },
    { name: 'user-rights-tab', path: `/users/${encode(userId)}?tab=rights` },
    { name: 'user-access-tab', path: `/users/${encode(userId)}?tab=access` },
    { name: 'user-offboard-tab', path: `/users/${encode(userId)}?tab=offboard` },
    { name: 'user-activity-tab', path: `/users/${encode(userId)}?tab=activity` },
    { name: 'user-not-found', path: '/users/no-such-user' },
    { name: 'onboard', path: '/onboard' },
    { name: 'parties', path: '/parties' },
    { name: 'party-new', path: '/parties/new' },
    ...(party ? [{ name: 'party', path: `/parties/${encode(party)}` }] : []),
    { name: 'identity-providers', path: '/identity-providers' },
    { name: 'identity-provider-new', path: '/identity-providers/new' },
    ...(idp ? [{ name: 'identity-provider', path: `/identity-providers/${encode(idp)}` }] : []),
    { name: 'packages', path: '/packages' },
    { name: 'packages-upload', path: '/packages/upload' },
    ...(packageId ? [{ name: 'package', path: `/packages/${encode(packageId)}` }] : []),
    ...(packageId
      ? [{ name: 'vetting-plan', path: `/packages/vetting-plan?unvet=${encode(packageId)}` }]
      : []),
    { name: 'package-not-found', path: `/packages/${'0'.repeat(64)}` },
    { name: 'composer', path: '/composer' },
    { name: 'transactions', path: '/transactions' },
    { name: 'transaction', path: `/transactions?update=${encode(iou.split.updateId)}` },
    { name: 'contract', path: `/contracts/${encode(iou.iouId)}` },
    { name: 'contracts', path: `/contracts?party=${encode(iou.owner)}` },
    { name: 'contracts-all', path: '/contracts' },
    { name: 'live', path: '/live' },
    { name: 'activity', path: '/activity' },
    { name: 'traffic', path: '/traffic' },
    { name: 'token-doctor', path: '/token-doctor' },
    { name: 'sign-in', path: '/sign-in' },
    { name: 'page-not-found', path: '/no/such/page' },
  ];
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Skeletons and the route progress bar have gone.
  await expect(page.locator('.mantine-Skeleton-root')).toHaveCount(0, { timeout: 10_000 });
}

test('every page, at a phone and a desktop size, light and dark', async ({ browser, request }) => {
  const pages = await discoverPages(request);
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  let count = 0;
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        colorScheme: scheme,
      });
      // The console follows the system's scheme until the user picks one.
      await context.addInitScript((chosen) => {
        window.localStorage.setItem('ledger-console.color-scheme', chosen);
      }, scheme);
      const page = await context.newPage();
      for (const shot of pages) {
        await page.goto(shot.path);
        await settle(page).catch(() => undefined);
        const file = path.join(SCREENSHOTS_DIR, `${shot.name}--${size.name}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        count += 1;
      }
      await context.close();
    }
  }
  console.log(`${String(count)} screenshots in ${SCREENSHOTS_DIR}`);
});

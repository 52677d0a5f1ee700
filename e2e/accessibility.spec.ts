import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { createIou } from '../sandbox/src/scenarios/demo-commands';
import { createdInTree } from '../sandbox/src/scenarios/ledger-steps';
import { FLEET_BASE_URL } from '../playwright.config';
import { paths } from '../src/app/paths';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  ALL_AXE_RULES,
  AXE_VERSION,
  axeViolations,
  injectAxe,
  type AxeViolation,
} from './helpers/axe';
import { IMPORT_HEADER } from './helpers/bulk-import';
import {
  fillIouCreate,
  fillSubmitter,
  graphNodes,
  IOU_TEMPLATE,
  outlineItems,
  resultGraphNode,
  submit,
} from './helpers/composer';
import { JWT_CONSOLE_URL } from './helpers/jwt';
import { OIDC_CONSOLE_URL } from './helpers/oidc';

// Every page of the console under every rule axe-core has (issue 26 item 8), in both colour
// schemes and at a desktop's and a phone's size. The pages are listed per route of the router
// (src/app/paths.ts); a route without an entry fails `tsc -b` and the first test below, and
// src/app/router.test.tsx fails when the router has a route paths.ts does not name.

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/** What the pages show: data of their own, seeded once per worker through the participant's API. */
type Seed = {
  userId: string;
  party: string;
  issuer: string;
  identityProviderId: string;
  packageId: string;
  contractId: string;
  updateId: string;
};

type AxePage = {
  /** Names the test: the route's key, and the state when a route has more than one. */
  state?: string;
  url: (seed: Seed) => string;
  /** The page's title (its level-1 heading) once it has loaded. */
  heading: string | RegExp;
  /** The signed-in console (`--auth jwt`, its participant admin) instead of the open one. */
  signedIn?: boolean;
  /** Errors the page logs on purpose (an unreachable provider of the sign-in page, say). */
  allowedConsoleErrors?: RegExp[];
  /** Brings the page into the state to check, after its heading shows. */
  prepare?: (page: Page, seed: Seed, request: APIRequestContext) => Promise<void>;
};

/**
 * A short unsigned JWT, for the token doctor to take apart: no secret, and no console accepts it.
 */
function sampleJwt(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return [
    part({ alg: 'RS256', typ: 'JWT', kid: 'a11y' }),
    part({
      iss: 'https://idp.example',
      sub: 'a11y-person',
      aud: 'https://daml.com/jwt/aud/participant/sandbox',
      scope: 'daml_ledger_api',
      iat: now,
      exp: now + 600,
    }),
    'c2lnbmF0dXJl',
  ].join('.');
}

const ACCESS_REQUEST = new URLSearchParams({
  v: '1',
  iss: 'https://idp.example',
  sub: 'a11y-person',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  access: 'Read the bank’s Ious',
}).toString();

/** Every route of the router, with the states of it worth checking. */
const AXE_PAGES = {
  overview: [
    { url: () => paths.overview.to(), heading: 'Participant overview' },
    {
      state: 'signed in',
      signedIn: true,
      url: () => paths.overview.to(),
      heading: 'Participant overview',
    },
  ],
  signIn: [
    { url: () => paths.signIn.to(), heading: 'Sign in' },
    { state: 'signed in', signedIn: true, url: () => paths.signIn.to(), heading: 'Sign in' },
    {
      state: 'OpenID providers',
      // e2e/oidc-sign-in-providers.json lists a provider nobody listens for, on purpose.
      allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
      url: () => `${OIDC_CONSOLE_URL}${paths.signIn.to()}`,
      heading: 'Sign in',
    },
  ],
  signInCallback: [{ url: () => paths.signInCallback.to(), heading: 'Signing in' }],
  accessRequest: [
    { url: () => `${paths.accessRequest.to()}?${ACCESS_REQUEST}`, heading: 'Access request' },
    { state: 'not a request', url: () => paths.accessRequest.to(), heading: 'Access request' },
  ],
  users: [{ url: () => paths.users.to(), heading: 'Users' }],
  newUser: [
    { url: () => paths.newUser.to(), heading: 'Create user' },
    {
      state: 'with errors',
      url: () => paths.newUser.to(),
      heading: 'Create user',
      prepare: async (page) => {
        await page.getByRole('button', { name: 'Create user' }).click();
        await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
      },
    },
  ],
  usersImport: [
    { url: () => paths.usersImport.to(), heading: 'Import users' },
    {
      state: 'with a plan',
      url: () => paths.usersImport.to(),
      heading: 'Import users',
      prepare: async (page) => {
        const batch = uniqueId('a11y-import');
        const csv = [
          IMPORT_HEADER,
          `${batch}-1,Person One,${batch}-1-party,,acts-as-own,false`,
          `${batch} two,Person Two,${batch}-2-party,,acts-as-own,false`,
        ].join('\r\n');
        await page.getByLabel('Choose an import file').setInputFiles({
          name: 'people.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(csv, 'utf8'),
        });
        await expect(page.getByRole('table', { name: 'Import plan' })).toBeVisible();
      },
    },
  ],
  user: [{ url: (seed) => paths.user.to(seed.userId), heading: /^a11y-user-/ }],
  onboard: [
    { url: () => paths.onboard.to(), heading: 'Onboard a person' },
    {
      state: 'from an access request',
      url: () =>
        paths.onboard.to({
          subject: uniqueId('a11y-person'),
          identityProviderId: '',
          displayName: 'Ada Lovelace',
          requestedAccess: 'Read the bank’s Ious',
        }),
      heading: 'Onboard a person',
    },
  ],
  identityProviders: [{ url: () => paths.identityProviders.to(), heading: 'Identity providers' }],
  newIdentityProvider: [
    { url: () => paths.newIdentityProvider.to(), heading: 'Create identity provider' },
  ],
  identityProvider: [
    {
      url: (seed) => paths.identityProvider.to(seed.identityProviderId),
      heading: /^a11y-idp-/,
    },
  ],
  parties: [{ url: () => paths.parties.to(), heading: 'Parties' }],
  newParty: [{ url: () => paths.newParty.to(), heading: 'Allocate party' }],
  newExternalParty: [
    { url: () => paths.newExternalParty.to(), heading: 'Allocate external party' },
  ],
  party: [{ url: (seed) => paths.party.to(seed.party), heading: /^a11y-owner-/ }],
  packages: [{ url: () => paths.packages.to(), heading: 'Packages' }],
  uploadDar: [{ url: () => paths.uploadDar.to(), heading: 'Upload a DAR' }],
  vettingPlan: [
    {
      state: 'a dry-run unvet with its verdict',
      url: (seed) => paths.vettingPlan.to(`unvet=${seed.packageId}`),
      heading: 'Plan a vetting change',
      prepare: async (page) => {
        await expect(page.getByText(/^The participant accepts this plan/)).toBeVisible();
      },
    },
  ],
  package: [
    {
      state: 'a template and its choices',
      url: (seed) => paths.package.to(seed.packageId),
      heading: /^sandbox-demo /,
      prepare: async (page) => {
        const contents = page.getByRole('region', { name: 'Contents' });
        await contents.getByRole('button', { name: /^Demo\.Iou/ }).click();
        await expect(
          contents.getByRole('region', { name: 'Iou', exact: true }).getByRole('list', {
            name: 'Choices of Iou',
          }),
        ).toBeVisible();
      },
    },
  ],
  composer: [
    { url: () => paths.composer.to(), heading: 'Command composer' },
    {
      state: 'a result graph',
      url: () => paths.composer.to(),
      heading: 'Command composer',
      prepare: async (page, seed) => {
        await fillIouCreate(page, {
          issuer: seed.issuer,
          owner: seed.party,
          currency: 'USD',
          amount: '100',
        });
        await fillSubmitter(page, seed.issuer);
        await submit(page);
        await expect(outlineItems(page)).toHaveCount(1);
        await expect(graphNodes(page)).toHaveCount(1);
        await resultGraphNode(page, 0).click();
        await expect(page).toHaveURL(/[?&]node=0$/);
      },
    },
    {
      state: 'exercise on a contract',
      url: (seed) =>
        paths.composer.to({
          exercise: { contractId: seed.contractId, templateId: IOU_TEMPLATE },
        }),
      heading: 'Command composer',
    },
  ],
  transactions: [
    { state: 'history', url: () => paths.transactions.to(), heading: 'Transactions' },
    {
      state: 'an update with a node selected',
      url: (seed) => paths.transactions.to(seed.updateId, 0),
      heading: 'Transactions',
      prepare: async (page) => {
        await expect(page.getByRole('heading', { level: 3 })).toHaveText('Create Iou');
      },
    },
  ],
  contracts: [
    { url: () => paths.contracts.to(), heading: 'Active contracts' },
    {
      state: 'a party’s contracts',
      url: (seed) => paths.contracts.to({ parties: [seed.party] }),
      heading: 'Active contracts',
      prepare: async (page) => {
        await expect(
          page.getByRole('table', { name: 'Active contracts' }).getByRole('row'),
        ).not.toHaveCount(0);
      },
    },
  ],
  live: [
    {
      state: 'an update arriving',
      url: (seed) => `${paths.live.to()}?party=${encodeURIComponent(seed.party)}`,
      heading: 'Live',
      prepare: async (page, seed, request) => {
        await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
        await seedApi(request).submit(
          [createIou({ issuer: seed.issuer, owner: seed.party, currency: 'EUR', amount: '5.0' })],
          { actAs: [seed.issuer] },
        );
        await expect(
          page
            .getByRole('table', { name: 'Live updates' })
            .getByRole('row')
            .filter({ hasText: /Iou/ }),
        ).not.toHaveCount(0, { timeout: 30_000 });
      },
    },
  ],
  contract: [{ url: (seed) => paths.contract.to(seed.contractId), heading: 'Contract' }],
  tokenDoctor: [
    { url: () => paths.tokenDoctor.to(), heading: 'Token doctor' },
    {
      state: 'a token taken apart',
      url: () => paths.tokenDoctor.to(),
      heading: 'Token doctor',
      prepare: async (page) => {
        await page.getByRole('textbox', { name: /^Token/ }).fill(sampleJwt());
        await page.getByRole('button', { name: 'Examine token' }).click();
        await expect(page.getByRole('heading', { name: 'Verdicts' })).toBeVisible();
        await expect(page.getByText('Checking with the participant…')).toHaveCount(0);
      },
    },
  ],
  activity: [{ url: () => paths.activity.to(), heading: 'Activity' }],
  traffic: [{ url: () => paths.traffic.to(), heading: 'Traffic' }],
  fleet: [
    { state: 'one participant', url: () => paths.fleet.to(), heading: 'Fleet' },
    // `npm start -- --participants 2` (playwright.config.ts): both participants' cards.
    {
      state: 'two participants',
      url: () => `${FLEET_BASE_URL}/p/participant2${paths.fleet.to()}`,
      heading: 'Fleet',
    },
    {
      state: 'participant switcher open',
      url: () => `${FLEET_BASE_URL}/p/participant2${paths.overview.to()}`,
      heading: 'Participant overview',
      prepare: async (page) => {
        await page.getByRole('button', { name: /switch participant/ }).click();
        await expect(
          page
            .getByRole('navigation', { name: 'Participants' })
            .getByRole('link', { name: 'participant1 (default)' }),
        ).toBeVisible();
      },
    },
  ],
  /** The router's catch-all (`*`). */
  notFound: [{ url: () => '/no-such-page', heading: 'Page not found' }],
} satisfies Record<keyof typeof paths | 'notFound', readonly AxePage[]>;

/** Seeds through the open console's participant: one of everything a detail page shows. */
async function seedPages(request: APIRequestContext): Promise<Seed> {
  const api = seedApi(request);
  const [issuer, party] = await Promise.all([
    api.allocateFreshParty('a11y-bank'),
    api.allocateFreshParty('a11y-owner'),
  ]);
  const userId = uniqueId('a11y-user');
  const identityProviderId = uniqueId('a11y-idp');
  await Promise.all([
    api.createUser(userId, {
      primaryParty: party,
      rights: [
        { kind: 'CanActAs', party },
        { kind: 'CanReadAs', party: issuer },
      ],
      annotations: { team: 'accessibility' },
    }),
    api.createIdentityProvider(identityProviderId),
  ]);
  const tree = await api.submitForTree(
    [createIou({ issuer, owner: party, currency: 'USD', amount: '100.0' })],
    { actAs: [issuer] },
  );
  const [contractId = ''] = createdInTree(tree);
  const created = Object.values(tree.eventsById)[0];
  const templateId =
    created && 'CreatedTreeEvent' in created ? created.CreatedTreeEvent.value.templateId : '';
  return {
    userId,
    party,
    issuer,
    identityProviderId,
    packageId: templateId.split(':')[0] ?? '',
    contractId,
    updateId: tree.updateId,
  };
}

/** The jwt console's participant admin, signed in once and remembered (local storage). */
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

async function signedInState(browser: Browser): Promise<StorageState> {
  const context = await browser.newContext({ baseURL: JWT_CONSOLE_URL });
  const token = await seedApi(context.request).mintToken('participant_admin');
  const page = await context.newPage();
  await page.goto(paths.signIn.to());
  await page.getByRole('textbox', { name: /^Bearer token/ }).fill(token);
  await page.getByRole('checkbox', { name: /^Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('button', { name: /^Signed in: / })).toBeVisible();
  const state = await context.storageState();
  await context.close();
  return state;
}

async function untilSettled(page: Page, heading: string | RegExp): Promise<void> {
  // The first page of a run loads every chunk cold; on a loaded machine that takes a while.
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Skeleton-root')).toHaveCount(0);
}

/** No stored choice: the console follows the system's scheme, and switches with it in place. */
async function showScheme(page: Page, scheme: (typeof SCHEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  await untilStill(page);
}

/**
 * Until no colour or size is mid-transition: a scan during the scheme's fade would judge a
 * colour halfway between the schemes. Endless animations (a loader's spin) never end, so they
 * do not count.
 */
async function untilStill(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

/** The seeded pages and the signed-in state, made once per worker and shared by its tests. */
const axeTest = test.extend<{ seed: Seed }, { prepared: { seed: Seed; signedIn: StorageState } }>({
  prepared: [
    async ({ playwright, browser }, use, workerInfo) => {
      const request = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL,
      });
      const seed = await seedPages(request);
      await request.dispose();
      await use({ seed, signedIn: await signedInState(browser) });
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  seed: async ({ prepared }, use) => {
    await use(prepared.seed);
  },
});

test('every route of the router has its pages here', () => {
  expect(Object.keys(AXE_PAGES).sort()).toEqual([...Object.keys(paths), 'notFound'].sort());
  // What the report says it ran: every rule, the off-by-default ones too.
  expect(ALL_AXE_RULES.length).toBeGreaterThan(100);
  test.info().annotations.push({
    type: 'axe',
    description: `axe-core ${AXE_VERSION}, ${String(ALL_AXE_RULES.length)} rules`,
  });
});

for (const [route, states] of Object.entries(AXE_PAGES)) {
  for (const entry of states as readonly AxePage[]) {
    const name = [route, entry.state].filter(Boolean).join(', ');
    axeTest.describe(name, () => {
      if (entry.signedIn) {
        axeTest.use({
          baseURL: JWT_CONSOLE_URL,
          storageState: async ({ prepared }, use) => {
            await use(prepared.signedIn);
          },
        });
      }
      if (entry.allowedConsoleErrors) {
        axeTest.use({ allowedConsoleErrors: entry.allowedConsoleErrors });
      }

      // One load per page; its sizes and schemes switch in place, as they do for a person who
      // turns the phone or changes the system's scheme. The scans dominate: each costs ~1–3 s.
      axeTest(
        `axe, every rule, both sizes and schemes: ${name}`,
        async ({ page, request, seed }) => {
          axeTest.setTimeout(90_000);
          const [first, second] = SIZES;
          await page.setViewportSize(first);
          await page.emulateMedia({ colorScheme: 'light' });
          await page.goto(entry.url(seed));
          await untilSettled(page, entry.heading);
          await entry.prepare?.(page, seed, request);
          await injectAxe(page);
          const found: Record<string, AxeViolation[]> = {};
          for (const [size, schemes] of [
            [first, SCHEMES],
            [second, [...SCHEMES].reverse()],
          ] as const) {
            await page.setViewportSize(size);
            await untilStill(page);
            for (const scheme of schemes) {
              await showScheme(page, scheme);
              found[`${size.name}, ${scheme}`] = await axeViolations(page);
            }
          }
          expect(found).toEqual({
            'desktop, light': [],
            'desktop, dark': [],
            'phone, dark': [],
            'phone, light': [],
          });
        },
      );
    });
  }
}

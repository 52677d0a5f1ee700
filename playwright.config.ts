import path from 'node:path';
import { defineConfig } from '@playwright/test';

// Debian's chromium (apt), never a downloaded browser: this machine cannot fetch Playwright's builds.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Not 4173: a developer's own `npm start` may be running there. E2E_PORT_BASE moves all five ports,
// so two checkouts can run their suites side by side.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 4174);
const PORT = PORT_BASE;
const BASE_URL = `http://127.0.0.1:${String(PORT)}`;
/** A second console whose embedded sandbox requires tokens (`--auth jwt`); see e2e/helpers/jwt.ts. */
export const JWT_PORT = PORT_BASE + 1;
const JWT_BASE_URL = `http://127.0.0.1:${String(JWT_PORT)}`;
/**
 * A third console whose sandbox signs in through its embedded OpenID provider (`--auth oidc`, on
 * OIDC_PROVIDER_PORT), with short-lived access tokens so renewal happens within a journey, and
 * one more provider whose discovery fails (e2e/oidc-sign-in-providers.json).
 */
export const OIDC_PORT = PORT_BASE + 2;
export const OIDC_PROVIDER_PORT = PORT_BASE + 3;
/** Access token lifetime there: the console renews a minute before expiry, so 15 s after sign-in. */
export const OIDC_ACCESS_TOKEN_TTL_SECONDS = 75;
const OIDC_BASE_URL = `http://127.0.0.1:${String(OIDC_PORT)}`;
/**
 * A fourth console whose embedded sandbox is connected to two synchronizers, for moving contracts
 * between them. Its own server: on the first, allocating a party would then need a synchronizer.
 */
export const TWO_SYNCHRONIZERS_PORT = PORT_BASE + 4;
export const TWO_SYNCHRONIZERS_BASE_URL = `http://127.0.0.1:${String(TWO_SYNCHRONIZERS_PORT)}`;
/**
 * A fifth console addressing an embedded sandbox fleet of two participants (`--participants 2`),
 * participant1 seeded with the demo, each at /participants/NAME, pages at /p/NAME (ADR 022).
 */
export const FLEET_PORT = PORT_BASE + 5;
export const FLEET_BASE_URL = `http://127.0.0.1:${String(FLEET_PORT)}`;
const isCi = Boolean(process.env.CI);
// .ci/run sets this to collect machine-readable counts.
const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  forbidOnly: isCi,
  retries: 0,
  // Two vCPUs are shared by the server, the sandbox and chromium.
  workers: isCi ? 1 : 2,
  fullyParallel: true,
  reporter: reportDir
    ? [['list'], ['json', { outputFile: path.join(reportDir, 'playwright.json') }]]
    : [['list']],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // As a user who asked the system for less motion: a dialog is where it stays from its first
    // frame, so a click cannot land while its 200 ms entrance still moves it (the press on its
    // button, the release 30 px away: no click). packages.spec.ts covers both settings.
    reducedMotion: 'reduce',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      // The real entry point: builds the SPA if stale, starts the embedded sandbox, proxies to it.
      // With traffic cost reported, as on a synchronizer with traffic control (e2e/traffic.spec.ts).
      command: `npm start -- --port ${String(PORT)} --traffic-cost`,
      // Through the proxy, so the server and the sandbox behind it are both up.
      url: `${BASE_URL}/readyz`,
      reuseExistingServer: !isCi,
      // A first start may include a production build.
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      // Waits for the first: both would otherwise race to build the SPA.
      command: `tsx e2e/wait-for-url.ts ${BASE_URL}/readyz && npm start -- --port ${String(JWT_PORT)} --auth jwt`,
      url: `${JWT_BASE_URL}/readyz`,
      reuseExistingServer: !isCi,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: [
        `tsx e2e/wait-for-url.ts ${BASE_URL}/readyz &&`,
        `npm start -- --port ${String(OIDC_PORT)} --auth oidc`,
        `--oidc-port ${String(OIDC_PROVIDER_PORT)}`,
        `--oidc-access-token-ttl ${String(OIDC_ACCESS_TOKEN_TTL_SECONDS)}`,
        '--sign-in-config e2e/oidc-sign-in-providers.json',
      ].join(' '),
      url: `${OIDC_BASE_URL}/readyz`,
      reuseExistingServer: !isCi,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: `tsx e2e/wait-for-url.ts ${BASE_URL}/readyz && npm start -- --port ${String(TWO_SYNCHRONIZERS_PORT)} --synchronizers local,global`,
      url: `${TWO_SYNCHRONIZERS_BASE_URL}/readyz`,
      reuseExistingServer: !isCi,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: `tsx e2e/wait-for-url.ts ${BASE_URL}/readyz && npm start -- --port ${String(FLEET_PORT)} --participants 2`,
      // The last participant's readiness, through its prefix: the whole fleet is up.
      url: `${FLEET_BASE_URL}/participants/participant2/readyz`,
      reuseExistingServer: !isCi,
      timeout: 180_000,
      stdout: 'pipe',
    },
  ],
});

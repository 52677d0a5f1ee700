/**
 * Browser benchmark of the fleet overview (issue 28): a console of 5 sandbox participants
 * (startSandboxFleet) behind the real console server, in Debian's headless Chromium.
 *
 * - every participant fully shown (health, version, participant id, ledger end, synchronizers,
 *   hosted parties; no "Reading…" left) and the shared-parties section read — target ≤ 1 s —
 *   from the click on "Fleet" in the console, and from a cold page load of `/fleet`;
 * - the same run's reference: the page's own bare `fetch` of the same 35 endpoints (7 per
 *   participant, all at once), which is what the overview cannot beat.
 *
 * Each participant hosts PARTIES parties of its own. Prints medians of RUNS cold runs (a fresh
 * browser context each). Never part of `npm test`.
 *
 *   npm run bench:fleet
 */
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';
import { startSandboxFleet } from '../sandbox/src/index';
import { closeServer, createServer } from '../server/src/create-server';
import { ensureBuilt } from '../server/src/ensure-build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config';
import { DIST, fmt, mark, median, ROOT, writeResults } from './bench-support';
import { machineLabel } from './ratio-report';

const PARTICIPANTS = 5;
const PARTIES = 20;
const RUNS = Number(process.env.FLEET_BENCH_RUNS ?? 5);
const BUDGET_MS = 1000;

/** The endpoints the overview reads of each participant (fleet-overview.ts). */
const ENDPOINTS: readonly { path: string; method?: 'GET' }[] = [
  { path: '/livez' },
  { path: '/readyz' },
  { path: '/v2/version' },
  { path: '/v2/parties/participant-id' },
  { path: '/v2/state/ledger-end' },
  { path: '/v2/state/connected-synchronizers' },
  { path: '/v2/parties?pageSize=200' },
];

/** Page-side check: every card shows its facts and the shared-parties section has its answer. */
const FULLY_SHOWN = (participants: number) => {
  const cards = [...document.querySelectorAll('main section')].filter((section) =>
    /^participant\d+$/.test(
      document.getElementById(section.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
    ),
  );
  if (cards.length !== participants) return false;
  const text = document.querySelector('main')?.textContent ?? '';
  if (text.includes('Reading…') || text.includes('Checking…')) return false;
  return (
    text.includes('Every party read is hosted on one participant only') ||
    document.querySelector('table[aria-label="Parties hosted on more than one participant"]') !==
      null
  );
};

async function main() {
  await ensureBuilt(ROOT, (line) => {
    console.log(line);
  });
  const fleet = await startSandboxFleet({
    participants: PARTICIPANTS,
    port: 0,
    quiet: true,
    seed: 'none',
  });
  for (const member of fleet.participants) {
    for (let index = 0; index < PARTIES; index++) {
      const answer = await fetch(`${member.url}/v2/parties`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          partyIdHint: `${member.name}-party-${String(index)}`,
          identityProviderId: '',
          synchronizerId: '',
          userId: '',
        }),
      });
      if (!answer.ok) throw new Error(`Allocating a party failed: ${await answer.text()}`);
    }
  }
  const server = createServer({
    distDir: DIST,
    participants: fleet.participants.map(({ name, url }) => ({ name, ledgerUrl: url })),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const shown: number[] = [];
  const bare: number[] = [];
  const clicked: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/fleet`, { waitUntil: 'commit' });
      await page.waitForFunction(FULLY_SHOWN, PARTICIPANTS, { polling: 'raf', timeout: 10_000 });
      // From the navigation's start (the page clock's origin) to the frame that showed it all.
      shown.push(await page.evaluate(() => performance.now()));
      if (process.env.FLEET_BENCH_TRACE) {
        const entries = await page.evaluate(() =>
          performance.getEntriesByType('resource').map((entry) => {
            const timing = entry as PerformanceResourceTiming;
            return `${timing.startTime.toFixed(0)}→${timing.responseEnd.toFixed(0)} ${new URL(timing.name).pathname}`;
          }),
        );
        console.log(entries.join('\n'));
      }

      // The reference: the same reads as bare fetches from the same page, all at once.
      const paths = fleet.participants.flatMap(({ name }) =>
        ENDPOINTS.map(({ path }) => `/participants/${name}${path}`),
      );
      bare.push(
        await page.evaluate(async (urls) => {
          const start = performance.now();
          await Promise.all(urls.map(async (url) => (await fetch(url)).text()));
          return performance.now() - start;
        }, paths),
      );
      await context.close();

      // In the console: from the click on "Fleet" in the navigation (the app already loaded).
      const inApp = await browser.newContext();
      const appPage = await inApp.newPage();
      await appPage.addInitScript(() => {
        document.addEventListener(
          'click',
          () => {
            (window as unknown as { __clickedAt: number }).__clickedAt = performance.now();
          },
          true,
        );
      });
      await appPage.goto(`${base}/`);
      await appPage.getByRole('link', { name: 'Fleet', exact: true }).waitFor();
      await appPage.getByRole('link', { name: 'Fleet', exact: true }).click();
      await appPage.waitForFunction(FULLY_SHOWN, PARTICIPANTS, { polling: 'raf', timeout: 10_000 });
      clicked.push(
        await appPage.evaluate(
          () => performance.now() - (window as unknown as { __clickedAt: number }).__clickedAt,
        ),
      );
      await inApp.close();
    }
  } finally {
    await browser.close();
    await closeServer(server);
    await fleet.close();
  }
  const shownMs = median(shown);
  const bareMs = median(bare);
  const clickedMs = median(clicked);
  console.log(`machine: ${machineLabel()}`);
  console.log(
    `Fleet overview, ${String(PARTICIPANTS)} participants (${String(PARTIES)} parties each), median of ${String(RUNS)} cold runs:`,
  );
  console.log(
    `  click on "Fleet" → all participants fully shown   ${fmt(clickedMs)} ms   (limit ${String(BUDGET_MS)} ms) ${mark(clickedMs <= BUDGET_MS)}`,
  );
  console.log(
    `  cold page load of /fleet → all fully shown        ${fmt(shownMs)} ms   (limit ${String(BUDGET_MS)} ms) ${mark(shownMs <= BUDGET_MS)}`,
  );
  console.log(
    `  reference: the same ${String(PARTICIPANTS * ENDPOINTS.length)} reads as bare fetch   ${fmt(bareMs)} ms (click ÷ bare ${fmt(clickedMs / bareMs, 2)}×, cold ÷ bare ${fmt(shownMs / bareMs, 2)}×)`,
  );
  console.log(
    `  runs: click ${clicked.map((value) => fmt(value)).join(', ')} ms; cold ${shown.map((value) => fmt(value)).join(', ')} ms`,
  );
  writeResults('fleet', {
    participants: PARTICIPANTS,
    partiesEach: PARTIES,
    runs: RUNS,
    clickToShownMs: clickedMs,
    coldLoadToShownMs: shownMs,
    bareFetchMs: bareMs,
    budgetMs: BUDGET_MS,
    ok: clickedMs <= BUDGET_MS && shownMs <= BUDGET_MS,
  });
  if (clickedMs > BUDGET_MS || shownMs > BUDGET_MS) process.exitCode = 1;
}

await main();

/**
 * Browser benchmark of the console's production build (issue 4), in Debian's headless Chromium:
 *
 * - JS and CSS the first route loads (gzip), for `/users` and `/` — target ≤ 250 KB gzip JS;
 * - a 1000-user page: navigation → rows shown, and the users response → rows shown — target
 *   ≤ 150 ms after the response;
 * - a page flip (Next page) at 1000 and at 50 users per page: click → next rows shown, and
 *   response (or click, when the page was prefetched) → rows shown — target ≤ 100 ms;
 *
 * It builds the SPA if stale, serves it with the real server in front of an in-process sandbox
 * seeded with 2,500 users, all on 127.0.0.1, and prints medians of RUNS runs. Never part of `npm test`.
 *
 *   npm run bench:web
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import {
  DIST,
  fmt,
  ledgerStepsAt,
  mark,
  median,
  seenAt,
  WATCH_SCRIPT,
  withBenchStack,
  writeResults,
} from './bench-support';

const USERS = 2500;
const RUNS = 5;
const BUDGET_JS_KB = 250;

type Timing = { total: number; afterResponse: number };

const kb = (bytes: number) => bytes / 1024;

/** The gzip size of each JS/CSS file the page fetched from /assets, read from dist/. */
function assetSizes(urls: Iterable<string>) {
  let js = 0;
  let css = 0;
  const files: string[] = [];
  for (const url of urls) {
    const { pathname } = new URL(url);
    if (!pathname.startsWith('/assets/')) continue;
    const gz = gzipSync(readFileSync(path.join(DIST, pathname))).length;
    files.push(`${path.basename(pathname)} ${fmt(kb(gz), 1)} KB`);
    if (pathname.endsWith('.js')) js += gz;
    else if (pathname.endsWith('.css')) css += gz;
  }
  return { js, css, files };
}

/** The medians of a step's runs: from the action, and from the API's response. */
function medianTimes(runs: readonly { total: number; afterResponse: number }[]) {
  return {
    totalMs: median(runs.map((t) => t.total)),
    afterResponseMs: median(runs.map((t) => t.afterResponse)),
  };
}

/** responseEnd of the first GET /v2/users for exactly this page, in the page's clock. */
async function usersResponseEnd(page: Page, pageSize: number, pageToken: string): Promise<number> {
  return page.evaluate(
    ([size, token]) => {
      const entry = performance.getEntriesByType('resource').find((candidate) => {
        const url = new URL(candidate.name);
        return (
          url.pathname === '/v2/users' &&
          url.searchParams.get('pageSize') === size &&
          (url.searchParams.get('pageToken') ?? '') === token
        );
      }) as PerformanceResourceTiming | undefined;
      return entry ? entry.responseEnd : Number.NaN;
    },
    [String(pageSize), pageToken] as const,
  );
}

async function firstRoute(browser: Browser, base: string, route: string, readyText: string) {
  const page = await browser.newPage();
  const urls = new Set<string>();
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') urls.add(response.url());
  });
  await page.goto(`${base}${route}`);
  await page.getByText(readyText).first().waitFor({ timeout: 30_000 });
  await page.close();
  return assetSizes(urls);
}

async function thousandRows(browser: Browser, base: string): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(`${WATCH_SCRIPT}; window.__watch('Showing users 1–1000');`);
  await page.goto(`${base}/users?size=1000`);
  const shown = await seenAt(page, 'Showing users 1–1000');
  await page.getByRole('row').nth(5).waitFor();
  const responseEnd = await usersResponseEnd(page, 1000, '');
  await page.close();
  return { total: shown, afterResponse: shown - responseEnd };
}

/** In the running app: the page size changes from 50 to 1000 (a new request, then 1000 rows). */
async function thousandRowsInApp(browser: Browser, base: string): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(WATCH_SCRIPT);
  await page.goto(`${base}/users?size=50`);
  await page.getByText('Showing users 1–50').waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    (window as unknown as { __watch: (text: string) => void }).__watch('Showing users 1–1000');
  });
  const changedAt = await page.evaluate(() => performance.now());
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('1000');
  const shown = await seenAt(page, 'Showing users 1–1000');
  const responseEnd = await usersResponseEnd(page, 1000, '');
  await page.close();
  return { total: shown - changedAt, afterResponse: shown - responseEnd };
}

async function pageFlip(browser: Browser, base: string, size: number): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(WATCH_SCRIPT);
  await page.goto(`${base}/users?size=${String(size)}`);
  await page.getByText(`Showing users 1–${String(size)}`).waitFor({ timeout: 30_000 });
  const next = `Showing users ${String(size + 1)}–${String(2 * size)}`;
  await page.evaluate((t) => {
    (window as unknown as { __watch: (text: string) => void }).__watch(t);
  }, next);
  await page.getByRole('button', { name: 'Next page' }).click();
  const shown = await seenAt(page, next);
  const clickedAt = await page.evaluate(
    () => (window as unknown as { __clickedAt: number }).__clickedAt,
  );
  const token = new URL(page.url()).searchParams.getAll('token').at(-1) ?? '';
  // The list prefetches the next page, so its response may come before the click.
  const responseEnd = Math.max(clickedAt, await usersResponseEnd(page, size, token));
  await page.close();
  return { total: shown - clickedAt, afterResponse: shown - responseEnd };
}

/** The users to page through, through the participant's own endpoints. */
async function seed(base: string) {
  const ledger = ledgerStepsAt(base);
  const ids = Array.from({ length: USERS }, (_, i) => `bench-user-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(ids.slice(i, i + 16).map((id) => ledger.createUser(id)));
  }
}

async function main() {
  await withBenchStack(async ({ base, browser }) => {
    await seed(base);
    const usersRoute = await firstRoute(browser, base, '/users', 'Showing users 1–');
    const overviewRoute = await firstRoute(browser, base, '/', 'Participant overview');

    // One warm-up of each, then RUNS measured runs.
    const rows: Timing[] = [];
    const rowsInApp: Timing[] = [];
    const flips1000: Timing[] = [];
    const flips50: Timing[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const r = await thousandRows(browser, base);
      const a = await thousandRowsInApp(browser, base);
      const f = await pageFlip(browser, base, 1000);
      const s = await pageFlip(browser, base, 50);
      if (run === 0) continue;
      rows.push(r);
      rowsInApp.push(a);
      flips1000.push(f);
      flips50.push(s);
    }
    const summary = {
      firstRouteUsers: {
        jsKb: kb(usersRoute.js),
        cssKb: kb(usersRoute.css),
        files: usersRoute.files,
      },
      firstRouteOverview: { jsKb: kb(overviewRoute.js), cssKb: kb(overviewRoute.css) },
      rows1000: medianTimes(rows),
      rows1000InApp: medianTimes(rowsInApp),
      flip1000: medianTimes(flips1000),
      flip50: medianTimes(flips50),
    };
    console.log(
      `\nLedger Console web benchmark (${String(USERS)} users, median of ${String(RUNS)} runs)`,
    );
    console.log(
      `first route /users: ${fmt(summary.firstRouteUsers.jsKb, 1)} KB JS gzip ${mark(summary.firstRouteUsers.jsKb <= BUDGET_JS_KB)} (≤ ${String(BUDGET_JS_KB)}), ${fmt(summary.firstRouteUsers.cssKb, 1)} KB CSS gzip`,
    );
    console.log(
      `first route /:      ${fmt(summary.firstRouteOverview.jsKb, 1)} KB JS gzip, ${fmt(summary.firstRouteOverview.cssKb, 1)} KB CSS gzip`,
    );
    console.log(
      `1000 rows, cold page load: navigation → shown ${fmt(summary.rows1000.totalMs)} ms; response → shown ${fmt(summary.rows1000.afterResponseMs)} ms ${mark(summary.rows1000.afterResponseMs <= 150)} (≤ 150; includes mounting the whole app)`,
    );
    console.log(
      `1000 rows in the running app (page size 50 → 1000): change → shown ${fmt(summary.rows1000InApp.totalMs)} ms; response → shown ${fmt(summary.rows1000InApp.afterResponseMs)} ms ${mark(summary.rows1000InApp.afterResponseMs <= 150)} (≤ 150)`,
    );
    console.log(
      `page flip, 1000/page: click → shown ${fmt(summary.flip1000.totalMs)} ms ${mark(summary.flip1000.totalMs <= 100)} (≤ 100); response → shown ${fmt(summary.flip1000.afterResponseMs)} ms`,
    );
    console.log(
      `page flip, 50/page:   click → shown ${fmt(summary.flip50.totalMs)} ms ${mark(summary.flip50.totalMs <= 100)} (≤ 100); response → shown ${fmt(summary.flip50.afterResponseMs)} ms`,
    );
    writeResults('web-bench', summary);
  });
}

await main();

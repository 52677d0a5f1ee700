/**
 * Browser benchmark of the console's production build (issues 4 and 29), in Debian's headless
 * Chromium, each figure beside its limit measured in the same run (bench/ratio-report.ts):
 *
 * - first route: the JS (gzip) `/users` and `/` load ÷ the bare Vite + React + Mantine app with
 *   the same router and query client (bench/bare/index.html) — target ≤ 1.4×;
 * - 1000 users cold (the users response → rows shown) and in the running app (page size 50 →
 *   1000: response → shown) ÷ the bare React table of the same rows (bench/bare/users-table.html)
 *   — target ≤ 2×;
 * - a page flip (Next page) at 1000 and at 50 users per page, click → next rows shown — target:
 *   at most one frame (16.7 ms) more than the bare table's flip. Both prefetch the next page.
 *
 * It builds the SPA if stale and the bare pages always, serves both with the real server in front
 * of an in-process sandbox seeded with 2,500 users, all on 127.0.0.1, runs ours and the bare page
 * in turn (after a warm-up) and prints medians of RUNS runs. Never part of `npm test`.
 *
 *   npm run bench:web          (WEB_BENCH_RUNS=2 for a quick look)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import {
  BARE_DIST,
  DIST,
  FRAME_MS,
  fmt,
  ledgerStepsAt,
  median,
  seenAt,
  WATCH_SCRIPT,
  withBenchStack,
  writeResults,
} from './bench-support';
import { figure, printFigures } from './ratio-report';

const USERS = 2500;
const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 5);

type Timing = { total: number; afterResponse: number };
/** One of the two sides of each figure: the console, or the bare page standing for the limit. */
type Side = { base: string; dist: string; users: string };

const kb = (bytes: number) => bytes / 1024;

/** The gzip size of each JS/CSS file the page fetched from /assets, read from the build `dist`. */
function assetSizes(dist: string, urls: Iterable<string>) {
  let js = 0;
  let css = 0;
  const files: string[] = [];
  for (const url of urls) {
    const { pathname } = new URL(url);
    if (!pathname.startsWith('/assets/')) continue;
    const gz = gzipSync(readFileSync(path.join(dist, pathname))).length;
    files.push(`${path.basename(pathname)} ${fmt(kb(gz), 1)} KB`);
    if (pathname.endsWith('.js')) js += gz;
    else if (pathname.endsWith('.css')) css += gz;
  }
  return { js, css, files };
}

/** The medians of a step's runs: from the action, and from the API's response. */
function medianTimes(runs: readonly Timing[]) {
  return {
    totalMs: median(runs.map((t) => t.total)),
    afterResponseMs: median(runs.map((t) => t.afterResponse)),
  };
}

/**
 * responseEnd of the first GET /v2/users of this page size with this page token (in the page's
 * clock); with `token` undefined, of the first one with any page token (the second page).
 */
async function usersResponseEnd(page: Page, pageSize: number, token?: string): Promise<number> {
  return page.evaluate(
    ([size, wanted]) => {
      const entry = performance.getEntriesByType('resource').find((candidate) => {
        const url = new URL(candidate.name);
        const pageToken = url.searchParams.get('pageToken') ?? '';
        return (
          url.pathname === '/v2/users' &&
          url.searchParams.get('pageSize') === size &&
          (wanted === null ? pageToken !== '' : pageToken === wanted)
        );
      }) as PerformanceResourceTiming | undefined;
      return entry ? entry.responseEnd : Number.NaN;
    },
    [String(pageSize), token ?? null] as const,
  );
}

async function firstRoute(browser: Browser, url: string, dist: string, readyText: string) {
  const page = await browser.newPage();
  const urls = new Set<string>();
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') urls.add(response.url());
  });
  await page.goto(url);
  await page.getByText(readyText).first().waitFor({ timeout: 30_000 });
  await page.close();
  return assetSizes(dist, urls);
}

async function thousandRows(browser: Browser, side: Side): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(`${WATCH_SCRIPT}; window.__watch('Showing users 1–1000');`);
  await page.goto(`${side.base}${side.users}?size=1000`);
  const shown = await seenAt(page, 'Showing users 1–1000');
  await page.getByRole('row').nth(5).waitFor();
  const responseEnd = await usersResponseEnd(page, 1000, '');
  await page.close();
  return { total: shown, afterResponse: shown - responseEnd };
}

/** In the running page: the page size changes from 50 to 1000 (a new request, then 1000 rows). */
async function thousandRowsInApp(browser: Browser, side: Side): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(WATCH_SCRIPT);
  await page.goto(`${side.base}${side.users}?size=50`);
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

async function pageFlip(browser: Browser, side: Side, size: number): Promise<Timing> {
  const page = await browser.newPage();
  await page.addInitScript(WATCH_SCRIPT);
  await page.goto(`${side.base}${side.users}?size=${String(size)}`);
  await page.getByText(`Showing users 1–${String(size)}`).waitFor({ timeout: 30_000 });
  // Both prefetch the next page once a page is shown: flip once it is in.
  await page.waitForFunction(
    (wanted) =>
      performance
        .getEntriesByType('resource')
        .some((entry) => entry.name.includes('pageToken=') && entry.name.includes(wanted)),
    `pageSize=${String(size)}`,
  );
  const next = `Showing users ${String(size + 1)}–${String(2 * size)}`;
  await page.evaluate((t) => {
    (window as unknown as { __watch: (text: string) => void }).__watch(t);
  }, next);
  await page.getByRole('button', { name: 'Next page' }).click();
  const shown = await seenAt(page, next);
  const clickedAt = await page.evaluate(
    () => (window as unknown as { __clickedAt: number }).__clickedAt,
  );
  // The next page was prefetched, so its response came before the click.
  const responseEnd = Math.max(clickedAt, await usersResponseEnd(page, size));
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

type Step = (browser: Browser, side: Side) => Promise<Timing>;
type StepName = 'rows1000' | 'rows1000InApp' | 'flip1000' | 'flip50';
type SideTimes = { ours: ReturnType<typeof medianTimes>; bare: ReturnType<typeof medianTimes> };

async function main() {
  await withBenchStack(async ({ base, bareBase, browser }) => {
    await seed(base);
    const usersRoute = await firstRoute(browser, `${base}/users`, DIST, 'Showing users 1–');
    const overviewRoute = await firstRoute(browser, `${base}/`, DIST, 'Participant overview');
    const bareRoute = await firstRoute(browser, `${bareBase}/`, BARE_DIST, 'Bare app ready');

    const ours: Side = { base, dist: DIST, users: '/users' };
    const bare: Side = { base: bareBase, dist: BARE_DIST, users: '/users-table.html' };
    const steps: Record<StepName, Step> = {
      rows1000: thousandRows,
      rows1000InApp: thousandRowsInApp,
      flip1000: (b, side) => pageFlip(b, side, 1000),
      flip50: (b, side) => pageFlip(b, side, 50),
    };
    // One warm-up of each, then RUNS measured runs, ours and the bare page in turn.
    const runs: Record<string, { ours: Timing[]; bare: Timing[] }> = {};
    for (let run = 0; run <= RUNS; run++) {
      for (const [name, step] of Object.entries(steps)) {
        const o = await step(browser, ours);
        const b = await step(browser, bare);
        if (run === 0) continue;
        runs[name] ??= { ours: [], bare: [] };
        runs[name].ours.push(o);
        runs[name].bare.push(b);
      }
    }
    const times = Object.fromEntries(
      Object.entries(runs).map(([name, { ours: o, bare: b }]) => [
        name,
        { ours: medianTimes(o), bare: medianTimes(b) },
      ]),
    ) as Record<StepName, SideTimes>;
    const { rows1000, rows1000InApp, flip1000, flip50 } = times;

    const routeFigure = (route: string, oursJs: number) =>
      figure({
        name: `first route ${route}, JS gzip`,
        ours: kb(oursJs),
        limit: kb(bareRoute.js),
        unit: 'KB',
        digits: 1,
        limitIs: 'bare Vite + React + Mantine app, same router and query client',
        target: { ratioAtMost: 1.4 },
      });
    const bareTable = 'bare React <table>, same rows';
    const oneFrame = { overLimitAtMost: FRAME_MS, what: 'one frame (16.7 ms)' };
    const figures = [
      routeFigure('/users', usersRoute.js),
      routeFigure('/', overviewRoute.js),
      figure({
        name: '1000 rows, cold page load: response → shown',
        ours: rows1000.ours.afterResponseMs,
        limit: rows1000.bare.afterResponseMs,
        unit: 'ms',
        limitIs: bareTable,
        target: { ratioAtMost: 2 },
      }),
      figure({
        name: '1000 rows in the running page (page size 50 → 1000): response → shown',
        ours: rows1000InApp.ours.afterResponseMs,
        limit: rows1000InApp.bare.afterResponseMs,
        unit: 'ms',
        limitIs: bareTable,
        target: { ratioAtMost: 2 },
      }),
      figure({
        name: 'page flip, 1000/page (prefetched): click → shown',
        ours: flip1000.ours.totalMs,
        limit: flip1000.bare.totalMs,
        unit: 'ms',
        limitIs: `${bareTable}, also prefetching`,
        target: oneFrame,
      }),
      figure({
        name: 'page flip, 50/page (prefetched): click → shown',
        ours: flip50.ours.totalMs,
        limit: flip50.bare.totalMs,
        unit: 'ms',
        limitIs: `${bareTable}, also prefetching`,
        target: oneFrame,
      }),
    ];
    const report = printFigures(
      `Ledger Console web benchmark (${String(USERS)} users, median of ${String(RUNS)} runs)`,
      figures,
    );
    const absolute = {
      firstRouteUsers: {
        jsKb: kb(usersRoute.js),
        cssKb: kb(usersRoute.css),
        files: usersRoute.files,
      },
      firstRouteOverview: {
        jsKb: kb(overviewRoute.js),
        cssKb: kb(overviewRoute.css),
        files: overviewRoute.files,
      },
      firstRouteBare: { jsKb: kb(bareRoute.js), cssKb: kb(bareRoute.css), files: bareRoute.files },
      ...times,
    };
    console.log('absolute:');
    for (const [name, route] of [
      ['/users', absolute.firstRouteUsers],
      ['/', absolute.firstRouteOverview],
      ['bare app', absolute.firstRouteBare],
    ] as const) {
      console.log(
        `  first route ${name}: ${fmt(route.jsKb, 1)} KB JS gzip, ${fmt(route.cssKb, 1)} KB CSS gzip`,
      );
    }
    for (const [name, label] of [
      ['rows1000', '1000 rows, cold page load: navigation → shown'],
      ['rows1000InApp', '1000 rows in the running page: change → shown'],
      ['flip1000', 'page flip, 1000/page: click → shown'],
      ['flip50', 'page flip, 50/page: click → shown'],
    ] as const) {
      const { ours: o, bare: b } = times[name];
      console.log(
        `  ${label}: ours ${fmt(o.totalMs)} ms (response → shown ${fmt(o.afterResponseMs)} ms), bare ${fmt(b.totalMs)} ms (response → shown ${fmt(b.afterResponseMs)} ms)`,
      );
    }
    writeResults('web-bench', { ...report, absolute });
  });
}

await main();

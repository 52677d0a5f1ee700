/**
 * Browser benchmark of bulk import (issue 15): 1,000 people imported through `/users/import` of
 * the production build, in Debian's headless Chromium, against an in-process sandbox without auth
 * (every request is a participant admin, so the rows go into the default identity provider), or
 * with `--auth jwt` as the demo's IdP admin `acme-admin`, signed in through the console's sandbox
 * sign-in (the rows go into `acme-idp`).
 *
 * Each run, on a fresh sandbox: a 1,000-row CSV made in memory (fresh user ids, a new party hint
 * each, the `acts-as-own` preset) is chosen with the page's real file input, then
 *
 * - check: file chosen → the plan's summary says all 1,000 rows are to be created;
 * - run: "Run import" clicked → the results say 1,000 created (rows/s is from this phase);
 * - the participant is then asked, through its own API, how many of those users exist, so the
 *   figure counts only what was really created;
 * - the longest main-thread task and the number of long tasks (over 50 ms) during both phases —
 *   target: none.
 *
 * The SPA is built into a private directory (not `dist/`, which others may be serving), and
 * served by the real console server; everything listens on port 0 of 127.0.0.1. Never part of
 * `npm test`.
 *
 *   npm run bench:import            # RUNS runs
 *   npm run bench:import -- --runs 1
 *   npm run bench:import -- --auth jwt
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startSandbox } from '../sandbox/src/index';
import { closeServer, createServer } from '../server/src/create-server';
import { isBuildStale } from '../server/src/ensure-build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config';
import { TEXT_SEEN_SCRIPT } from './bench-support';
import { machineLabel } from './ratio-report';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A build of its own: rebuilding `dist/` under a running console would break it. */
const DIST = path.join(os.tmpdir(), 'ledger-console-bulk-import-bench-dist');
const ROWS = 1000;
const DEFAULT_RUNS = 3;
/** The browser reports main-thread tasks over 50 ms as long tasks; the target is that none are. */
const LONG_TASK_MS = 50;
const PHASE_TIMEOUT_MS = 300_000;
const HEADER = 'userId,displayName,partyHint,party,rights,isDeactivated';

const fmt = (value: number, digits = 0) => value.toFixed(digits);

type Mode = { auth: 'none' } | { auth: 'jwt'; admin: string; identityProviderId: string };

function modeFromArgs(): Mode {
  const index = process.argv.indexOf('--auth');
  if (index === -1) return { auth: 'none' };
  const auth = process.argv[index + 1];
  if (auth === 'none') return { auth: 'none' };
  // The demo seed's IdP admin of acme-idp.
  if (auth === 'jwt') return { auth: 'jwt', admin: 'acme-admin', identityProviderId: 'acme-idp' };
  throw new Error('--auth takes none or jwt');
}

function runsFromArgs(): number {
  const index = process.argv.indexOf('--runs');
  if (index === -1) return DEFAULT_RUNS;
  const runs = Number(process.argv[index + 1]);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--runs takes 1 to 20');
  return runs;
}

async function ensureBenchBuild(): Promise<void> {
  if (!(await isBuildStale(ROOT, DIST))) return;
  console.log(`Building the console into ${DIST}…`);
  const { build } = await import('vite');
  await build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: DIST, emptyOutDir: true },
  });
}

function peopleCsv(batch: string): string {
  const lines = [HEADER];
  for (let index = 1; index <= ROWS; index += 1) {
    const id = `${batch}-${String(index).padStart(4, '0')}`;
    lines.push(`${id},Person ${String(index)},${id}-party,,acts-as-own,false`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * `__watch(text)` (bench-support), when the page last saw a click or a change, and the long tasks
 * from `__observeLongTasks()` on, with their start times so each is put in its phase.
 */
const PAGE_SCRIPT = `${TEXT_SEEN_SCRIPT}
  document.addEventListener('click', () => { window.__clickedAt = performance.now(); }, true);
  document.addEventListener('change', () => { window.__changedAt = performance.now(); }, true);
  window.__observeLongTasks = () => {
    const since = performance.now();
    const tasks = [];
    const keep = (entry) => {
      if (entry.startTime >= since) tasks.push({ start: entry.startTime, duration: entry.duration });
    };
    const observer = new PerformanceObserver((list) => { list.getEntries().forEach(keep); });
    observer.observe({ type: 'longtask', buffered: true });
    window.__longTasks = () => {
      observer.takeRecords().forEach(keep);
      observer.disconnect();
      return tasks;
    };
  };
`;

type PageWindow = {
  __seen: Record<string, number>;
  __watch: (text: string) => void;
  __observeLongTasks: () => void;
  __longTasks: () => { start: number; duration: number }[];
  __clickedAt: number;
  __changedAt: number;
};

async function seenAt(page: Page, text: string): Promise<number> {
  await page.waitForFunction(
    (t) => (window as unknown as PageWindow).__seen[t] !== undefined,
    text,
    // Not every animation frame: the polling itself would compete with the page being measured.
    { timeout: PHASE_TIMEOUT_MS, polling: 250 },
  );
  return page.evaluate((t) => (window as unknown as PageWindow).__seen[t] ?? Number.NaN, text);
}

type LongTasks = { longest: number; count: number; over: number[] };

function longTasksIn(tasks: { start: number; duration: number }[], from: number, to: number) {
  const inPhase = tasks.filter((task) => task.start >= from && task.start < to);
  return {
    longest: inPhase.reduce((max, task) => Math.max(max, task.duration), 0),
    count: inPhase.length,
    over: inPhase.map((task) => Math.round(task.duration)),
  } satisfies LongTasks;
}

/**
 * How many users whose id starts with `prefix` the participant lists to the importing admin (with
 * a token in `jwt` mode, so an IdP admin's own IdP), each with its own new party as primary party.
 */
async function countUsers(
  ledgerUrl: string,
  prefix: string,
  caller: { token: string; identityProviderId: string } | undefined,
): Promise<number> {
  let count = 0;
  let pageToken = '';
  for (let pages = 0; pages < 100; pages += 1) {
    const url = new URL('/v2/users', ledgerUrl);
    url.searchParams.set('pageSize', '1000');
    if (pageToken !== '') url.searchParams.set('pageToken', pageToken);
    // An IdP admin may list only its own IdP's users, and must name it.
    if (caller) url.searchParams.set('identityProviderId', caller.identityProviderId);
    const answer = await fetch(url, {
      headers: caller ? { Authorization: `Bearer ${caller.token}` } : {},
    });
    if (!answer.ok) throw new Error(`GET /v2/users: ${String(answer.status)}`);
    const body = (await answer.json()) as {
      users?: { id: string; primaryParty?: string }[];
      nextPageToken?: string;
    };
    for (const user of body.users ?? []) {
      // A created person has its own new party as primary party, not just a user record.
      if (user.id.startsWith(prefix) && user.primaryParty?.startsWith(`${user.id}-party::`)) {
        count += 1;
      }
    }
    pageToken = body.nextPageToken ?? '';
    if (pageToken === '') return count;
  }
  throw new Error('GET /v2/users: too many pages');
}

type RunResult = {
  checkMs: number;
  runMs: number;
  rowsPerSecond: number;
  usersFound: number;
  check: LongTasks;
  run: LongTasks;
};

/** A token for a sandbox user, as the sign-in screen gets it (issued for the user's own IdP). */
async function sandboxToken(ledgerUrl: string, userId: string): Promise<string> {
  const answer = await fetch(new URL('/__sandbox/tokens', ledgerUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  const body = (await answer.json()) as { token?: unknown };
  if (!answer.ok || typeof body.token !== 'string') {
    throw new Error(`POST /__sandbox/tokens: ${String(answer.status)}`);
  }
  return body.token;
}

/** The sandbox sign-in screen (jwt mode): it mints a token for the chosen sandbox user. */
async function signInAsSandboxUser(page: Page, base: string, userId: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  const section = page.getByRole('region', { name: 'Sign in as a sandbox user' });
  await section.getByRole('combobox', { name: 'Sandbox user' }).fill(userId);
  await page.getByRole('option', { name: new RegExp(`^${userId}( \\(|$)`) }).click();
  await section.getByRole('button', { name: 'Sign in as this user' }).click();
  await page.getByRole('button', { name: `Signed in: ${userId}` }).waitFor({ timeout: 30_000 });
}

async function oneRun(browser: Browser, runIndex: number, mode: Mode): Promise<RunResult> {
  // A fresh participant each run: every row is new, and nothing of a previous run is in the way.
  const sandbox =
    mode.auth === 'jwt'
      ? await startSandbox({ port: 0, quiet: true, auth: 'jwt', seed: 'demo' })
      : await startSandbox({ port: 0, quiet: true, seed: 'none' });
  // As `npm start` does with its embedded sandbox: its controls (the sign-in's token minting).
  const server = createServer({
    distDir: DIST,
    ledgerUrl: sandbox.url,
    extraProxyPrefixes: ['/__sandbox'],
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const page = await browser.newPage();
  try {
    const batch = `bench-${String(runIndex)}-${Date.now().toString(36)}`;
    const csv = peopleCsv(batch);
    await page.addInitScript(PAGE_SCRIPT);
    if (mode.auth === 'jwt') await signInAsSandboxUser(page, base, mode.admin);
    await page.goto(`${base}/users/import`);
    const input = page.getByLabel('Choose an import file');
    await input.waitFor({ state: 'attached', timeout: 30_000 });

    const planned = `${String(ROWS)} rows: ${String(ROWS)} to create, 0 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.`;
    const results = `Results: ${String(ROWS)} created, 0 updated, 0 skipped, 0 failed.`;
    await page.evaluate(
      ([p, r]) => {
        const w = window as unknown as PageWindow;
        w.__watch(p);
        w.__watch(r);
        w.__observeLongTasks();
      },
      [planned, results] as const,
    );
    await input.setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    const plannedAt = await seenAt(page, planned);
    const changedAt = await page.evaluate(() => (window as unknown as PageWindow).__changedAt);

    await page.getByRole('button', { name: 'Run import' }).click({ timeout: PHASE_TIMEOUT_MS });
    const doneAt = await seenAt(page, results);
    const clickedAt = await page.evaluate(() => (window as unknown as PageWindow).__clickedAt);
    // Two frames and a moment, so a long task that ends the run is reported too.
    const tasks = await page.evaluate(async () => {
      await new Promise<void>((resolve) => {
        requestAnimationFrame(() => {
          requestAnimationFrame(() => {
            setTimeout(resolve, 100);
          });
        });
      });
      return (window as unknown as PageWindow).__longTasks();
    });
    const caller =
      mode.auth === 'jwt'
        ? {
            token: await sandboxToken(sandbox.url, mode.admin),
            identityProviderId: mode.identityProviderId,
          }
        : undefined;
    const usersFound = await countUsers(sandbox.url, `${batch}-`, caller);
    const runMs = doneAt - clickedAt;
    return {
      checkMs: plannedAt - changedAt,
      runMs,
      rowsPerSecond: usersFound / (runMs / 1000),
      usersFound,
      check: longTasksIn(tasks, changedAt, clickedAt),
      run: longTasksIn(tasks, clickedAt, Number.POSITIVE_INFINITY),
    };
  } finally {
    await page.close();
    await closeServer(server);
    await sandbox.close();
  }
}

async function main() {
  const runs = runsFromArgs();
  const mode = modeFromArgs();
  await ensureBenchBuild();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: RunResult[] = [];
  try {
    console.log(
      `\nLedger Console bulk import benchmark (${String(ROWS)} rows, ${mode.auth === 'jwt' ? `auth jwt as ${mode.admin}, into ${mode.identityProviderId}` : 'no auth, into the default IdP'})`,
    );
    // Long tasks are wall-clock: on a busy machine the page's thread is preempted mid-task and
    // tasks look longer than their work, so the load is part of the figure.
    const [load] = os.loadavg();
    console.log(
      `machine: ${machineLabel()}${(load ?? 0) > os.cpus().length ? ' (busy: long tasks overstated)' : ''}`,
    );
    for (let run = 1; run <= runs; run += 1) {
      const result = await oneRun(browser, run, mode);
      results.push(result);
      const longest = Math.max(result.check.longest, result.run.longest);
      const over = result.check.count + result.run.count;
      const honest = result.usersFound === ROWS;
      const shortfall = honest ? '' : ` — ✗ only ${String(result.usersFound)} users found`;
      console.log(
        `bulk import ${String(ROWS)} rows: check ${fmt(result.checkMs / 1000, 1)} s, run ${fmt(result.runMs / 1000, 1)} s = ${fmt(result.rowsPerSecond)} rows/s; longest main-thread task ${fmt(longest)} ms (${String(over)} over ${String(LONG_TASK_MS)} ms) ${over === 0 ? '✓' : '✗'}${shortfall}`,
      );
      if (over > 0) {
        console.log(
          `  long tasks: check [${result.check.over.join(', ')}] ms, run [${result.run.over.join(', ')}] ms`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(ROOT, 'bench/results/bulk-import-bench.json'),
    JSON.stringify({ rows: ROWS, auth: mode.auth, runs: results }, null, 2),
  );
  if (results.some((result) => result.usersFound !== ROWS)) process.exitCode = 1;
}

await main();

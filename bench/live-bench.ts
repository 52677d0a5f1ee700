/**
 * Browser benchmark of /live (issues 17, 29) in Debian's headless Chromium: the sandbox commits
 * as fast as it goes (Iou creates over HTTP on loopback, MAX_IN_FLIGHT clients each submitting
 * the next as soon as the last is committed, for LOAD_MS; an open-loop schedule asked for more
 * than the sandbox reaches spins on timers in this process, which hosts the sandbox) while the live
 * view streams them from the ledger end through the console server's websocket proxy. The limit is
 * the same page, idle (no load), sampled for the same window in the same run, interleaved (idle,
 * loaded, idle, loaded …, after a warm-up; medians of RUNS). Measured in the page:
 *
 * - dropped frames, by requestAnimationFrame sampling: each gap between frames beyond one 60 Hz
 *   frame counts the frames it skipped, in % of the frames the display would have drawn;
 * - the longest main-thread task (PerformanceObserver `longtask`, tasks over 50 ms);
 * - whether the view kept up: the last offset it had seen when the load stopped against the
 *   ledger end then, and how long it took to show the ledger end after.
 *
 * Never part of `npm test`.
 *
 *   npx tsx bench/live-bench.ts   (LIVE_BENCH_SECONDS: the window, default 10; LIVE_BENCH_RUNS, default 3)
 */
import type { Browser, Page } from '@playwright/test';
import { createIou } from '../sandbox/src/scenarios/demo-commands';
import type { LedgerSteps } from '../sandbox/src/scenarios/ledger-steps';
import {
  FRAME_MS,
  LONG_TASKS_SCRIPT,
  fmt,
  ledgerStepsAt,
  mark,
  median,
  withBenchStack,
  writeResults,
} from './bench-support';
import { figure, printFigures } from './ratio-report';

/** Submissions in flight at once: the load is as fast as the sandbox answers them. */
const MAX_IN_FLIGHT = 32;
const LOAD_MS = Number(process.env.LIVE_BENCH_SECONDS ?? 10) * 1000;
const RUNS = Number(process.env.LIVE_BENCH_RUNS ?? 3);
/** How long the view may take to show the ledger end once the load stops. */
const CATCH_UP_LIMIT_MS = 15_000;
const TARGET_DROPPED_PERCENT = 2;
const TARGET_LONGEST_TASK_MS = 50;

/**
 * Long tasks and animation frames, with their page times, from the moment the page loads; the
 * node side takes the ones inside the measured window.
 */
const PAGE_SCRIPT = `
  ${LONG_TASKS_SCRIPT}
  window.__frames = [];
  const onFrame = (time) => { window.__frames.push(time); requestAnimationFrame(onFrame); };
  requestAnimationFrame(onFrame);
`;

type PageWindow = { __tasks: [number, number][]; __frames: number[] };

const pageNow = (page: Page) => page.evaluate(() => performance.now());

/** The last offset the live view has seen (checkpoints included), from its status line. */
async function lastOffsetSeen(page: Page): Promise<number> {
  const value = await page.locator('[data-last-offset]').getAttribute('data-last-offset');
  return value ? Number(value) : Number.NaN;
}

async function lastOffsetShown(page: Page): Promise<number> {
  const value = await page
    .locator('[data-last-shown-offset]')
    .getAttribute('data-last-shown-offset');
  return value ? Number(value) : Number.NaN;
}

async function framesAndTasks(page: Page, from: number, to: number) {
  return page.evaluate(
    ([start, end, frameMs]) => {
      const { __tasks: tasks, __frames: frames } = window as unknown as PageWindow;
      const inWindow = tasks.filter(([at, duration]) => at + duration >= start && at <= end);
      let dropped = 0;
      let longestGap = 0;
      let sampled = 0;
      for (let i = 1; i < frames.length; i++) {
        const previous = frames[i - 1] ?? 0;
        const current = frames[i] ?? 0;
        if (current < start || previous > end) continue;
        sampled += 1;
        const gap = current - previous;
        longestGap = Math.max(longestGap, gap);
        // A gap of n frames' time means n - 1 frames were never drawn.
        dropped += Math.max(0, Math.round(gap / frameMs) - 1);
      }
      return {
        longTasks: inWindow.length,
        longestTaskMs: Math.max(0, ...inWindow.map(([, duration]) => duration)),
        framesSampled: sampled,
        droppedFrames: dropped,
        longestFrameGapMs: longestGap,
      };
    },
    [from, to, FRAME_MS] as const,
  );
}

type Window = Awaited<ReturnType<typeof framesAndTasks>> & { droppedPercent: number };

const withPercent = (measured: Awaited<ReturnType<typeof framesAndTasks>>): Window => ({
  ...measured,
  droppedPercent:
    (100 * measured.droppedFrames) / Math.max(1, measured.framesSampled + measured.droppedFrames),
});

async function openLive(browser: Browser, base: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_SCRIPT);
  await page.goto(`${base}/live`);
  await page
    .getByRole('status')
    .filter({ hasText: /^Live$/ })
    .waitFor({ timeout: 60_000 });
  // The first render's work is not the window's.
  await page.waitForTimeout(500);
  return { context, page };
}

/** The same page with nothing committed, sampled for the same window. */
async function measureIdle(browser: Browser, base: string): Promise<Window> {
  const { context, page } = await openLive(browser, base);
  const startedAt = await pageNow(page);
  await page.waitForTimeout(LOAD_MS);
  const stoppedAt = await pageNow(page);
  const measured = withPercent(await framesAndTasks(page, startedAt, stoppedAt));
  await context.close();
  return measured;
}

type LoadReport = { committed: number; failed: number; achievedRate: number };

/** MAX_IN_FLIGHT closed-loop clients, each committing one Iou after another, for `durationMs`. */
async function loadAsFastAsItGoes(
  steps: LedgerSteps,
  party: string,
  durationMs: number,
): Promise<LoadReport> {
  const started = performance.now();
  let committed = 0;
  let failed = 0;
  const client = async () => {
    while (performance.now() - started < durationMs) {
      const amount = `${String(committed + failed + 1)}.0`;
      try {
        await steps.submitAndWait(
          [createIou({ issuer: party, owner: party, currency: 'USD', amount })],
          { actAs: [party] },
        );
        committed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: MAX_IN_FLIGHT }, client));
  const elapsedMs = performance.now() - started;
  return { committed, failed, achievedRate: (committed / elapsedMs) * 1000 };
}

type LoadedRun = Window & {
  load: LoadReport;
  ledgerEndAtStop: number;
  lastOffsetSeenAtStop: number;
  lastOffsetShownAtStop: number;
  caughtUpMs: number;
  rowsInList: number;
};

async function measureLoaded(
  browser: Browser,
  base: string,
  steps: LedgerSteps,
  party: string,
  durationMs = LOAD_MS,
): Promise<LoadedRun> {
  const { context, page } = await openLive(browser, base);
  const startedAt = await pageNow(page);
  const load = await loadAsFastAsItGoes(steps, party, durationMs);
  const stoppedAt = await pageNow(page);
  const ledgerEndAtStop = await steps.ledgerEnd();
  const lastOffsetSeenAtStop = await lastOffsetSeen(page);
  const lastOffsetShownAtStop = await lastOffsetShown(page);
  // How long until the view shows the ledger end as it was when the load stopped.
  let caughtUpMs = Number.NaN;
  for (;;) {
    const now = await pageNow(page);
    if ((await lastOffsetSeen(page)) >= ledgerEndAtStop) {
      caughtUpMs = now - stoppedAt;
      break;
    }
    if (now - stoppedAt > CATCH_UP_LIMIT_MS) break;
    await page.waitForTimeout(20);
  }
  const measured = withPercent(await framesAndTasks(page, startedAt, stoppedAt));
  const rows = await page
    .getByRole('table', { name: 'Live updates' })
    .getAttribute('aria-rowcount');
  await context.close();
  return {
    ...measured,
    load,
    ledgerEndAtStop,
    lastOffsetSeenAtStop,
    lastOffsetShownAtStop,
    caughtUpMs,
    rowsInList: Number(rows ?? 0) - 1,
  };
}

async function main() {
  await withBenchStack(async ({ sandbox, base, browser }) => {
    // The load goes straight to the sandbox: the console server carries only the view's stream.
    const steps = ledgerStepsAt(sandbox.url);
    const party = await steps.allocateParty('live-bench');
    // Warm-up, unreported: the sandbox's and the page's first seconds are slower.
    await measureLoaded(browser, base, steps, party, Math.min(LOAD_MS, 3000));
    const idle: Window[] = [];
    const loaded: LoadedRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      idle.push(await measureIdle(browser, base));
      loaded.push(await measureLoaded(browser, base, steps, party));
    }
    const med = <T>(runs: T[], pick: (run: T) => number) => median(runs.map(pick));
    const summary = {
      maxInFlight: MAX_IN_FLIGHT,
      loadSeconds: LOAD_MS / 1000,
      runs: RUNS,
      achievedRate: med(loaded, (run) => run.load.achievedRate),
      committed: med(loaded, (run) => run.load.committed),
      failed: med(loaded, (run) => run.load.failed),
      loaded: {
        droppedPercent: med(loaded, (run) => run.droppedPercent),
        droppedFrames: med(loaded, (run) => run.droppedFrames),
        framesSampled: med(loaded, (run) => run.framesSampled),
        longestTaskMs: med(loaded, (run) => run.longestTaskMs),
        longTasks: med(loaded, (run) => run.longTasks),
        longestFrameGapMs: med(loaded, (run) => run.longestFrameGapMs),
        behindAtStop: med(loaded, (run) => run.ledgerEndAtStop - run.lastOffsetSeenAtStop),
        caughtUpMs: med(loaded, (run) => run.caughtUpMs),
        rowsInList: med(loaded, (run) => run.rowsInList),
      },
      idle: {
        droppedPercent: med(idle, (run) => run.droppedPercent),
        droppedFrames: med(idle, (run) => run.droppedFrames),
        framesSampled: med(idle, (run) => run.framesSampled),
        longestTaskMs: med(idle, (run) => run.longestTaskMs),
      },
      runsRaw: { idle, loaded },
    };
    const rate = `${fmt(summary.achievedRate)} updates/s`;
    const figures = [
      figure({
        name: `frames dropped while /live streams ${rate}`,
        ours: summary.loaded.droppedPercent,
        limit: summary.idle.droppedPercent,
        unit: '%',
        digits: 1,
        limitIs: 'the same page idle, same window',
        target: { oursAtMost: TARGET_DROPPED_PERCENT },
      }),
      figure({
        name: `longest main-thread task while /live streams ${rate}`,
        ours: summary.loaded.longestTaskMs,
        limit: summary.idle.longestTaskMs,
        unit: 'ms',
        limitIs: 'the same page idle, same window',
        target: { oursAtMost: TARGET_LONGEST_TASK_MS },
      }),
    ];
    const report = printFigures(
      `Live updates benchmark (${String(LOAD_MS / 1000)} s windows, median of ${String(RUNS)} runs)`,
      figures,
    );
    console.log(
      `absolute: load ${fmt(summary.committed)} updates committed in ${String(summary.loadSeconds)} s, ${rate} reached (${String(MAX_IN_FLIGHT)} closed-loop clients, ${fmt(summary.failed)} failed)`,
    );
    console.log(
      `absolute: loaded ${fmt(summary.loaded.droppedFrames)} frames dropped of ${fmt(summary.loaded.framesSampled + summary.loaded.droppedFrames)}, longest gap ${fmt(summary.loaded.longestFrameGapMs)} ms, ${fmt(summary.loaded.longTasks)} tasks over 50 ms, the longest ${fmt(summary.loaded.longestTaskMs)} ms; idle ${fmt(summary.idle.droppedFrames)} of ${fmt(summary.idle.framesSampled + summary.idle.droppedFrames)} dropped, longest task ${fmt(summary.idle.longestTaskMs)} ms`,
    );
    const keptUp = Number.isFinite(summary.loaded.caughtUpMs) && summary.loaded.caughtUpMs <= 1000;
    console.log(
      `absolute: kept up ${mark(keptUp)}: at the load's end the view was ${fmt(summary.loaded.behindAtStop)} offsets behind the ledger end and showed it ${Number.isFinite(summary.loaded.caughtUpMs) ? `${fmt(summary.loaded.caughtUpMs)} ms later` : `not within ${String(CATCH_UP_LIMIT_MS)} ms`}; ${fmt(summary.loaded.rowsInList)} rows kept`,
    );
    writeResults('live-bench', { ...summary, report });
  });
}

await main();

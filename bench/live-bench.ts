/**
 * Browser benchmark of /live (issue 17) in Debian's headless Chromium: the sandbox commits about
 * 1,000 updates a second for LOAD_MS (sandbox/src/scenarios/load-generator.ts, Iou creates over
 * HTTP) while the live view streams them from the ledger end through the console server's
 * websocket proxy. Measured in the page, over the load window:
 *
 * - the longest main-thread task (PerformanceObserver `longtask`, tasks over 50 ms) and how many;
 * - dropped frames, by requestAnimationFrame sampling: each gap between frames beyond one 60 Hz
 *   frame counts the frames it skipped; and the longest gap;
 * - whether the view kept up: the last offset it had seen when the load stopped against the
 *   ledger end then, and how long it took to show the ledger end after.
 *
 * Never part of `npm test`.
 *
 *   npx tsx bench/live-bench.ts   (LIVE_BENCH_RATE and LIVE_BENCH_SECONDS to change the load)
 */
import type { Page } from '@playwright/test';
import { generateLoad } from '../sandbox/src/scenarios/load-generator';
import {
  FRAME_MS,
  LONG_TASKS_SCRIPT,
  ledgerStepsAt,
  mark,
  withBenchStack,
  writeResults,
} from './bench-support';

const RATE = Number(process.env.LIVE_BENCH_RATE ?? 1000);
const LOAD_MS = Number(process.env.LIVE_BENCH_SECONDS ?? 10) * 1000;
/** How long the view may take to show the ledger end once the load stops. */
const CATCH_UP_LIMIT_MS = 15_000;
const TARGET_LONGEST_TASK_MS = 100;

/**
 * Long tasks and animation frames, with their page times, from the moment the page loads; the
 * node side takes the ones inside the load window.
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

async function main() {
  await withBenchStack(async ({ sandbox, base, browser }) => {
    // The load goes straight to the sandbox: the console server carries only the view's stream.
    const steps = ledgerStepsAt(sandbox.url);
    const party = await steps.allocateParty('live-bench');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(PAGE_SCRIPT);
    await page.goto(`${base}/live`);
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 60_000 });

    const startedAt = await pageNow(page);
    const load = await generateLoad(steps, {
      party,
      ratePerSecond: RATE,
      durationMs: LOAD_MS,
      maxInFlight: 128,
    });
    const stoppedAt = await pageNow(page);
    const endAtStop = await steps.ledgerEnd();
    const seenAtStop = await lastOffsetSeen(page);
    const shownAtStop = await lastOffsetShown(page);

    // How long until the view shows the ledger end as it was when the load stopped.
    let caughtUpMs = Number.NaN;
    for (;;) {
      const now = await pageNow(page);
      if ((await lastOffsetSeen(page)) >= endAtStop) {
        caughtUpMs = now - stoppedAt;
        break;
      }
      if (now - stoppedAt > CATCH_UP_LIMIT_MS) break;
      await page.waitForTimeout(20);
    }
    const measured = await framesAndTasks(page, startedAt, stoppedAt);
    const rows = await page
      .getByRole('table', { name: 'Live updates' })
      .getAttribute('aria-rowcount');
    await context.close();

    const summary = {
      targetRate: RATE,
      loadSeconds: LOAD_MS / 1000,
      committed: load.committed,
      failed: load.failed,
      achievedRate: Math.round(load.achievedRate),
      ...measured,
      ledgerEndAtStop: endAtStop,
      lastOffsetSeenAtStop: seenAtStop,
      lastOffsetShownAtStop: shownAtStop,
      behindAtStop: endAtStop - seenAtStop,
      caughtUpMs: Math.round(caughtUpMs),
      rowsInList: Number(rows ?? 0) - 1,
    };
    const keptUp = Number.isFinite(caughtUpMs) && caughtUpMs <= 1000;
    console.log(
      `\nLive updates benchmark: ${String(summary.committed)} updates committed in ${String(summary.loadSeconds)} s (${String(summary.achievedRate)}/s of ${String(RATE)}/s asked, ${String(summary.failed)} failed)`,
    );
    console.log(
      `longest main-thread task ${summary.longestTaskMs.toFixed(0)} ms ${mark(summary.longestTaskMs <= TARGET_LONGEST_TASK_MS)} (≤ ${String(TARGET_LONGEST_TASK_MS)}; ${String(summary.longTasks)} tasks over 50 ms)`,
    );
    console.log(
      `frames: ${String(summary.droppedFrames)} dropped of ${String(summary.framesSampled + summary.droppedFrames)} at 60 Hz; longest gap ${summary.longestFrameGapMs.toFixed(0)} ms`,
    );
    console.log(
      `kept up: ${mark(keptUp)} at the load's end the view had seen offset ${String(seenAtStop)} (shown ${String(shownAtStop)}) of ledger end ${String(endAtStop)}; it showed the end ${Number.isFinite(caughtUpMs) ? `${summary.caughtUpMs.toFixed(0)} ms later` : `not within ${String(CATCH_UP_LIMIT_MS)} ms`}; ${String(summary.rowsInList)} rows kept`,
    );
    writeResults('live-bench', summary);
  });
}

await main();

/**
 * Browser benchmark of /contracts (issues 17, 29) in Debian's headless Chromium: N active Ious
 * (sandbox/src/scenarios/seed-ious.ts, a few large transactions) listed for their owner through the
 * console server's websocket proxy, against limits measured in the same run, interleaved (ours,
 * bare pages, bare Node client; after a warm-up; medians of RUNS):
 *
 * - a bare page in the same Chromium (bench/bare/acs-stream.html): the same websocket (path,
 *   protocols and request message captured from the console's page, so the same batched frames,
 *   ADR 034), JSON.parse per message, contracts counted and shown in a plain-DOM virtualized table;
 * - the same bare page offered only the participant's protocols: one message a frame, the stream
 *   as any client of the participant gets it (the limit of the rounds before batching);
 * - a bare Node client in this process (`ws`), the same request through the same proxy (batches
 *   split as the pages do), counting contracts until the stream ends: what the wire and the
 *   server give.
 *
 * Measured in each page by the same probes (PAGE_SCRIPT), in the page's clock: the first stream
 * message → the first table row painted, and → the status line reading all N as active; then
 * scrolling the table from top to bottom at a steady speed with requestAnimationFrame sampling
 * (dropped frames: each gap beyond one 60 Hz frame counts the frames it skipped). Ours also
 * reports the longest main-thread task while streaming and the JS heap once all are listed.
 *
 * Never part of `npm test`.
 *
 *   npx tsx bench/contracts-bench.ts
 *   (CONTRACTS_BENCH_COUNT: the set's size, default 100,000; CONTRACTS_BENCH_RUNS, default 3)
 */
import type { Browser, Page } from '@playwright/test';
import WebSocket from 'ws';
import { STREAM_BATCH_PROTOCOL, splitStreamBatch } from '@ledger-console/edge/console-api';
import { seedActiveIous } from '../sandbox/src/scenarios/seed-ious';
import {
  FRAME_MS,
  LONG_TASKS_SCRIPT,
  fmt,
  ledgerStepsAt,
  longTasksWithin,
  median,
  pageTime,
  quantile,
  withBenchStack,
  writeResults,
} from './bench-support';
import { figure, printFigures } from './ratio-report';

const COUNT = Number(process.env.CONTRACTS_BENCH_COUNT ?? 100_000);
const RUNS = Number(process.env.CONTRACTS_BENCH_RUNS ?? 3);
/** Scrolling speed: about a screenful of rows every few frames, as a fast fling. */
const SCROLL_PX_PER_S = 6000;
const SCROLL_MS = 6000;
const TARGET_RATIO = 1.5;
/** Dropped frames while scrolling, in % of the frames the 60 Hz display would have drawn. */
const TARGET_DROPPED_PERCENT = 1;

/**
 * The first websocket message (a wrapped WebSocket notes it before the page's handler runs), the
 * first table row painted, the status line at `__expect` contracts, and long tasks, in the page's
 * clock; and, for the limits, what the page's first websocket asked for (`__ws`).
 */
const PAGE_SCRIPT = `
  window.__at = {};
  ${LONG_TASKS_SCRIPT}
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      // What the page asked for, so that the limits open the very same stream.
      if (window.__ws === undefined) {
        const url = new URL(String(args[0]));
        window.__ws = { path: url.pathname, protocols: args[1] === undefined ? [] : [].concat(args[1]) };
        const send = this.send.bind(this);
        this.send = (data) => { if (window.__ws.body === undefined) window.__ws.body = String(data); send(data); };
      }
      this.addEventListener('message', () => {
        if (window.__at.firstMessage === undefined) window.__at.firstMessage = performance.now();
      });
    }
  };
  const check = () => {
    if (window.__at.firstRowInDom === undefined &&
        document.querySelector('table[aria-label="Active contracts"] tbody tr[aria-rowindex]')) {
      window.__at.firstRowInDom = performance.now();
      requestAnimationFrame(() => { window.__at.firstRowShown = performance.now(); });
    }
    if (window.__at.all === undefined && window.__expect) {
      for (const line of document.querySelectorAll('[role="status"]')) {
        if (line.textContent.startsWith(window.__expect + ' contracts active')) {
          window.__at.all = performance.now();
        }
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
`;

/**
 * Scrolls the table's box from top to bottom at a steady speed; resolves to the frame times seen
 * meanwhile. A string, not a function: tsx's name helper does not exist in the page.
 */
const SCROLL_SCRIPT = `(speed, duration) => new Promise((resolve) => {
  const table = document.querySelector('table[aria-label="Active contracts"]');
  const box = table && table.parentElement;
  if (!box) { resolve([]); return; }
  const frames = [];
  let start;
  const onFrame = (time) => {
    if (start === undefined) start = time;
    frames.push(time);
    const elapsed = time - start;
    box.scrollTop = (elapsed / 1000) * speed;
    if (elapsed < duration && box.scrollTop + box.clientHeight < box.scrollHeight) {
      requestAnimationFrame(onFrame);
    } else {
      resolve(frames);
    }
  };
  requestAnimationFrame(onFrame);
})`;

type PageWindow = { __expect: string; __acsRequest: StreamRequest };
type StreamRequest = { path: string; protocols: string[]; body: string };

const waitAt = (page: Page, name: string) =>
  pageTime(page, '__at', name, { timeout: 600_000, polling: 50 });

async function scrollFrames(page: Page): Promise<number[]> {
  return page.evaluate(`(${SCROLL_SCRIPT})(${String(SCROLL_PX_PER_S)}, ${String(SCROLL_MS)})`);
}

type PageRun = {
  firstRowsMs: number;
  allListedMs: number;
  longestTaskMs: number;
  longTasks: number;
  heapMiB: number;
  scroll: {
    frames: number;
    dropped: number;
    droppedPercent: number;
    medianFrameMs: number;
    p95FrameMs: number;
    longestFrameMs: number;
    rowsInDom: number;
  };
  request?: StreamRequest;
};

/** Opens `url` in a fresh context, waits for all N listed, measures, scrolls. */
async function measurePage(
  browser: Browser,
  url: string,
  request: StreamRequest | undefined,
): Promise<PageRun> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_SCRIPT);
  await page.addInitScript(
    ([expected, given]) => {
      const target = window as unknown as PageWindow;
      target.__expect = expected;
      if (given) target.__acsRequest = given;
    },
    [COUNT.toLocaleString('en'), request] as const,
  );
  await page.goto(url);
  const firstMessage = await waitAt(page, 'firstMessage');
  const firstRowShown = await waitAt(page, 'firstRowShown');
  const all = await waitAt(page, 'all');
  const tasks = await longTasksWithin(page, firstMessage, all);
  const captured = await page.evaluate(() => (window as unknown as { __ws?: StreamRequest }).__ws);
  // Let the last batch's render settle before scrolling.
  await page.waitForTimeout(500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const frames = await scrollFrames(page);
  const gaps = frames.slice(1).map((time, index) => time - (frames[index] ?? time));
  const dropped = gaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / FRAME_MS) - 1), 0);
  const rowsInDom = await page
    .locator('table[aria-label="Active contracts"] tbody tr[aria-rowindex]')
    .count();
  await context.close();
  return {
    firstRowsMs: firstRowShown - firstMessage,
    allListedMs: all - firstMessage,
    longestTaskMs: Math.max(0, ...tasks.map(([, duration]) => duration)),
    longTasks: tasks.length,
    heapMiB: usedSize / 2 ** 20,
    scroll: {
      frames: frames.length,
      dropped,
      // Of the frames a 60 Hz display would have drawn over the same time.
      droppedPercent: (100 * dropped) / Math.max(1, frames.length + dropped),
      medianFrameMs: quantile(gaps, 0.5),
      p95FrameMs: quantile(gaps, 0.95),
      longestFrameMs: Math.max(0, ...gaps),
      rowsInDom,
    },
    ...(captured ? { request: captured } : {}),
  };
}

/**
 * The bare Node client: the same request on the same websocket through the same proxy; the first
 * message → the stream's end, counting the contracts (JSON.parse per message, as the pages do).
 */
async function measureNode(
  base: string,
  request: StreamRequest,
): Promise<{ ms: number; contracts: number }> {
  const url = new URL(request.path, base);
  url.protocol = 'ws:';
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, request.protocols);
    let first: number | undefined;
    let contracts = 0;
    socket.on('open', () => {
      socket.send(request.body);
    });
    socket.on('message', (data: Buffer) => {
      first ??= performance.now();
      const text = data.toString();
      const texts =
        socket.protocol === STREAM_BATCH_PROTOCOL ? (splitStreamBatch(text) ?? []) : [text];
      for (const one of texts) {
        const element = JSON.parse(one) as { contractEntry?: { JsActiveContract?: unknown } };
        if (element.contractEntry?.JsActiveContract) contracts += 1;
      }
    });
    socket.on('close', () => {
      resolve({ ms: performance.now() - (first ?? performance.now()), contracts });
    });
    socket.on('error', reject);
  });
}

async function main() {
  await withBenchStack(async ({ sandbox, base, bareBase, browser }) => {
    const ledger = ledgerStepsAt(sandbox.url);
    const owner = await ledger.allocateParty('contracts-bench');
    const seeded = await seedActiveIous(ledger, { owner, count: COUNT, batchSize: 50_000 });
    console.log(
      `Seeded ${COUNT.toLocaleString('en')} active Ious in ${fmt(seeded.elapsedMs)} ms (ledger end ${String(seeded.ledgerEnd)})`,
    );
    const params = new URLSearchParams({ party: owner, template: '#sandbox-demo:Demo.Iou:Iou' });
    // The ledger end stays put, so every run lists the same set at the same offset.
    const oursUrl = `${base}/contracts?${params.toString()}&offset=${String(seeded.ledgerEnd)}`;
    const bareUrl = `${bareBase}/acs-stream.html`;

    // Warm-up: one of each, unreported; the console's run also shows what its page asks for.
    const warm = await measurePage(browser, oursUrl, undefined);
    const request = warm.request;
    if (!request?.body) throw new Error('The console page opened no active-contracts stream');
    if (!request.protocols.includes(STREAM_BATCH_PROTOCOL)) {
      throw new Error('The console page did not offer the console server’s batches');
    }
    const plainRequest = {
      ...request,
      protocols: request.protocols.filter((protocol) => protocol !== STREAM_BATCH_PROTOCOL),
    };
    await measurePage(browser, bareUrl, request);
    await measurePage(browser, bareUrl, plainRequest);
    await measureNode(base, request);

    const ours: PageRun[] = [];
    const bare: PageRun[] = [];
    const barePlain: PageRun[] = [];
    const node: { ms: number; contracts: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      ours.push(await measurePage(browser, oursUrl, undefined));
      bare.push(await measurePage(browser, bareUrl, request));
      barePlain.push(await measurePage(browser, bareUrl, plainRequest));
      node.push(await measureNode(base, request));
    }
    const miss = node.find((one) => one.contracts !== COUNT);
    if (miss) throw new Error(`The Node client counted ${String(miss.contracts)} contracts`);
    const med = (runs: PageRun[], pick: (run: PageRun) => number) => median(runs.map(pick));
    const summary = {
      count: COUNT,
      runs: RUNS,
      request: { path: request.path, protocols: request.protocols },
      ours: {
        firstRowsMs: med(ours, (run) => run.firstRowsMs),
        allListedMs: med(ours, (run) => run.allListedMs),
        longestTaskMs: med(ours, (run) => run.longestTaskMs),
        longTasks: med(ours, (run) => run.longTasks),
        heapMiB: med(ours, (run) => run.heapMiB),
        scrollDroppedPercent: med(ours, (run) => run.scroll.droppedPercent),
        scrollDropped: med(ours, (run) => run.scroll.dropped),
        scrollFrames: med(ours, (run) => run.scroll.frames),
        scrollMedianFrameMs: med(ours, (run) => run.scroll.medianFrameMs),
        scrollP95FrameMs: med(ours, (run) => run.scroll.p95FrameMs),
        scrollLongestFrameMs: med(ours, (run) => run.scroll.longestFrameMs),
        rowsInDom: med(ours, (run) => run.scroll.rowsInDom),
      },
      barePage: {
        firstRowsMs: med(bare, (run) => run.firstRowsMs),
        allListedMs: med(bare, (run) => run.allListedMs),
        longestTaskMs: med(bare, (run) => run.longestTaskMs),
        scrollDroppedPercent: med(bare, (run) => run.scroll.droppedPercent),
        scrollDropped: med(bare, (run) => run.scroll.dropped),
        scrollFrames: med(bare, (run) => run.scroll.frames),
      },
      barePagePlainFrames: { allListedMs: med(barePlain, (run) => run.allListedMs) },
      bareNode: { allReceivedMs: median(node.map((one) => one.ms)) },
      runsRaw: { ours, bare, barePlain, node },
    };
    const n = COUNT.toLocaleString('en');
    const figures = [
      figure({
        name: `${n} contracts all listed after the first message`,
        ours: summary.ours.allListedMs,
        limit: summary.barePage.allListedMs,
        unit: 'ms',
        limitIs: 'bare page, same stream (batched), same Chromium',
        target: { ratioAtMost: TARGET_RATIO },
      }),
      figure({
        name: `${n} contracts all listed, against the participant's own frames`,
        ours: summary.ours.allListedMs,
        limit: summary.barePagePlainFrames.allListedMs,
        unit: 'ms',
        limitIs: 'bare page, one message a frame (no batch offer), same Chromium',
        target: { ratioAtMost: TARGET_RATIO },
      }),
      figure({
        name: `${n} contracts all listed after the first message, against Node`,
        ours: summary.ours.allListedMs,
        limit: summary.bareNode.allReceivedMs,
        unit: 'ms',
        limitIs: 'bare Node ws client, same stream (batched)',
        target: { ratioAtMost: TARGET_RATIO },
      }),
      figure({
        name: 'first rows shown after the first message',
        ours: summary.ours.firstRowsMs,
        limit: summary.barePage.firstRowsMs,
        unit: 'ms',
        limitIs: 'bare page',
        target: { ratioAtMost: TARGET_RATIO },
      }),
      figure({
        name: 'frames dropped scrolling top to bottom at 60 Hz',
        ours: summary.ours.scrollDroppedPercent,
        limit: summary.barePage.scrollDroppedPercent,
        unit: '%',
        digits: 1,
        limitIs: 'the same scroll on the bare page',
        target: { oursAtMost: TARGET_DROPPED_PERCENT },
      }),
    ];
    const report = printFigures(
      `Active contracts benchmark (${n} contracts, median of ${String(RUNS)} runs)`,
      figures,
    );
    console.log(
      `absolute: all listed ${fmt(summary.ours.allListedMs)} ms (bare page ${fmt(summary.barePage.allListedMs)} ms, on one message a frame ${fmt(summary.barePagePlainFrames.allListedMs)} ms, bare Node ${fmt(summary.bareNode.allReceivedMs)} ms); first rows ${fmt(summary.ours.firstRowsMs)} ms (bare page ${fmt(summary.barePage.firstRowsMs)} ms)`,
    );
    console.log(
      `absolute: while streaming ${String(summary.ours.longTasks)} long tasks, the longest ${fmt(summary.ours.longestTaskMs)} ms (bare page ${fmt(summary.barePage.longestTaskMs)} ms); JS heap with every contract listed ${fmt(summary.ours.heapMiB)} MiB`,
    );
    console.log(
      `absolute: scrolling ${fmt(summary.ours.scrollFrames)} frames, ${fmt(summary.ours.scrollDropped)} dropped (bare page ${fmt(summary.barePage.scrollFrames)} frames, ${fmt(summary.barePage.scrollDropped)} dropped); median ${summary.ours.scrollMedianFrameMs.toFixed(1)} ms, p95 ${summary.ours.scrollP95FrameMs.toFixed(1)} ms, longest ${fmt(summary.ours.scrollLongestFrameMs)} ms; ${fmt(summary.ours.rowsInDom)} rows in the DOM`,
    );
    writeResults('contracts-bench', { ...summary, report });
  });
}

await main();

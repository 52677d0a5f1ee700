/**
 * What the browser benchmarks (web, graph, contracts, live) share: the stack they run on (the
 * production build served by the real server in front of an in-process sandbox, all on
 * 127.0.0.1, and Debian's headless Chromium), the scenario steps, the page-side probes they read
 * back, and the figures' formatting and results file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startSandbox, type RunningSandbox } from '../sandbox/src/index';
import { createLedgerClient } from '../sandbox/src/scenarios/ledger-client';
import { ledgerSteps } from '../sandbox/src/scenarios/ledger-steps';
import { closeServer, createServer } from '../server/src/create-server';
import { ensureBuilt } from '../server/src/ensure-build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config';
import { reactRouterProductionBuild } from '../vite.config';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
/** One frame at 60 Hz. */
export const FRAME_MS = 1000 / 60;

export type BenchStack = {
  sandbox: RunningSandbox;
  /** The console server's origin (it proxies the Ledger API to the sandbox). */
  base: string;
  /**
   * The same server code serving the bare pages (bench/bare, built in this run) in front of the
   * same sandbox: `${bareBase}/NAME.html` is bench/bare/NAME.html.
   */
  bareBase: string;
  browser: Browser;
};

/** Where the bare pages are built; under bench/results, which git ignores. */
export const BARE_DIST = path.join(ROOT, 'bench/results/bare-dist');

/**
 * Builds the bare pages (bench/bare) now, so that the limit and the console are built by the same
 * tools in the same run. Returns the output directory.
 */
export async function buildBarePages(): Promise<string> {
  const { build } = await import('vite');
  await build({
    configFile: path.join(ROOT, 'bench/bare/vite.config.ts'),
    // React Router's production build, as the console's build takes it.
    plugins: [reactRouterProductionBuild()],
    build: { outDir: BARE_DIST },
  });
  return BARE_DIST;
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/**
 * Builds the SPA if stale and the bare pages always, starts an empty sandbox, the console server
 * in front of it (and a second one serving the bare pages) and Chromium, runs `bench` on them and closes all three, whether it succeeded or not.
 */
export async function withBenchStack(bench: (stack: BenchStack) => Promise<void>): Promise<void> {
  await ensureBuilt(ROOT, (line) => {
    console.log(line);
  });
  const bareDist = await buildBarePages();
  const sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
  const server = createServer({ distDir: DIST, ledgerUrl: sandbox.url });
  const bareServer = createServer({ distDir: bareDist, ledgerUrl: sandbox.url });
  const base = await listen(server);
  const bareBase = await listen(bareServer);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await bench({ sandbox, base, bareBase, browser });
  } finally {
    await browser.close();
    await closeServer(bareServer);
    await closeServer(server);
    await sandbox.close();
  }
}

/** The scenario steps over HTTP to `baseUrl`: the sandbox itself, or the console server. */
export function ledgerStepsAt(baseUrl: string) {
  return ledgerSteps(createLedgerClient({ transport: (request) => fetch(request), baseUrl }));
}

/** Writes the summary to bench/results/<name>.json. */
export function writeResults(name: string, summary: unknown): void {
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, `bench/results/${name}.json`), JSON.stringify(summary, null, 2));
}

/**
 * Page script: long main-thread tasks (over 50 ms) as `[startTime, duration]` in `__tasks`, from
 * the page's start (`buffered`).
 */
export const LONG_TASKS_SCRIPT = `
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

/** The long tasks LONG_TASKS_SCRIPT saw that overlap [from, to] (page clock). */
export async function longTasksWithin(
  page: Page,
  from: number,
  to: number,
): Promise<[number, number][]> {
  return page.evaluate(
    ([start, end]) =>
      (window as unknown as { __tasks: [number, number][] }).__tasks.filter(
        ([at, duration]) => at + duration >= start && at <= end,
      ),
    [from, to] as const,
  );
}

/**
 * Waits until the page script has noted `name` in `window[store]` (a record of page times) and
 * returns that time.
 */
export async function pageTime(
  page: Page,
  store: string,
  name: string,
  { timeout, polling }: { timeout: number; polling: number },
): Promise<number> {
  await page.waitForFunction(
    ([s, n]) =>
      (window as unknown as Record<string, Record<string, number | undefined>>)[s]?.[n] !==
      undefined,
    [store, name] as const,
    { timeout, polling },
  );
  const time = await page.evaluate(
    ([s, n]) => (window as unknown as Record<string, Record<string, number | undefined>>)[s]?.[n],
    [store, name] as const,
  );
  return time ?? Number.NaN;
}

/** `responseEnd` of the first request the page made for `pathname`, in the page's clock. */
export async function responseEndOf(page: Page, pathname: string): Promise<number> {
  return page.evaluate((wanted) => {
    const entry = performance
      .getEntriesByType('resource')
      .find((candidate) => new URL(candidate.name).pathname === wanted) as
      PerformanceResourceTiming | undefined;
    return entry ? entry.responseEnd : Number.NaN;
  }, pathname);
}

export const median = (values: number[]) => quantile(values, 0.5);
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
};
export const fmt = (value: number, digits = 0) => value.toFixed(digits);
export const mark = (ok: boolean) => (ok ? '✓' : '✗');

/**
 * Page script: `__watch(text)` records in `__seen[text]` when a text first appears in the page
 * (performance.now() of the page), via a MutationObserver over textContent: innerText would force
 * a layout on every mutation and slow down what is being measured.
 */
export const TEXT_SEEN_SCRIPT = `
  window.__seen = {};
  window.__watch = (text) => {
    if (window.__seen[text] !== undefined) return;
    const check = () => {
      if (window.__seen[text] === undefined && document.body && document.body.textContent.includes(text)) {
        window.__seen[text] = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
    check();
  };
`;

/**
 * `__when(name, minNodes, maxNodes)` records when the graph is shown in the expected state: it
 * holds between min and max drawn nodes, the root (`data-id="0"`) among them and not hidden, and a
 * whole animation frame has then passed without the page's DOM changing (so a commit that draws
 * in steps does not stop the clock early). The time is that of the frame that first showed the
 * final state, taken once the next frame has confirmed it. Long tasks are kept with their start
 * times, to take the longest one within a span.
 */
export const GRAPH_SHOWN_SCRIPT = `
  window.__at = {};
  window.__clickedAt = 0;
  document.addEventListener('click', () => { window.__clickedAt = performance.now(); }, true);
  window.__when = (name, min, max) => {
    delete window.__at[name];
    let done = false;
    let waiting = false;
    let changed = false;
    let quietFrames = 0;
    let shownAt = 0;
    const isShown = () => {
      const graph = document.querySelector('[aria-label="Transaction graph"]');
      // Still handing nodes to React Flow, a slice per task: not all laid out and mounted yet.
      if (!graph || graph.getAttribute('aria-busy') === 'true') return false;
      const count = graph.querySelectorAll('.react-flow__node').length;
      if (count < min || count > max) return false;
      const root = graph.querySelector('.react-flow__node[data-id="0"]');
      return root !== null && getComputedStyle(root).visibility !== 'hidden';
    };
    const onFrame = () => {
      if (done) return;
      if (!isShown()) { waiting = false; return; }
      // The first frame paints what is there; the second shows nothing changed in between.
      if (changed) { changed = false; quietFrames = 0; requestAnimationFrame(onFrame); return; }
      quietFrames += 1;
      if (quietFrames < 2) { shownAt = performance.now(); requestAnimationFrame(onFrame); return; }
      done = true;
      observer.disconnect();
      window.__at[name] = shownAt;
    };
    const start = () => {
      if (done || waiting || !isShown()) return;
      waiting = true;
      changed = false;
      quietFrames = 0;
      requestAnimationFrame(onFrame);
    };
    const observer = new MutationObserver(() => { changed = true; start(); });
    observer.observe(document, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-label', 'aria-busy', 'data-id', 'style'],
    });
    start();
  };
  ${LONG_TASKS_SCRIPT}
`;

/** `__watch(text)` (TEXT_SEEN_SCRIPT), and when the page last saw a click in `__clickedAt`. */
export const WATCH_SCRIPT = `${TEXT_SEEN_SCRIPT}
  // When the browser dispatched the click, not when Playwright started acting (which includes
  // its own actionability checks and round trips).
  document.addEventListener('click', () => { window.__clickedAt = performance.now(); }, true);
`;

/**
 * When `text` first appeared (WATCH_SCRIPT's `__watch`). Polled every 100 ms, not every animation
 * frame: the polling itself would compete with the page being measured.
 */
export const seenAt = (page: Page, text: string) =>
  pageTime(page, '__seen', text, { timeout: 30_000, polling: 100 });

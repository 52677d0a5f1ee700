/**
 * Browser benchmark of the composer's Preview (issue 23): the sandbox demo's
 * `CreateAndExercise Fanout … Fanout_Run { width, depth: 1 }` with width 98 and 998 prepared from
 * the composer, giving prepared transactions of 100 and 1,000 nodes. Measured: the prepare
 * response's end → the preview's graph shown with all its nodes (decoding the protobuf in the
 * browser, loading the decoder's chunk the first time, recomputing the V2 hash, building the tree,
 * laying it out and drawing it), and the longest main-thread task in that span. Each run is a
 * fresh page, so every run includes loading the decoder's chunk, as a first Preview does.
 *
 * The worker's two steps are also timed on their own (bench/bare/decode-worker.tsx): the decode
 * beside the bare protobuf decode of the same bytes, and the V2 hash beside the Canton team's
 * hasher on the same message. Until round thirteen they were one figure against the bare decode
 * alone, which holds no hashing (decode and hash: 2.5–3.8× it, printed below the figures).
 *
 * The composer opens with the batch restored from the tab's draft (sessionStorage, as after a
 * reload), so the form needs no typing. Medians of RUNS runs after one warm-up. Never part of
 * `npm test`.
 *
 *   npm run bench:web   (runs web-bench.ts, graph-bench.ts, …, then this)
 */
import type { Browser, Page } from '@playwright/test';
import { createAndRunFanout } from '../sandbox/src/scenarios/demo-commands';
import {
  GRAPH_SHOWN_SCRIPT,
  fmt,
  ledgerStepsAt,
  longTasksWithin,
  median,
  pageTime,
  responseEndOf,
  withBenchStack,
  writeResults,
} from './bench-support';
import { figure, printFigures, type FigureResult } from './ratio-report';

const RUNS = Number(process.env.PREVIEW_BENCH_RUNS ?? 3);
/** Samples per size in the bench worker, alternately ours and the limit. */
const DECODE_RUNS = Number(process.env.PREVIEW_BENCH_DECODE_RUNS ?? 15);
const SAMPLES_ARE = `median of ${String(DECODE_RUNS)} alternate samples, each the mean of the runs filling ≥ 20 ms after ≥ 200 ms of warm-up`;
/** The browser reports main-thread tasks over 50 ms as long tasks; the target is none. */
const LONG_TASK_MS = 50;
const SIZES = [100, 1000] as const;
const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';
const DRAFT_KEY = 'ledger-console.composer.draft:';

const PAGE_SCRIPT = GRAPH_SHOWN_SCRIPT;

type PageWindow = { __when: (name: string, min: number, max: number) => void };

async function longestTask(page: Page, from: number, to: number): Promise<number> {
  await page.waitForTimeout(100);
  const tasks = await longTasksWithin(page, from, to);
  return Math.max(0, ...tasks.map(([, duration]) => duration));
}

/** The composer's saved draft: one CreateAndExercise Fanout_Run of `width`, acting as `owner`. */
function draftFor(owner: string, width: number) {
  return {
    commands: [
      {
        kind: 'createAndExercise',
        templateId: FANOUT,
        contractId: '',
        contractKey: 'null',
        choice: 'Fanout_Run',
        createArguments: JSON.stringify({ owner, label: 'root' }),
        choiceArgument: JSON.stringify({ width: String(width), depth: '1' }),
      },
    ],
    actAs: [owner],
    readAs: [],
    userId: 'participant_admin',
    commandId: `preview-bench-${String(width)}-${String(Date.now())}`,
    workflowId: '',
    deduplication: { kind: 'none', seconds: '', offset: '' },
    minLedgerTime: { kind: 'none', absolute: '', relativeSeconds: '' },
    disclosedContracts: [],
  };
}

async function previewOnce(browser: Browser, base: string, owner: string, size: number) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_SCRIPT);
  await page.addInitScript(
    ([key, draft]) => {
      sessionStorage.setItem(key, draft);
    },
    [DRAFT_KEY, JSON.stringify(draftFor(owner, size - 2))] as const,
  );
  await page.goto(`${base}/composer`);
  await page.getByRole('button', { name: 'Preview', exact: true }).waitFor();
  await page.evaluate(() => {
    (window as unknown as PageWindow).__when('preview', 3, Infinity);
  });
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const shownAt = await pageTime(page, '__at', 'preview', { timeout: 60_000, polling: 100 });
  const responseEnd = await responseEndOf(page, '/v2/interactive-submission/prepare');
  const result = {
    ms: shownAt - responseEnd,
    longestTaskMs: await longestTask(page, responseEnd, shownAt),
    nodes: await page.locator('[aria-label="Transaction graph"] .react-flow__node').count(),
  };
  await context.close();
  return result;
}

type PrepareAnswer = {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
};

/** The same prepare the composer sends, made here through the console server. */
async function prepareAnswer(base: string, owner: string, size: number): Promise<PrepareAnswer> {
  const response = await fetch(`${base}/v2/interactive-submission/prepare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      commands: [createAndRunFanout(owner, 'root', { width: size - 2, depth: 1 })],
      commandId: `preview-bench-decode-${String(size)}-${String(Date.now())}`,
      actAs: [owner],
      userId: 'participant_admin',
      verboseHashing: false,
    }),
  });
  if (!response.ok)
    throw new Error(`prepare answered ${String(response.status)}: ${await response.text()}`);
  return (await response.json()) as PrepareAnswer;
}

type Series = { ours: number[]; limit: number[] };
type DecodeTimes = { decode: Series; hash: Series; nodes: number; bytes: number };

/** The decode and the hash of the same answer, each beside its limit, in one worker (bench/bare/decode.html). */
async function decodeTimes(browser: Browser, bareBase: string, answer: PrepareAnswer) {
  const page = await browser.newPage();
  await page.goto(`${bareBase}/decode.html`);
  await page.waitForFunction(() => '__decodeTimes' in window);
  const times = await page.evaluate(
    (request) =>
      (
        window as unknown as {
          __decodeTimes: (r: typeof request) => Promise<DecodeTimes>;
        }
      ).__decodeTimes(request),
    { answer, runs: DECODE_RUNS },
  );
  await page.close();
  return times;
}

/** The longest task of the same composer page left idle for as long as a preview took. */
async function idleLongestTask(browser: Browser, base: string, ms: number): Promise<number> {
  const page = await browser.newPage();
  await page.addInitScript(PAGE_SCRIPT);
  await page.goto(`${base}/composer`);
  await page.getByRole('button', { name: 'Preview', exact: true }).waitFor();
  await page.waitForTimeout(200);
  const from = await page.evaluate(() => performance.now());
  await page.waitForTimeout(ms);
  const longest = await longestTask(page, from, from + ms);
  await page.close();
  return longest;
}

async function main() {
  await withBenchStack(async ({ base, bareBase, browser }) => {
    const owner = await ledgerStepsAt(base).allocateParty('preview-bench');
    const summary: Record<
      string,
      {
        ms: number;
        longestTaskMs: number;
        nodesDrawn: number;
        idleLongestTaskMs: number;
        decode: { oursMs: number; bareMs: number; nodes: number; bytes: number };
        hash: { oursMs: number; cantonMs: number };
      }
    > = {};
    for (const size of SIZES) {
      const runs = [];
      for (let run = 0; run <= RUNS; run++) {
        const result = await previewOnce(browser, base, owner, size);
        if (run > 0) runs.push(result);
      }
      const ms = median(runs.map((r) => r.ms));
      const decode = await decodeTimes(browser, bareBase, await prepareAnswer(base, owner, size));
      summary[`preview${String(size)}`] = {
        ms,
        longestTaskMs: Math.max(...runs.map((r) => r.longestTaskMs)),
        nodesDrawn: Math.max(...runs.map((r) => r.nodes)),
        idleLongestTaskMs: await idleLongestTask(browser, base, Math.max(500, ms)),
        decode: {
          oursMs: median(decode.decode.ours),
          bareMs: median(decode.decode.limit),
          nodes: decode.nodes,
          bytes: decode.bytes,
        },
        hash: { oursMs: median(decode.hash.ours), cantonMs: median(decode.hash.limit) },
      };
    }
    const sizeText = (size: number) => (size === 1000 ? '1,000' : String(size));
    const figures: FigureResult[] = [];
    for (const size of SIZES) {
      const entry = summary[`preview${String(size)}`];
      if (!entry) continue;
      figures.push(
        figure({
          name: `decode, ${sizeText(size)} nodes (${String(entry.decode.bytes)} bytes): base64 → preview model`,
          ours: entry.decode.oursMs,
          limit: entry.decode.bareMs,
          unit: 'ms',
          digits: 2,
          limitIs: `base64 (the browser's fastest) → core-ledger-proto PreparedTransaction.fromBinary, same bytes, same worker; ${SAMPLES_ARE}`,
          target: { ratioAtMost: 1.5 },
        }),
        figure({
          name: `V2 hash recomputed and compared, ${sizeText(size)} nodes`,
          ours: entry.hash.oursMs,
          limit: entry.hash.cantonMs,
          unit: 'ms',
          digits: 2,
          limitIs: `the Canton team's hashPreparedTransaction (core-tx-visualizer) on the same decoded message, same worker; ${SAMPLES_ARE}`,
          target: { ratioAtMost: 1 },
        }),
        figure({
          name: `longest main-thread task, ${sizeText(size)} nodes: prepare response → graph shown`,
          ours: entry.longestTaskMs,
          limit: entry.idleLongestTaskMs,
          unit: 'ms',
          limitIs: 'the same composer page idle as long; 0 = none over 50 ms',
          target: { oursAtMost: LONG_TASK_MS },
        }),
      );
    }
    const report = printFigures(
      `Composer preview benchmark (Fanout, median of ${String(RUNS)} runs)`,
      figures,
    );
    const task = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${fmt(ms)} ms`);
    console.log('absolute:');
    for (const size of SIZES) {
      const entry = summary[`preview${String(size)}`];
      if (!entry) continue;
      console.log(
        `  preview (prepare response → graph shown), ${sizeText(size)} nodes: ${fmt(entry.ms)} ms; longest task ${task(entry.longestTaskMs)}; ${String(entry.nodesDrawn)} nodes drawn`,
      );
      // The worker does both before the preview shows: together, against the bare decode alone.
      const both = entry.decode.oursMs + entry.hash.oursMs;
      console.log(
        `  worker, ${sizeText(size)} nodes: decode ${fmt(entry.decode.oursMs, 2)} + hash ${fmt(entry.hash.oursMs, 2)} = ${fmt(both, 2)} ms, ${fmt(both / entry.decode.bareMs, 2)}× the bare decode`,
      );
    }
    writeResults('preview-bench', { ...summary, ratios: report });
  });
}

await main();

/**
 * Browser benchmark of the composer's Preview (issue 23): the sandbox demo's
 * `CreateAndExercise Fanout … Fanout_Run { width, depth: 1 }` with width 98 and 998 prepared from
 * the composer, giving prepared transactions of 100 and 1,000 nodes. Measured: the prepare
 * response's end → the preview's graph shown with all its nodes (decoding the protobuf in the
 * browser, loading the decoder's chunk the first time, recomputing the V2 hash, building the tree,
 * laying it out and drawing it), and the longest main-thread task in that span. Each run is a
 * fresh page, so every run includes loading the decoder's chunk, as a first Preview does.
 *
 * The composer opens with the batch restored from the tab's draft (sessionStorage, as after a
 * reload), so the form needs no typing. Medians of RUNS runs after one warm-up. Never part of
 * `npm test`.
 *
 *   npm run bench:web   (runs web-bench.ts, graph-bench.ts, …, then this)
 */
import type { Browser, Page } from '@playwright/test';
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

const RUNS = 3;
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

async function main() {
  await withBenchStack(async ({ base, browser }) => {
    const owner = await ledgerStepsAt(base).allocateParty('preview-bench');
    const summary: Record<string, { ms: number; longestTaskMs: number; nodesDrawn: number }> = {};
    for (const size of SIZES) {
      const runs = [];
      for (let run = 0; run <= RUNS; run++) {
        const result = await previewOnce(browser, base, owner, size);
        if (run > 0) runs.push(result);
      }
      summary[`preview${String(size)}`] = {
        ms: median(runs.map((r) => r.ms)),
        longestTaskMs: Math.max(...runs.map((r) => r.longestTaskMs)),
        nodesDrawn: Math.max(...runs.map((r) => r.nodes)),
      };
    }
    const task = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${fmt(ms)} ms`);
    console.log(`\nComposer preview benchmark (Fanout, median of ${String(RUNS)} runs)`);
    for (const size of SIZES) {
      const entry = summary[`preview${String(size)}`];
      if (!entry) continue;
      console.log(
        `preview (prepare response → graph shown), ${size === 1000 ? '1,000' : String(size)} nodes: ${fmt(entry.ms)} ms; longest task ${task(entry.longestTaskMs)}; ${String(entry.nodesDrawn)} nodes drawn`,
      );
    }
    writeResults('preview-bench', summary);
  });
}

await main();

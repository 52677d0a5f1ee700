/**
 * Browser benchmark of the vetting change planner (issue 27) in Debian's headless Chromium: the
 * dry-run verdict of unvetting the sandbox's demo package while 10,000 of its Ious are active
 * (sandbox/src/scenarios/seed-ious.ts), through the console server. Measured in the page, until
 * the verdict is shown: the dry run's acceptance and the package's active contracts counted
 * ("10,000 active"), whichever comes last.
 *
 * - from the planner: a click on the package page's "Plan a change…" link (the app loaded, the
 *   package's archive already read by its page) → the verdict; target ≤ 1 s;
 * - cold: opening the planner's URL in a new tab (the app's code, the archive decoded in the
 *   Web Worker, then the count) → the verdict, for reference;
 * - the longest main-thread task while counting;
 * - the transport's floor, for comparison: the same active contracts stream opened by a bare
 *   WebSocket in the same page (no app code, a JSON.parse per message). Chromium delivers each
 *   contract as its own message, so this, not the console, bounds the verdict on a busy machine.
 *
 * Never part of `npm test`.
 *
 *   npx tsx bench/vetting-plan-bench.ts   (VETTING_BENCH_COUNT to change the number of Ious)
 */
import type { Page } from '@playwright/test';
import { seedActiveIous } from '../sandbox/src/scenarios/seed-ious';
import {
  LONG_TASKS_SCRIPT,
  TEXT_SEEN_SCRIPT,
  fmt,
  ledgerStepsAt,
  longTasksWithin,
  mark,
  median,
  withBenchStack,
  writeResults,
} from './bench-support';
import { machineLabel } from './ratio-report';

const COUNT = Number(process.env.VETTING_BENCH_COUNT ?? 10_000);
const TARGET_MS = 1000;
const RUNS = 5;
const ACCEPTED = 'The participant accepts this plan';

const PAGE_SCRIPT = `
  ${TEXT_SEEN_SCRIPT}
  ${LONG_TASKS_SCRIPT}
  window.__clickedAt = undefined;
  document.addEventListener('click', () => { window.__clickedAt = performance.now(); }, true);
`;

type PageWindow = {
  __watch: (text: string) => void;
  __seen: Record<string, number | undefined>;
  __clickedAt: number | undefined;
};

/** When the page first showed both texts (the later of the two). */
async function verdictShownAt(page: Page, countText: string): Promise<number> {
  await page.evaluate(
    ([a, b]) => {
      const w = window as unknown as PageWindow;
      w.__watch(a);
      w.__watch(b);
    },
    [ACCEPTED, countText] as const,
  );
  await page.waitForFunction(
    ([a, b]) => {
      const seen = (window as unknown as PageWindow).__seen;
      return seen[a] !== undefined && seen[b] !== undefined;
    },
    [ACCEPTED, countText] as const,
    { timeout: 60_000, polling: 20 },
  );
  return page.evaluate(
    ([a, b]) => {
      const seen = (window as unknown as PageWindow).__seen;
      return Math.max(seen[a] ?? Number.NaN, seen[b] ?? Number.NaN);
    },
    [ACCEPTED, countText] as const,
  );
}

async function demoPackageId(sandboxUrl: string): Promise<string> {
  const response = await fetch(`${sandboxUrl}/v2/package-vetting/list`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json()) as {
    vettedPackages: { packages: { packageId: string; packageName: string }[] }[];
  };
  const demo = body.vettedPackages
    .flatMap((entry) => entry.packages)
    .find((pkg) => pkg.packageName === 'sandbox-demo');
  if (!demo) throw new Error('the sandbox has no vetted demo package');
  return demo.packageId;
}

/** A bare WebSocket in the page reads the same stream; resolves to the time it took. */
function rawStreamMs(page: Page, url: string, request: unknown): Promise<number> {
  return page.evaluate(
    async ([wsUrl, body]) => {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(wsUrl, ['daml.ws.auth']);
        ws.onopen = () => {
          ws.send(body);
        };
        ws.onmessage = (event) => {
          JSON.parse(String(event.data));
        };
        ws.onclose = () => {
          resolve();
        };
      });
      return performance.now() - started;
    },
    [url, JSON.stringify(request)] as const,
  );
}

async function main() {
  await withBenchStack(async ({ sandbox, base, browser }) => {
    const ledger = ledgerStepsAt(sandbox.url);
    const owner = await ledger.allocateParty('vetting-bench');
    const seeded = await seedActiveIous(ledger, { owner, count: COUNT, batchSize: 10_000 });
    console.log(
      `Seeded ${COUNT.toLocaleString('en')} active Ious in ${fmt(seeded.elapsedMs)} ms (ledger end ${String(seeded.ledgerEnd)})`,
    );
    const packageId = await demoPackageId(sandbox.url);
    const countText = `${COUNT.toLocaleString('en')} active`;
    const planUrl = `${base}/packages/vetting-plan?unvet=${packageId}`;

    const rawRequest = {
      activeAtOffset: seeded.ledgerEnd,
      eventFormat: {
        filtersByParty: {
          [owner]: {
            cumulative: [
              {
                identifierFilter: {
                  TemplateFilter: {
                    value: {
                      templateId: `${packageId}:Demo.Iou:Iou`,
                      includeCreatedEventBlob: false,
                    },
                  },
                },
              },
            ],
          },
        },
        verbose: false,
      },
    };
    const wsUrl = `${base.replace('http', 'ws')}/v2/state/active-contracts`;
    const raw: number[] = [];
    const fromPlanner: number[] = [];
    const cold: number[] = [];
    const longest: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(PAGE_SCRIPT);

      await page.goto(`${base}/packages/${packageId}`);
      await page.getByRole('heading', { name: /^sandbox-demo /, level: 1 }).waitFor();
      // The package page has read the archive, as a user arriving from it would have.
      await page
        .getByRole('region', { name: 'Contents' })
        .getByText(/^\d+ modules?/)
        .waitFor();
      await page
        .getByRole('link', { name: /^Plan a change… on / })
        .first()
        .click();
      const shown = await verdictShownAt(page, countText);
      const clicked = await page.evaluate(() => (window as unknown as PageWindow).__clickedAt);
      if (clicked === undefined) throw new Error('the click was not seen');
      fromPlanner.push(shown - clicked);
      const tasks = await longTasksWithin(page, clicked, shown);
      longest.push(Math.max(0, ...tasks.map(([, duration]) => duration)));

      raw.push(await rawStreamMs(page, wsUrl, rawRequest));

      const fresh = await context.newPage();
      await fresh.addInitScript(PAGE_SCRIPT);
      await fresh.goto(planUrl);
      cold.push(await verdictShownAt(fresh, countText));
      await context.close();
    }

    const summary = {
      count: COUNT,
      runs: RUNS,
      fromPlannerLinkMs: { median: median(fromPlanner), all: fromPlanner },
      coldPageLoadMs: { median: median(cold), all: cold },
      longestTaskWhileCountingMs: Math.max(...longest),
      bareWebSocketStreamMs: { median: median(raw), all: raw },
    };
    console.log(
      `\nVetting plan benchmark (${COUNT.toLocaleString('en')} active contracts, ${String(RUNS)} runs)`,
    );
    console.log(`machine: ${machineLabel()}`);
    console.log(
      `Dry-run verdict shown ${fmt(summary.fromPlannerLinkMs.median)} ms after the planner link's click (median; all ${fromPlanner.map((v) => fmt(v)).join(', ')}) ${mark(summary.fromPlannerLinkMs.median <= TARGET_MS)} (≤ ${String(TARGET_MS)})`,
    );
    console.log(
      `Cold: ${fmt(summary.coldPageLoadMs.median)} ms from opening the planner's URL in a new tab (median) ${mark(summary.coldPageLoadMs.median <= TARGET_MS)} (≤ ${String(TARGET_MS)})`,
    );
    console.log(
      `Transport floor: a bare WebSocket reading the same ${COUNT.toLocaleString('en')} contracts took ${fmt(summary.bareWebSocketStreamMs.median)} ms (median; all ${raw.map((v) => fmt(v)).join(', ')}); verdict from the link ÷ floor ${fmt(summary.fromPlannerLinkMs.median / summary.bareWebSocketStreamMs.median, 2)}×`,
    );
    console.log(
      `Longest main-thread task while counting: ${fmt(summary.longestTaskWhileCountingMs)} ms`,
    );
    writeResults('vetting-plan-bench', summary);
  });
}

await main();

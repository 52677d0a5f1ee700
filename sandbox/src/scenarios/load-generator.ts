import { createIou, splitIou, type Command } from './demo-commands';
import { createdContractIds, type LedgerSteps } from './ledger-steps';

/**
 * What each submission does: `create` issues a new Iou (one create per update); `split` keeps
 * one Iou per lane and splits 1.0 off it each time (an exercise, an archival and two creates).
 */
export type LoadWorkload = 'create' | 'split';

export type LoadOptions = {
  /** Issuer and owner of every Iou, and the submitter. */
  party: string;
  /** Submissions started per second: each commits one update. */
  ratePerSecond: number;
  /** How long to keep starting submissions; those in flight are then awaited. */
  durationMs: number;
  /** Most submissions in flight at once; the schedule falls behind rather than exceed it. */
  maxInFlight?: number;
  workload?: LoadWorkload;
  /**
   * Runs the same load this long first, unreported: the first second or so of a fresh process
   * (JIT, connection pool) is much slower than what it sustains.
   */
  warmUpMs?: number;
  /** Stops starting submissions early. */
  signal?: AbortSignal;
};

export type LoadReport = {
  targetRate: number;
  /** Submissions started, committed and refused. */
  submitted: number;
  committed: number;
  failed: number;
  /** From the first submission to the last answer. */
  elapsedMs: number;
  /** Committed updates per second over `elapsedMs`. */
  achievedRate: number;
  /** Submit-to-answer latency of the committed ones. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /**
   * The longest a submission started after its scheduled time (`maxInFlight` were pending, or
   * the client itself could not keep up): near zero when the target rate was held.
   */
  maxLagMs: number;
  /** The first refusal's message, if any. */
  firstError?: string;
};

const TICK_MS = 5;
/** The split workload's starting amount: enough for a million splits of 1.0. */
const SPLIT_START = '1000000.0';
const SPLIT_AMOUNT = '1.0';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN);

/**
 * Submits ordinary Iou commands at `ratePerSecond` for `durationMs` (open loop: the schedule
 * does not wait for answers, up to `maxInFlight` pending) and reports the rate of committed
 * updates actually reached. Works with any transport; benchmarks use HTTP (`fetch`).
 */
export async function generateLoad(
  steps: LedgerSteps,
  {
    party,
    ratePerSecond,
    durationMs,
    maxInFlight = 64,
    workload = 'create',
    warmUpMs = 0,
    signal,
  }: LoadOptions,
): Promise<LoadReport> {
  if (!(ratePerSecond > 0) || !(durationMs >= 0) || !(maxInFlight >= 1) || !(warmUpMs >= 0)) {
    throw new RangeError(
      'ratePerSecond and maxInFlight must be positive, durationMs and warmUpMs not negative',
    );
  }
  if (warmUpMs > 0) {
    await generateLoad(steps, {
      party,
      ratePerSecond,
      durationMs: warmUpMs,
      maxInFlight,
      workload,
      ...(signal ? { signal } : {}),
    });
  }
  const submission = { actAs: [party] };
  // Split lanes: an Iou each that no other submission touches, so splits never contend.
  const idleLanes: string[] = [];
  const laneFor = async () => {
    const lane = idleLanes.pop();
    if (lane !== undefined) return lane;
    const created = await steps.submit(
      [createIou({ issuer: party, owner: party, currency: 'USD', amount: SPLIT_START })],
      submission,
    );
    return createdContractIds(created)[0] ?? '';
  };
  if (workload === 'split') {
    // Lanes are made before the clock starts, so their creates do not count as load.
    const lanes = await Promise.all(Array.from({ length: maxInFlight }, laneFor));
    idleLanes.push(...lanes);
  }

  const latencies: number[] = [];
  let submitted = 0;
  let failed = 0;
  let maxLagMs = 0;
  let wake: (() => void) | undefined;
  let firstError: string | undefined;
  let lastAnswer = 0;
  const pending = new Set<Promise<void>>();

  const submitOne = async (sequence: number) => {
    const sent = performance.now();
    try {
      if (workload === 'split') {
        const lane = await laneFor();
        const split = await steps.submit([splitIou(lane, SPLIT_AMOUNT)], submission);
        // The rest is created second (Iou_Split's body).
        idleLanes.push(createdContractIds(split)[1] ?? '');
      } else {
        const command: Command = createIou({
          issuer: party,
          owner: party,
          currency: 'USD',
          amount: `${String(sequence + 1)}.0`,
        });
        await steps.submitAndWait([command], submission);
      }
      latencies.push(performance.now() - sent);
    } catch (error) {
      failed += 1;
      firstError ??= error instanceof Error ? error.message : String(error);
    } finally {
      lastAnswer = performance.now();
      wake?.();
    }
  };

  const started = performance.now();
  for (;;) {
    const elapsed = performance.now() - started;
    if (elapsed >= durationMs || signal?.aborted) break;
    const due = Math.floor((elapsed / 1000) * ratePerSecond) + 1;
    while (submitted < due && pending.size < maxInFlight) {
      const lag = elapsed - (submitted / ratePerSecond) * 1000;
      if (lag > maxLagMs) maxLagMs = lag;
      const promise = submitOne(submitted).finally(() => pending.delete(promise));
      pending.add(promise);
      submitted += 1;
    }
    // Wake at the next scheduled start, or sooner when a slot frees up.
    const nextDue = (submitted / ratePerSecond) * 1000 - (performance.now() - started);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, Math.min(TICK_MS, nextDue)));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
  }
  await Promise.all(pending);
  const elapsedMs = Math.max(lastAnswer - started, 1);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    targetRate: ratePerSecond,
    submitted,
    committed: latencies.length,
    failed,
    elapsedMs,
    achievedRate: (latencies.length / elapsedMs) * 1000,
    latencyP50Ms: percentile(sorted, 0.5),
    latencyP99Ms: percentile(sorted, 0.99),
    maxLagMs,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

import { MAX_ISSUANCE_COUNT } from '../ledger/demo-package';
import { issueIous } from './demo-commands';
import type { LedgerSteps } from './ledger-steps';

export type SeedIousOptions = {
  /** Who holds the Ious: their owner (an observer of each). */
  owner: string;
  /** Their signatory, the submitter; the owner when not given. */
  issuer?: string;
  count: number;
  currency?: string;
  amount?: string;
  /** Ious per transaction; at most MAX_ISSUANCE_COUNT. */
  batchSize?: number;
};

export type SeedIousResult = {
  count: number;
  /** One per batch, in order. */
  updateIds: string[];
  /** The ledger end once the last batch committed: every Iou is active at this offset. */
  ledgerEnd: number;
  elapsedMs: number;
};

const DEFAULT_BATCH = 10_000;

/**
 * Puts `count` active Ious on the ledger through the API, `batchSize` per transaction (each an
 * ordinary CreateAndExercise of IouIssuance whose choice creates the Ious, authorized by their
 * issuer): how benchmarks and tests get a large active contract set quickly. Batches go one
 * after another, since the participant commits one transaction at a time anyway.
 */
export async function seedActiveIous(
  steps: LedgerSteps,
  {
    owner,
    issuer = owner,
    count,
    currency = 'USD',
    amount = '1.0',
    batchSize = DEFAULT_BATCH,
  }: SeedIousOptions,
): Promise<SeedIousResult> {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${String(count)}`);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_ISSUANCE_COUNT) {
    throw new RangeError(`batchSize must be 1 to ${String(MAX_ISSUANCE_COUNT)}`);
  }
  const started = performance.now();
  const updateIds: string[] = [];
  for (let done = 0; done < count; done += batchSize) {
    const batch = Math.min(batchSize, count - done);
    const { updateId } = await steps.submitAndWait(
      [issueIous({ issuer, owner, currency, amount, count: batch })],
      { actAs: [issuer] },
    );
    updateIds.push(updateId);
  }
  return {
    count,
    updateIds,
    ledgerEnd: await steps.ledgerEnd(),
    elapsedMs: performance.now() - started,
  };
}

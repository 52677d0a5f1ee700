import type { Schemas } from './schema';
import { openLedgerStream, type LedgerStream, type LedgerStreamStatus } from './ledger-stream';
import {
  eventFormatFor,
  getLedgerEnd,
  getPrunedOffset,
  readBackwards,
  readUpdateElement,
  topologyFormatFor,
  updateFormatFor,
  type ReadScope,
  type UpdateSummary,
} from './updates';

/*
 * What /live reads: the latest updates up to the ledger end, then the update stream (`/v2/updates`
 * over a websocket) after it, summarised. Apart from the update lists (updates.ts), so that a page
 * listing updates loads no stream client.
 */

/**
 * What /live asks for: transactions (LEDGER_EFFECTS, labelled records: a row names a few argument
 * fields), reassignments, and the participant authorization changes of the scope's parties (every
 * party's, for any-party readers).
 */
export function liveUpdateFormat(scope: ReadScope): Schemas['UpdateFormat'] {
  return {
    ...updateFormatFor(scope, { verbose: true }),
    includeReassignments: eventFormatFor(scope, { verbose: false }),
    includeTopologyEvents: topologyFormatFor(scope),
  };
}

export type LatestUpdates = {
  /** At most the count asked for, oldest first (the order the stream continues in). */
  updates: UpdateSummary[];
  /** The offset read up to: the live stream continues after it, so nothing is missed or repeated. */
  endInclusive: number;
  /**
   * Why fewer came than asked: `start` when the ledger (or what pruning left of it) holds no more,
   * `bound` when the offsets read (at most MAX_RANGES_PER_PAGE × UPDATES_LIST_LIMIT) held no more.
   */
  shortBecause: 'start' | 'bound' | null;
  /** How many offsets back were read. */
  offsetsRead: number;
};

/**
 * The last `count` updates of the live view's kinds (transactions, reassignments, the scope's
 * topology changes) up to the ledger end, read backwards like the history (`/v2/updates` with
 * `descendingOrder` in ranges of offsets, bounded). The live stream then begins after
 * `endInclusive`.
 */
export async function listLatestUpdates(
  scope: ReadScope,
  count: number,
  signal?: AbortSignal,
): Promise<LatestUpdates> {
  const [ledgerEnd, pruned] = await Promise.all([
    getLedgerEnd(signal),
    getPrunedOffset(signal).catch(() => 0),
  ]);
  if (count <= 0) {
    return { updates: [], endInclusive: ledgerEnd, shortBecause: null, offsetsRead: 0 };
  }
  const { updates, olderThan } = await readBackwards(
    liveUpdateFormat(scope),
    { end: ledgerEnd, pruned, minimum: count },
    signal,
  );
  const newest = updates.slice(0, count).reverse();
  const isShort = newest.length < count;
  return {
    updates: newest,
    endInclusive: ledgerEnd,
    shortBecause: !isShort ? null : olderThan === null ? 'start' : 'bound',
    offsetsRead: ledgerEnd - (olderThan ?? pruned),
  };
}

export type LiveUpdatesBatch = {
  /** In offset order; none at or below an offset already delivered. */
  updates: UpdateSummary[];
  /** The last offset seen, offset checkpoints included: where a reconnect resumes. */
  lastOffset: number;
};

/**
 * The update stream after `beginExclusive`, summarised, in the stream client's batches. It
 * reconnects by itself and resumes after the last offset seen (checkpoints advance it too), so a
 * dropped connection neither repeats nor skips an update.
 */
export function watchUpdates({
  scope,
  beginExclusive,
  onBatch,
  onStatus,
  batchMs,
}: {
  scope: ReadScope;
  beginExclusive: number;
  onBatch: (batch: LiveUpdatesBatch) => void;
  onStatus?: (status: LedgerStreamStatus) => void;
  batchMs?: number;
}): LedgerStream {
  let lastOffset = beginExclusive;
  // Apart from the resume point: were a checkpoint to come before the update at its own offset,
  // that update must still be shown, and one already shown never twice.
  let lastUpdateOffset = beginExclusive;
  const updateFormat = liveUpdateFormat(scope);
  return openLedgerStream({
    path: '/v2/updates',
    reconnect: true,
    request: (): Schemas['GetUpdatesRequest'] => ({ beginExclusive: lastOffset, updateFormat }),
    onElements: (elements) => {
      const updates: UpdateSummary[] = [];
      const before = lastOffset;
      for (const message of elements) {
        const element = readUpdateElement((message as { update?: unknown } | null)?.update);
        if (!element) continue;
        if (element.summary && element.offset > lastUpdateOffset) {
          updates.push(element.summary);
          lastUpdateOffset = element.offset;
        }
        lastOffset = Math.max(lastOffset, element.offset);
      }
      if (updates.length > 0 || lastOffset !== before) onBatch({ updates, lastOffset });
    },
    ...(onStatus ? { onStatus } : {}),
    ...(batchMs === undefined ? {} : { batchMs }),
  });
}

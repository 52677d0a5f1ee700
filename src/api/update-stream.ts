import type { Schemas } from './schema';
import { openLedgerStream, type LedgerStream, type LedgerStreamStatus } from './ledger-stream';
import { liveUpdateFormat, readUpdateElement, type ReadScope, type UpdateSummary } from './updates';

/*
 * The update stream (`/v2/updates` over a websocket), summarised for /live. Apart from the update
 * lists (updates.ts), so that a page listing updates loads no stream client.
 */

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

/**
 * Offset checkpoints as the participant puts them into tailing streams (IndexServiceImpl's
 * checkpoint flow): a cache holds the ledger end and each synchronizer's record time, refreshed
 * at most every `cacheUpdateIntervalMs`; a stream emits the cached checkpoint once it has
 * streamed everything up to its offset, and a stream that has been quiet for `idleTimeoutMs`
 * emits it when it sits exactly at its offset. Closed ranges (with an end) get none.
 */

export type SynchronizerTime = { synchronizerId: string; recordTime: string };

export type OffsetCheckpoint = { offset: number; synchronizerTimes: SynchronizerTime[] };

export type OffsetCheckpointConfig = {
  /** Canton's `offsetCheckpointCacheUpdateInterval` (15 s by default). */
  cacheUpdateIntervalMs: number;
  /** Canton's `idleStreamOffsetCheckpointTimeout` (60 s by default). */
  idleTimeoutMs: number;
};

export const DEFAULT_OFFSET_CHECKPOINT_CONFIG: OffsetCheckpointConfig = {
  cacheUpdateIntervalMs: 15_000,
  idleTimeoutMs: 60_000,
};

/**
 * The record time of the newest update on each connected synchronizer that has seen one, in
 * connection order: the ledger end's and a checkpoint's `synchronizerTimes`.
 */
export function synchronizerTimes(
  synchronizerIds: readonly string[],
  recordTimes: ReadonlyMap<string, string>,
): SynchronizerTime[] {
  return synchronizerIds.flatMap((synchronizerId) => {
    const recordTime = recordTimes.get(synchronizerId);
    return recordTime === undefined ? [] : [{ synchronizerId, recordTime }];
  });
}

/**
 * The participant's checkpoint cache: filled at startup, then refreshed every
 * `cacheUpdateIntervalMs`. Refreshed lazily, when read at or after the next refresh time, so an
 * idle sandbox runs no timer; a reader sees the ledger end of then rather than of the tick.
 */
export function createOffsetCheckpointCache(
  current: () => OffsetCheckpoint | undefined,
  config: OffsetCheckpointConfig,
) {
  const interval = config.cacheUpdateIntervalMs;
  const startedAt = Date.now();
  let cached = current();
  let nextRefresh = startedAt + interval;
  return {
    config,
    fetch(): OffsetCheckpoint | undefined {
      const now = Date.now();
      if (now >= nextRefresh) {
        cached = current();
        nextRefresh = interval > 0 ? now + interval - ((now - startedAt) % interval) : now;
      }
      return cached;
    },
  };
}

export type OffsetCheckpointCache = ReturnType<typeof createOffsetCheckpointCache>;

/**
 * Where a tailing stream is, told to `checkpointInjector` in order: a range of offsets it starts
 * reading, each element it sends, the end of that range, and idle timeouts while it waits.
 */
export type StreamMark =
  | { kind: 'rangeBegin'; offset: number }
  | { kind: 'element'; offset: number }
  | { kind: 'rangeEnd'; offset: number }
  | { kind: 'timeout' };

/**
 * Decides when a tailing stream sends a checkpoint, with the participant's rules: at a range's
 * start the cache is read, and its checkpoint is sent before the first element past its offset
 * or at the range's end; one that arrived late (exactly the previous range's end) is sent at the
 * next range's start; an idle timeout sends it only when the stream ended a range exactly at its
 * offset. The same checkpoint is never sent twice. `mark` answers the checkpoints to send before
 * the element (or in place of the marker).
 */
export function checkpointInjector(fetch: () => OffsetCheckpoint | undefined) {
  /** Read at a range's start and not yet sent: the one to place within this range. */
  let pending: OffsetCheckpoint | undefined;
  let lastSent: OffsetCheckpoint | undefined;
  /** The last range marker or element: timeouts leave it as it was. */
  let last: Exclude<StreamMark, { kind: 'timeout' }> | undefined;
  const send = (checkpoint: OffsetCheckpoint) => {
    lastSent = checkpoint;
    return [checkpoint];
  };
  const sameAsSent = (checkpoint: OffsetCheckpoint) =>
    lastSent?.offset === checkpoint.offset &&
    JSON.stringify(lastSent.synchronizerTimes) === JSON.stringify(checkpoint.synchronizerTimes);

  return {
    mark(mark: StreamMark): OffsetCheckpoint[] {
      switch (mark.kind) {
        case 'rangeBegin': {
          const fetched = fetch();
          const processed = last?.offset;
          last = mark;
          pending = fetched && fetched.offset >= mark.offset ? fetched : undefined;
          const late =
            fetched !== undefined &&
            !sameAsSent(fetched) &&
            fetched.offset === mark.offset - 1 &&
            (processed === undefined || fetched.offset >= processed);
          return late ? send(fetched) : [];
        }
        case 'element':
        case 'rangeEnd': {
          last = mark;
          const due =
            pending !== undefined &&
            (mark.kind === 'element'
              ? pending.offset < mark.offset
              : pending.offset <= mark.offset);
          if (!due || !pending) return [];
          const checkpoint = pending;
          pending = undefined;
          return send(checkpoint);
        }
        case 'timeout': {
          const fetched = fetch();
          const atItsOffset =
            fetched !== undefined &&
            (lastSent === undefined || lastSent.offset < fetched.offset) &&
            last?.kind === 'rangeEnd' &&
            last.offset === fetched.offset;
          return atItsOffset ? send(fetched) : [];
        }
      }
    },
  };
}

export type CheckpointInjector = ReturnType<typeof checkpointInjector>;

import type { LiveUpdatesBatch } from '@/api/update-stream';
import {
  matchesFilter,
  type UpdateFilter,
  type UpdateSummary,
} from '@/lib/transaction-tree/update-summary';

/** Rows kept at most: the newest this many matching the filter (and as many received in all). */
export const LIVE_BUFFER_SIZE = 2000;

export type LiveSnapshot = {
  /** What the list shows, newest first: frozen while paused. */
  readonly rows: readonly UpdateSummary[];
  readonly isPaused: boolean;
  /** Matching updates received since the pause, not yet shown. */
  readonly newWhilePaused: number;
  /** Matching updates pushed out of the buffer since the stream (or the filter) began. */
  readonly dropped: number;
  /** The last offset seen, offset checkpoints included: where a reconnect resumes. */
  readonly lastOffset: number | undefined;
  /** The offset of the newest row shown. */
  readonly lastShownOffset: number | undefined;
  /** Updates received in all. */
  readonly received: number;
};

/**
 * The live view's state outside React: batches from the stream go in here, and the list renders
 * a snapshot once per batch (`useSyncExternalStore`), never once per update. Bounded: only the
 * newest {@link LIVE_BUFFER_SIZE} updates are kept, both of all received (to filter anew) and of
 * those matching the filter (so a rare match is not crowded out by the rest).
 */
export class LiveFeed {
  private filter: UpdateFilter;
  /** Oldest first; trimmed in chunks so that trimming costs little per update. */
  private all: UpdateSummary[] = [];
  private matching: UpdateSummary[] = [];
  private droppedCount = 0;
  private pausedAtCount: number | undefined;
  private matchedTotal = 0;
  /** The newest update's offset kept: anything at or below it is a repeat, and dropped. */
  private newestOffset = -1;
  private snapshot: LiveSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(filter: UpdateFilter = {}) {
    this.filter = filter;
    this.snapshot = {
      rows: [],
      isPaused: false,
      newWhilePaused: 0,
      dropped: 0,
      lastOffset: undefined,
      lastShownOffset: undefined,
      received: 0,
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): LiveSnapshot => this.snapshot;

  /** Where the stream begins: the ledger end when the view opened. */
  start(offset: number): void {
    if (this.snapshot.lastOffset !== undefined) return;
    this.publish({ lastOffset: offset });
  }

  push({ updates, lastOffset }: LiveUpdatesBatch): void {
    let matched = 0;
    let taken = 0;
    for (const update of updates) {
      // Where the last updates read at the start meet the stream, or after a reconnect: each
      // update once, however the two overlap.
      if (update.offset <= this.newestOffset) continue;
      this.newestOffset = update.offset;
      taken += 1;
      this.all.push(update);
      if (matchesFilter(update, this.filter)) {
        this.matching.push(update);
        matched += 1;
      }
    }
    this.all = trimmed(this.all);
    const before = this.matching.length;
    this.matching = trimmed(this.matching);
    this.droppedCount += before - this.matching.length;
    this.matchedTotal += matched;
    const received = this.snapshot.received + taken;
    if (this.snapshot.isPaused) {
      this.publish({
        lastOffset,
        received,
        newWhilePaused: this.matchedTotal - (this.pausedAtCount ?? 0),
        dropped: this.dropped(),
      });
    } else {
      this.publish({ ...this.shown(), lastOffset, received });
    }
  }

  /**
   * The last updates before the stream's start (oldest first), placed below what the stream has
   * brought: an update already kept (same offset) is not kept twice. Never counted as new while
   * paused: they are where the view begins, not news.
   */
  backfill(updates: readonly UpdateSummary[]): void {
    const kept = new Set(this.all.map((update) => update.offset));
    const older = updates.filter((update) => !kept.has(update.offset));
    if (older.length === 0) return;
    this.all = trimmed([...older, ...this.all].sort((a, b) => a.offset - b.offset));
    this.newestOffset = Math.max(this.newestOffset, this.all.at(-1)?.offset ?? -1);
    const matching = older.filter((update) => matchesFilter(update, this.filter));
    this.matching = trimmed([...matching, ...this.matching].sort((a, b) => a.offset - b.offset));
    this.matchedTotal += matching.length;
    const received = this.snapshot.received + older.length;
    if (this.snapshot.isPaused) {
      this.pausedAtCount = (this.pausedAtCount ?? 0) + matching.length;
      this.publish({ received, dropped: this.dropped() });
    } else {
      this.publish({ ...this.shown(), received });
    }
  }

  pause(): void {
    if (this.snapshot.isPaused) return;
    this.pausedAtCount = this.matchedTotal;
    this.publish({ isPaused: true, newWhilePaused: 0 });
  }

  resume(): void {
    if (!this.snapshot.isPaused) return;
    this.pausedAtCount = undefined;
    this.publish({ ...this.shown(), isPaused: false, newWhilePaused: 0 });
  }

  /** Filters what was received anew; counts of dropped rows start again. */
  setFilter(filter: UpdateFilter): void {
    this.filter = filter;
    this.matching = this.all.filter((update) => matchesFilter(update, filter));
    this.droppedCount = 0;
    this.matchedTotal = this.matching.length;
    if (this.snapshot.isPaused) this.pausedAtCount = this.matchedTotal;
    this.publish({ ...this.shown(), newWhilePaused: 0 });
  }

  private shown(): Pick<LiveSnapshot, 'rows' | 'lastShownOffset' | 'dropped'> {
    const start = Math.max(0, this.matching.length - LIVE_BUFFER_SIZE);
    const rows = this.matching.slice(start).reverse();
    return { rows, lastShownOffset: rows[0]?.offset, dropped: this.dropped() };
  }

  private dropped(): number {
    return this.droppedCount + Math.max(0, this.matching.length - LIVE_BUFFER_SIZE);
  }

  private publish(change: Partial<LiveSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

/** The newest LIVE_BUFFER_SIZE, trimmed only past half as many again (amortised). */
function trimmed(rows: UpdateSummary[]): UpdateSummary[] {
  return rows.length > LIVE_BUFFER_SIZE * 1.5 ? rows.slice(-LIVE_BUFFER_SIZE) : rows;
}

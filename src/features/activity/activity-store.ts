import { useCallback, useSyncExternalStore } from 'react';
import { identityDataStorage, identityScopedKey } from '@/api/access-token';
import {
  appendEntry,
  fitToBudget,
  parseLog,
  type ActivityEntry,
  MAX_STORED_CHARS,
} from '@/lib/activity/activity-log';

/** One log: a participant's, for one identity, in the storage that identity's data lives in. */
export type ActivityPlace = { storage: Storage | undefined; key: string };

/** Where the signed-in identity's log of `participantId` is kept (read the token now). */
export function activityPlace(participantId: string): ActivityPlace {
  return {
    storage: identityDataStorage(),
    key: identityScopedKey('activity.log', participantId),
  };
}

const listeners = new Set<() => void>();
let cached: { place: ActivityPlace; text: string | null; entries: ActivityEntry[] } | undefined;

function readStorage({ storage, key }: ActivityPlace): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function readActivity(place: ActivityPlace): ActivityEntry[] {
  const text = readStorage(place);
  if (
    cached?.place.key !== place.key ||
    cached.place.storage !== place.storage ||
    cached.text !== text
  ) {
    cached = { place, text, entries: parseLog(text) };
  }
  return cached.entries;
}

/** A log over its budget is cut to this share of it. */
const TRIM_TO = 0.8;

/**
 * Stores the log, the newest entries that fit: first within the log's own budget, then, when the
 * storage is full anyway (other data, a small quota), in halves until it takes them. Returns how
 * many entries were kept; 0 when the storage refuses even one.
 */
export function writeActivity(
  { storage, key }: ActivityPlace,
  entries: readonly ActivityEntry[],
  maxChars: number = MAX_STORED_CHARS,
): number {
  const whole = JSON.stringify(entries);
  // Sizing entry by entry costs a serialization each; only a log over budget needs it. Trimmed
  // with headroom, so that a full log does not pay for it again on every batch of a bulk run
  // (each would cost three serializations of the whole log: a long task).
  let kept =
    whole.length <= maxChars ? entries : fitToBudget(entries, Math.floor(maxChars * TRIM_TO));
  let text = kept === entries ? whole : JSON.stringify(kept);
  let written = false;
  while (!written) {
    try {
      if (kept.length === 0) storage?.removeItem(key);
      else storage?.setItem(key, text);
      written = true;
    } catch {
      if (kept.length === 0) break;
      kept = kept.slice(0, Math.floor(kept.length / 2));
      text = JSON.stringify(kept);
    }
  }
  for (const listener of listeners) listener();
  return written ? kept.length : 0;
}

/**
 * Entries waiting to be stored, per log. A bulk run settles many mutations a second; writing the
 * whole log for each would serialize megabytes per row on the main thread, so they go in batches.
 */
let queued: { place: ActivityPlace; entries: ActivityEntry[] }[] = [];
const FLUSH_DELAY_MS = 150;
let flushTimer: ReturnType<typeof setTimeout> | undefined;

/** Stores every queued entry now (also when the page is hidden or closed). */
export function flushActivity(): void {
  if (flushTimer !== undefined) clearTimeout(flushTimer);
  flushTimer = undefined;
  const batches = queued;
  queued = [];
  for (const { place, entries } of batches) {
    let log = readActivity(place);
    // Oldest first, so the newest ends up on top.
    for (const entry of entries) log = appendEntry(log, entry);
    writeActivity(place, log);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushActivity);
}

/**
 * Adds an entry to a log, stored within {@link FLUSH_DELAY_MS}; never throws (the call it records
 * has happened either way).
 */
export function appendActivity(place: ActivityPlace, entry: ActivityEntry): void {
  const batch = queued.find(
    (other) => other.place.key === place.key && other.place.storage === place.storage,
  );
  if (batch) batch.entries.push(entry);
  else queued.push({ place, entries: [entry] });
  flushTimer ??= setTimeout(flushActivity, FLUSH_DELAY_MS);
}

function subscribe(key: string, listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const NO_ENTRIES: ActivityEntry[] = [];

/**
 * The signed-in identity's activity log on `participantId`, newest first, shared with every view
 * and other tabs. Kept as long as that identity's sign-in (see identityDataStorage).
 */
export function useActivityLog(participantId: string) {
  const place = activityPlace(participantId);
  const { storage, key } = place;
  const entries = useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(key, listener), [key]),
    useCallback(() => readActivity({ storage, key }), [storage, key]),
    () => NO_ENTRIES,
  );
  const clear = useCallback(() => {
    writeActivity({ storage, key }, []);
  }, [storage, key]);
  return { entries, clear };
}

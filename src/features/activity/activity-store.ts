import {
  appendEntry,
  isActivityEntry,
  MAX_ACTIVITY_ENTRIES,
  MAX_STORED_CHARS,
  type ActivityEntry,
} from '@/lib/activity/activity-log';
import { createBoundedJsonStore } from '@/lib/storage/bounded-json-store';
import type { ActivityPlace } from './activity-place';

/** The activity log's bounded store (the views' hook reads it through `useActivityLog`). */
export const activityStore = createBoundedJsonStore({
  isItem: isActivityEntry,
  maxItems: MAX_ACTIVITY_ENTRIES,
  maxChars: MAX_STORED_CHARS,
});

export const readActivity = (place: ActivityPlace): ActivityEntry[] => activityStore.read(place);

/**
 * Stores the log, the newest entries that fit: first within the log's own budget, then, when the
 * storage is full anyway (other data, a small quota), in halves until it takes them. Returns how
 * many entries were kept; 0 when the storage refuses even one.
 */
export function writeActivity(
  place: ActivityPlace,
  entries: readonly ActivityEntry[],
  maxChars: number = MAX_STORED_CHARS,
): number {
  return activityStore.write(place, entries, maxChars);
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

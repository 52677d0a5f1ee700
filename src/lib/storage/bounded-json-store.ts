/**
 * A list of JSON items kept under one key of a browser storage, newest first and bounded: at most
 * so many items, and (optionally) at most so many characters. What is stored is data another tab,
 * an older console or a full disk may have left: a corrupt or foreign value reads as no items, a
 * full storage keeps the newest items it takes, and neither ever throws. The activity log and the
 * composer's history are two such lists.
 */

/** One stored list: the storage it lives in (none where there is no window) and its key. */
export type StorePlace = { storage: Storage | undefined; key: string };

export type BoundedJsonStoreOptions<T> = {
  /** Whether a stored value is an item this console can use; anything else is dropped on read. */
  isItem: (value: unknown) => value is T;
  /** At most this many items are read and kept. */
  maxItems: number;
  /** What the list's JSON may take in storage (UTF-16 characters); unbounded when absent. */
  maxChars?: number;
};

export type BoundedJsonStore<T> = {
  /** Whatever the storage holds, as items; anything unreadable is dropped, never thrown. */
  parse: (text: string | null) => T[];
  /** The items at `place`, the same array while the stored text has not changed. */
  read: (place: StorePlace) => T[];
  /**
   * Stores `items` (newest first), the newest that fit: first within `maxChars`, then, when the
   * storage refuses (other data, a small quota), in halves until it takes them. An empty list
   * removes the key. Returns how many items were kept; 0 when the storage refuses even one.
   */
  write: (place: StorePlace, items: readonly T[], maxChars?: number) => number;
  /** Calls `listener` on every write here, and on another tab's change of `key`. */
  subscribe: (key: string, listener: () => void) => () => void;
};

/** A list over its character budget is cut to this share of it, so the next write fits again. */
const TRIM_TO = 0.8;

/** `item` first, then the others without its id, at most `max`. */
export function withNewest<T extends { id: string }>(
  items: readonly T[],
  item: T,
  max: number,
): T[] {
  return [item, ...items.filter((other) => other.id !== item.id)].slice(0, max);
}

/** The newest items whose JSON fits in `maxChars` (as the storage holds it). */
export function fitToBudget<T>(items: readonly T[], maxChars: number): T[] {
  // "[", "]" and a comma per item.
  let used = 2;
  let count = 0;
  for (const item of items) {
    used += JSON.stringify(item).length + 1;
    if (used > maxChars) break;
    count += 1;
  }
  return items.slice(0, count);
}

/** Stored text as at most `max` items; anything unreadable is dropped, never thrown. */
export function parseJsonList<T>(
  text: string | null,
  isItem: (value: unknown) => value is T,
  max: number,
): T[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter(isItem).slice(0, max) : [];
  } catch {
    return [];
  }
}

function readText({ storage, key }: StorePlace): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function createBoundedJsonStore<T>({
  isItem,
  maxItems,
  maxChars: defaultMaxChars,
}: BoundedJsonStoreOptions<T>): BoundedJsonStore<T> {
  const listeners = new Set<() => void>();
  let cached: { place: StorePlace; text: string | null; items: T[] } | undefined;

  const parse = (text: string | null): T[] => parseJsonList(text, isItem, maxItems);

  const read = (place: StorePlace): T[] => {
    const text = readText(place);
    if (
      cached?.place.key !== place.key ||
      cached.place.storage !== place.storage ||
      cached.text !== text
    ) {
      cached = { place, text, items: parse(text) };
    }
    return cached.items;
  };

  const write = (
    { storage, key }: StorePlace,
    items: readonly T[],
    maxChars: number | undefined = defaultMaxChars,
  ): number => {
    const whole = JSON.stringify(items);
    // Sizing item by item costs a serialization each; only a list over budget needs it. Trimmed
    // with headroom, so that a full list does not pay for it again on every write.
    let kept =
      maxChars === undefined || whole.length <= maxChars
        ? items
        : fitToBudget(items, Math.floor(maxChars * TRIM_TO));
    let text = kept === items ? whole : JSON.stringify(kept);
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
  };

  const subscribe = (key: string, listener: () => void): (() => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };

  return { parse, read, write, subscribe };
}

import { useCallback, useSyncExternalStore } from 'react';
import type { BoundedJsonStore, StorePlace } from '@/lib/storage/bounded-json-store';

const NO_ITEMS: readonly never[] = [];

/**
 * The items of a bounded store at `place`, newest first, shared with every view that shows them
 * and with other tabs: a write anywhere renders them again.
 */
export function useStoredList<T>(store: BoundedJsonStore<T>, place: StorePlace): readonly T[] {
  const { storage, key } = place;
  return useSyncExternalStore<readonly T[]>(
    useCallback((listener: () => void) => store.subscribe(key, listener), [store, key]),
    useCallback(() => store.read({ storage, key }), [store, storage, key]),
    () => NO_ITEMS,
  );
}

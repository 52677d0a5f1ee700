import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/*
 * Where the user came from to each history entry, so a page's back link names the page they left
 * (Live, Transactions, Active contracts…) rather than one fixed list. Kept per history entry (the
 * router's location key): Back and Forward return to entries whose origin is already known. In
 * memory only: after a reload the page's own list stands in. The recorder is the shell's; what a
 * back link makes of it (back-link-place.ts) loads with the pages that have one.
 */

/** Entries kept; older ones fall back to the page's own list. */
const MAX_ENTRIES = 200;
/** Longer locations (a long search string) are not kept. */
const MAX_LOCATION_LENGTH = 2048;

const fromByKey = new Map<string, string>();
let last: { key: string; location: string } | undefined;
const listeners = new Set<() => void>();

/**
 * Records that the router is now at `location` (entry `key`), reached by `navigationType`. A push
 * came from the entry before; a replace keeps where the replaced entry came from; a pop (Back,
 * Forward, the first load) adds nothing.
 */
export function recordLocation(
  key: string,
  location: string,
  navigationType: 'POP' | 'PUSH' | 'REPLACE',
): void {
  if (last?.key === key) return;
  if (last !== undefined && navigationType !== 'POP' && !fromByKey.has(key)) {
    const from = navigationType === 'PUSH' ? last.location : fromByKey.get(last.key);
    if (from !== undefined && from.length <= MAX_LOCATION_LENGTH) {
      fromByKey.set(key, from);
      if (fromByKey.size > MAX_ENTRIES) {
        const oldest = fromByKey.keys().next().value;
        if (oldest !== undefined) fromByKey.delete(oldest);
      }
    }
  }
  last = { key, location };
  for (const listener of listeners) listener();
}

/** The location the entry `key` was reached from, when this page saw it happen. */
export function cameFromOf(key: string): string | undefined {
  return fromByKey.get(key);
}

/** Calls `listener` after each recorded navigation; returns the unsubscribe. */
export function subscribeToLocations(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The shell's recorder of every navigation, before the browser paints the new page. Its own
 * component, so a navigation re-renders only it, not the shell.
 */
export function LocationRecorder(): null {
  const { key, pathname, search } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    recordLocation(key, `${pathname}${search}`, navigationType);
  }, [key, pathname, search, navigationType]);
  return null;
}

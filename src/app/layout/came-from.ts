import { useLayoutEffect, useSyncExternalStore } from 'react';
import { matchPath, useLocation, useNavigationType } from 'react-router';
import { paths } from '@/app/paths';
import { navGroups } from './nav-items';
import { parseOwnLocation } from './own-location';

/*
 * Where the user came from to each history entry, so a page's back link names the page they left
 * (Live, Transactions, Active contracts…) rather than one fixed list. Kept per history entry (the
 * router's location key): Back and Forward return to entries whose origin is already known. In
 * memory only: after a reload the page's own list stands in.
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

function subscribe(listener: () => void): () => void {
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

export type Place = { to: string; label: string };

/** Forms whose paths a detail page's pattern would also match: no place to go back to. */
const FORMS: readonly string[] = [
  paths.newUser.pattern,
  paths.usersImport.pattern,
  paths.newParty.pattern,
  paths.newExternalParty.pattern,
  paths.uploadDar.pattern,
  paths.newIdentityProvider.pattern,
];

/** Pages of one thing, named by what they show. */
const DETAIL_PAGES: readonly { pattern: string; label: string }[] = [
  { pattern: paths.contract.pattern, label: 'the previous contract' },
  { pattern: paths.party.pattern, label: 'the party' },
  { pattern: paths.package.pattern, label: 'the package' },
  { pattern: paths.user.pattern, label: 'the user' },
  { pattern: paths.identityProvider.pattern, label: 'the identity provider' },
];

/**
 * A location of this console in words for a back link: a page of the navigation by its label
 * ("Live", "Active contracts"), a page of one thing ("the party"), an open transaction ("the
 * transaction"); undefined for anything else (the sign-in page, a form). Pure.
 */
export function placeOf(location: string): Place | undefined {
  const url = parseOwnLocation(location);
  if (url === undefined) return undefined;
  const to = `${url.pathname}${url.search}`;
  if (url.pathname === paths.transactions.pattern && url.searchParams.has('update')) {
    return { to, label: 'the transaction' };
  }
  for (const group of navGroups) {
    const item = group.items.find((candidate) => candidate.to === url.pathname);
    if (item) return { to, label: item.label };
  }
  if (FORMS.includes(url.pathname)) return undefined;
  for (const page of DETAIL_PAGES) {
    if (matchPath(page.pattern, url.pathname)) return { to, label: page.label };
  }
  return undefined;
}

/**
 * Where the back link of the current page goes: the page the user came from when the console
 * knows it and it is a place (see placeOf), else `fallback`.
 */
export function useCameFrom(fallback: Place): Place {
  const { key } = useLocation();
  const from = useSyncExternalStore(subscribe, () => cameFromOf(key));
  return (from === undefined ? undefined : placeOf(from)) ?? fallback;
}

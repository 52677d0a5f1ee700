import { identityScopedKey, subscribeAccessToken } from '@/api/access-token';

/**
 * The pages the signed-in identity visited, newest first, as locations (`/contracts/00ab…`), for
 * the search box's recent items. Recorded by the shell on every navigation, so this module stays
 * small and reads nothing into links: the search box turns a location back into an item only
 * through the app's routes. Kept in memory, and stored for the browser session under the
 * identity's key (signing out or in as someone else forgets it, as writeAccessToken does) when the
 * page is hidden or left: a navigation writes nothing. Session storage, also without a token: a
 * visit before signing in (an OpenID redirect leaves the page) must not stay on the device.
 */

/** More than the recent items shown: list pages and the like are visits that make no item. */
export const MAX_VISITS = 30;

/** Longer locations (a long search string) are not kept. */
export const MAX_VISIT_LENGTH = 1024;

function visitsKey(): string {
  return identityScopedKey('search.visits', '');
}

/** The locations in `text` as stored, at most {@link MAX_VISITS}. */
export function parseVisits(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (visit): visit is string => typeof visit === 'string' && visit.length <= MAX_VISIT_LENGTH,
      )
      .slice(0, MAX_VISITS);
  } catch {
    return [];
  }
}

/** `location` on top of `visits`, once, at most {@link MAX_VISITS}. */
export function addVisit(visits: readonly string[], location: string): string[] {
  if (location.length > MAX_VISIT_LENGTH) return [...visits];
  return [location, ...visits.filter((visit) => visit !== location)].slice(0, MAX_VISITS);
}

/** Visits not stored yet, by storage key (so, by identity). */
const pending = new Map<string, string[]>();

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Storage refused (a privacy setting): the visits live as long as the page.
    return undefined;
  }
}

function storedVisits(key: string): string[] {
  try {
    return parseVisits(storage()?.getItem(key));
  } catch {
    return [];
  }
}

/** What the signed-in identity visited (read the token now). */
export function readVisits(): string[] {
  const key = visitsKey();
  return pending.get(key) ?? storedVisits(key);
}

export function rememberVisit(location: string): void {
  const key = visitsKey();
  const visits = pending.get(key) ?? storedVisits(key);
  if (visits[0] !== location) pending.set(key, addVisit(visits, location));
}

/** Stores the signed-in identity's visits; those of identities signed out since are dropped. */
export function flushVisits(): void {
  const key = visitsKey();
  const visits = pending.get(key);
  pending.clear();
  if (visits === undefined) return;
  try {
    storage()?.setItem(key, JSON.stringify(visits));
  } catch {
    // Full or refused storage: recent items are a convenience.
  }
}

// Another identity signing in, or a sign-out, ends the previous identity's visits here too, as
// writeAccessToken forgets what was stored for it.
subscribeAccessToken(() => {
  const key = visitsKey();
  for (const other of pending.keys()) if (other !== key) pending.delete(other);
});

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushVisits);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushVisits();
  });
}

import { identityDataStorage, identityScopedKey } from '@/api/access-token';

/**
 * The pages the signed-in identity visited, newest first, as locations (`/contracts/00ab…`), kept
 * as long as that identity's sign-in (see identityDataStorage), for the search box's recent items.
 * Recorded by the shell on every navigation, so this module stays small and reads nothing into
 * links: the search box turns a location back into an item only through the app's routes.
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

/** What the signed-in identity visited (read the token now). */
export function readVisits(): string[] {
  try {
    return parseVisits(identityDataStorage()?.getItem(visitsKey()));
  } catch {
    return [];
  }
}

export function rememberVisit(location: string): void {
  try {
    const storage = identityDataStorage();
    const key = visitsKey();
    const visits = parseVisits(storage?.getItem(key));
    if (visits[0] === location) return;
    storage?.setItem(key, JSON.stringify(addVisit(visits, location)));
  } catch {
    // Full or refused storage: recent items are a convenience.
  }
}

import { matchPath } from 'react-router';
import type { RecentItem } from '@/features/search/search-palette';
import { recognizeId, type IdKind } from '@/lib/values/id-recognition';
import { idFromRouteSegment, paths } from '@/app/paths';
import { parseOwnLocation } from './own-location';

/**
 * The search box's recent item a visited location stands for: the page of one id (read back
 * through `recognizeId`, as typed input is), or a page or action of the search box. Anything else
 * (a list's second page, a form's prefill) is no item. Pure.
 */

/** The routes whose page is one id's, with the id's kind and its link. */
const ID_ROUTES: readonly {
  pattern: string;
  param: string;
  kind: IdKind;
  to: (id: string) => string;
}[] = [
  { pattern: paths.contract.pattern, param: 'contractId', kind: 'contract', to: paths.contract.to },
  { pattern: paths.party.pattern, param: 'party', kind: 'party', to: (id) => paths.party.to(id) },
  { pattern: paths.user.pattern, param: 'userId', kind: 'user', to: (id) => paths.user.to(id) },
  { pattern: paths.package.pattern, param: 'packageId', kind: 'package', to: paths.package.to },
];

export function recentItemOfLocation(
  location: string,
  actions: readonly { id: string; to: string }[],
): RecentItem | undefined {
  const url = parseOwnLocation(location);
  if (url === undefined) return undefined;
  const path = `${url.pathname}${url.search}`;
  const action = actions.find((candidate) => candidate.to === path);
  if (action) return { kind: 'action', actionId: action.id };

  if (url.pathname === paths.transactions.pattern) {
    const updateId = url.searchParams.get('update');
    return updateId === null ? undefined : idItem(updateId, 'update');
  }
  for (const route of ID_ROUTES) {
    const segment = matchPath(route.pattern, url.pathname)?.params[route.param];
    if (segment === undefined) continue;
    // matchPath leaves the segment as the URL spells it; the router's params are decoded.
    const id = idFromRouteSegment(safeDecode(segment));
    // The id's own link leads here: `/users/new` is the form, not the user "new" (`/users/*new`).
    if (!samePath(parseOwnLocation(route.to(id))?.pathname ?? '', url.pathname)) continue;
    return idItem(id, route.kind);
  }
  return undefined;
}

function idItem(text: string, kind: IdKind): RecentItem | undefined {
  const id = recognizeId(text).candidates.find((candidate) => candidate.kind === kind);
  return id && { kind: 'id', id };
}

/** Equal paths, however each spells its characters (`@` or `%40`). */
function samePath(a: string, b: string): boolean {
  return safeDecode(a) === safeDecode(b);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

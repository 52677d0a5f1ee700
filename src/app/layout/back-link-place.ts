import { useSyncExternalStore } from 'react';
import { matchPath, useLocation } from 'react-router';
import { paths } from '@/app/paths';
import { cameFromOf, subscribeToLocations } from './came-from';
import { navGroups } from './nav-items';
import { parseOwnLocation } from './own-location';

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
  const from = useSyncExternalStore(subscribeToLocations, () => cameFromOf(key));
  return (from === undefined ? undefined : placeOf(from)) ?? fallback;
}

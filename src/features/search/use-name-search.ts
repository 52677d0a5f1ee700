import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { PackageContents } from '@/api/daml-lf-decoder';
import { useMemo } from 'react';
import { comparePackageVersions, packageQueries } from '@/api/packages';
import { partyQueries } from '@/api/parties';
import { cachedIds, LATEST_SCAN_OFFSETS, seenIdQueries } from '@/api/seen-ids';
import { isEmptyScope, readScopeOf } from '@/api/updates';
import { MAX_USERS_PAGE_SIZE, userQueries } from '@/api/users';
import type { Access, Caller } from '@/lib/access/access-rights';
import { formatCount } from '@/lib/text/format';
import { isStandardLibrary } from '@/lib/values/standard-library';
import {
  declarationEntries,
  matchEntries,
  packageEntries,
  partyEntries,
  seenContractEntries,
  seenUpdateEntries,
  userEntries,
  type EntryLinks,
  type EntryMatch,
  type PackageDeclarations,
  type PackageSource,
  type SearchEntry,
  type SeenContract,
  type SeenUpdate,
} from './search-entries';
import { normalizeNeedle } from './search-match';

/** Names are searched from this many characters on: one letter would match nearly everything. */
export const MIN_NAME_QUERY_LENGTH = 2;

/** Ids are searched by their start from this many hex digits on. */
export const MIN_ID_PREFIX_LENGTH = 4;

/**
 * At most this many packages are decoded for their templates and choices (the newest version of
 * each name, the standard library left out): each is a download and a decode in the worker.
 */
export const MAX_DECODED_PACKAGES = 20;

const HEX_PREFIX = /^[0-9a-f]+$/;

const isNameQuery = (needle: string) => needle.length >= MIN_NAME_QUERY_LENGTH;
const isIdPrefixQuery = (needle: string) =>
  needle.length >= MIN_ID_PREFIX_LENGTH && HEX_PREFIX.test(needle);

export type NameSearch = {
  matches: EntryMatch[];
  /** What was searched only in part, or is still being read, for the line under the results. */
  notes: string[];
};

type NameSearchInput = {
  /** The input, matched as typed: matching what is loaded is cheap, and keeps Enter in step. */
  text: string;
  /** The input, debounced: what it asks to read (each list once, when a name is first typed). */
  loadText: string;
  caller: Caller | undefined;
  access: Access;
  /** This participant's vetted packages, each id once (the palette reads the vetting list). */
  packages: readonly PackageSource[];
  links: EntryLinks;
};

/**
 * Finds users, parties, templates, interfaces, choices and packages by name, and update and
 * contract ids by their start, among what the caller may list: lists it may not read are left
 * out without a word, lists longer than a page are searched in their first page, and saying so.
 * Nothing is read before a name or an id start is typed.
 */
export function useNameSearch({
  text,
  loadText,
  caller,
  access,
  packages,
  links,
}: NameSearchInput): NameSearch {
  const needle = normalizeNeedle(text);
  const isName = isNameQuery(needle);
  const isIdPrefix = isIdPrefixQuery(needle);
  const loadNeedle = normalizeNeedle(loadText);
  const loadsNames = isNameQuery(loadNeedle);
  const loadsIds = isIdPrefixQuery(loadNeedle);
  const inline = { retry: false, meta: { errorDisplay: 'inline' } } as const;

  const users = useQuery({
    ...userQueries.list({ pageSize: MAX_USERS_PAGE_SIZE, pageToken: '' }),
    enabled: loadsNames && access.canManageUsers,
    ...inline,
  });
  const parties = useQuery({
    ...partyQueries.options(access.administeredIdentityProviderId ?? ''),
    enabled: loadsNames && access.canManageUsers,
    ...inline,
  });
  const decodable = useMemo(() => newestOfEachName(packages), [packages]);
  const decoded = useQueries({
    queries: decodable.slice(0, MAX_DECODED_PACKAGES).map((pkg) => ({
      ...packageQueries.contents(pkg.packageId),
      enabled: loadsNames,
      ...inline,
    })),
    combine: decodedContents,
  });
  const scope = caller === undefined ? undefined : readScopeOf(caller);
  const latest = useQuery({
    ...seenIdQueries.latest(scope ?? { kind: 'parties', parties: [] }),
    enabled: loadsIds && scope !== undefined && !isEmptyScope(scope),
    ...inline,
  });
  const queryClient = useQueryClient();

  const userList = users.data?.users;
  const partyList = parties.data?.parties;
  const declarations = useMemo(
    () =>
      declarationEntries(
        decoded.contents.flatMap((contents, index): PackageDeclarations[] => {
          const pkg = decodable[index];
          return contents && pkg ? [{ ...pkg, modules: contents.modules }] : [];
        }),
        links,
      ),
    [links, decodable, decoded.contents],
  );
  const named = useMemo((): SearchEntry[] => {
    const ownUser =
      caller?.kind === 'user' && !access.canManageUsers
        ? [{ id: caller.userId, identityProviderId: caller.identityProviderId }]
        : [];
    return [
      ...userEntries(userList ?? ownUser, links),
      ...partyEntries(partyList ?? ownParties(caller, access), links),
      ...packageEntries(packages, links),
    ];
  }, [userList, partyList, packages, caller, access, links]);

  const seen = useMemo((): SearchEntry[] => {
    if (!isIdPrefix) return [];
    const scanned = latest.data ?? [];
    const where = { kind: 'scan', updates: scanned.length } as const;
    const updates: SeenUpdate[] = scanned.map(({ updateId, offset }) => ({
      updateId,
      offset,
      where,
    }));
    const contracts: SeenContract[] = scanned.flatMap(({ offset, contracts: named }) =>
      named.map((contract) => ({ ...contract, offset, where })),
    );
    const cached = cachedIds(queryClient);
    const session = { kind: 'session' } as const;
    updates.push(...cached.updates.map((update) => ({ ...update, where: session })));
    contracts.push(...cached.contracts.map((contract) => ({ ...contract, where: session })));
    return [...seenUpdateEntries(updates, links), ...seenContractEntries(contracts, links)];
    // The cache is read when the input or the scan changes, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isIdPrefix, needle, latest.data, links, queryClient]);

  const matches = useMemo(
    () => (isName ? matchEntries(needle, [...named, ...declarations, ...seen]) : []),
    [isName, needle, named, declarations, seen],
  );

  const notes: string[] = [];
  if (isName) {
    if (users.data?.nextPageToken) {
      notes.push(`first ${formatCount(userList?.length ?? 0, 'user', 'users')} searched`);
    }
    if (parties.data && !parties.data.isComplete) {
      notes.push(`first ${formatCount(partyList?.length ?? 0, 'party', 'parties')} searched`);
    }
    const { reading } = decoded;
    if (reading > 0) {
      notes.push(`reading the templates of ${formatCount(reading, 'package', 'packages')}`);
    } else if (decodable.length > MAX_DECODED_PACKAGES) {
      notes.push(
        `templates of the first ${String(MAX_DECODED_PACKAGES)} of ${formatCount(decodable.length, 'package', 'packages')} searched`,
      );
    }
  }
  if (isIdPrefix && latest.isPending && latest.fetchStatus === 'fetching') {
    notes.push(`reading the updates of the last ${String(LATEST_SCAN_OFFSETS)} offsets`);
  }
  return { matches, notes };
}

/**
 * The decoded packages, and how many are still being read. A stable function: useQueries then
 * gives the same arrays back until a package's answer changes.
 */
function decodedContents(results: readonly UseQueryResult<PackageContents>[]) {
  return {
    contents: results.map((result) => result.data),
    reading: results.filter((result) => result.isPending && result.fetchStatus === 'fetching')
      .length,
  };
}

/** The newest version of each package name outside the standard library, by name. */
function newestOfEachName(packages: readonly PackageSource[]): PackageSource[] {
  const newest = new Map<string, PackageSource>();
  for (const pkg of packages) {
    if (isStandardLibrary(pkg.name)) continue;
    const known = newest.get(pkg.name);
    if (!known || comparePackageVersions(pkg.version, known.version) > 0) newest.set(pkg.name, pkg);
  }
  return [...newest.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A caller who may not list parties still knows its own: those of its rights. */
function ownParties(caller: Caller | undefined, access: Access): { party: string }[] {
  if (caller?.kind !== 'user' || access.canManageUsers) return [];
  const own = new Set<string>();
  for (const right of caller.rights) if ('party' in right) own.add(right.party);
  return [...own].sort().map((party) => ({ party }));
}

import { comparePackageVersions } from '@/api/packages';
import { type VettedPackages } from '@/api/package-vetting';
import { isStandardLibrary } from '@/lib/values/standard-library';

/** What the list knows of one package id. */
export type PackageRow = {
  packageId: string;
  /** Undefined while the archive is being decoded, or when it could not be. */
  name: string | undefined;
  version: string | undefined;
  /** Synchronizers this participant has vetted the package on. */
  vettedOn: string[];
  /** Where the name and version came from, if known. */
  source: 'vetting' | 'archive' | 'unknown';
};

export type PackageHeader = { name: string; version: string };

/**
 * One row per package id the participant stores: its name and version from the vetting list, else
 * from its decoded archive (`decoded`), and the synchronizers it is vetted on.
 */
export function toPackageRows(
  packageIds: readonly string[],
  vetting: readonly VettedPackages[],
  decoded: ReadonlyMap<string, PackageHeader>,
): PackageRow[] {
  const fromVetting = new Map<string, { name: string; version: string; vettedOn: string[] }>();
  for (const entry of vetting) {
    for (const pkg of entry.packages) {
      const known = fromVetting.get(pkg.packageId);
      if (known) {
        known.vettedOn.push(entry.synchronizerId);
        continue;
      }
      fromVetting.set(pkg.packageId, {
        name: pkg.packageName ?? '',
        version: pkg.packageVersion ?? '',
        vettedOn: [entry.synchronizerId],
      });
    }
  }
  return packageIds.map((packageId) => {
    const vetted = fromVetting.get(packageId);
    // The vetting list leaves the name empty for packages it does not know the metadata of.
    if (vetted && vetted.name !== '') {
      return { packageId, ...vetted, source: 'vetting' };
    }
    const header = decoded.get(packageId);
    return {
      packageId,
      name: header?.name,
      version: header?.version,
      vettedOn: vetted?.vettedOn ?? [],
      source: header ? 'archive' : 'unknown',
    };
  });
}

/** Ids whose name the vetting list does not give: their archives must be decoded. */
export function idsWithoutName(
  packageIds: readonly string[],
  vetting: readonly VettedPackages[],
): string[] {
  const named = new Set(
    vetting.flatMap((entry) =>
      entry.packages.filter((pkg) => pkg.packageName).map((pkg) => pkg.packageId),
    ),
  );
  return packageIds.filter((id) => !named.has(id));
}

/** Case-insensitive match on name, version or id. */
export function filterPackageRows(rows: readonly PackageRow[], filter: string): PackageRow[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) =>
    [row.name ?? '', row.version ?? '', row.packageId].some((text) =>
      text.toLowerCase().includes(needle),
    ),
  );
}

// ── grouping by DAR ──────────────────────────────────────────────────────────────

// Shared with the search box, which leaves the standard library's packages undecoded.
export { isStandardLibrary };

/** A package under the DAR it came with. */
export type DependencyRow = {
  row: PackageRow;
  /** The other DARs (their main packages' names) that depend on it too. */
  alsoUsedBy: string[];
};

/**
 * One DAR as the list shows it: its main package (every version of that name the participant
 * stores, newest first) and the packages they depend on, other than the standard library.
 */
export type DarGroup = {
  name: string;
  mains: PackageRow[];
  dependencies: DependencyRow[];
};

export type PackageGrouping = {
  dars: DarGroup[];
  /** Standard-library packages, by name, newest first. */
  standardLibrary: PackageRow[];
  /** Packages whose name is not known (yet): their archives are being read, or could not be. */
  unnamed: PackageRow[];
};

/**
 * One collator for every comparison: `localeCompare` with a locale or options builds a collator
 * on each call, which made one sort of 200 names take about 10 ms (0.1 ms with this), and the list
 * sorts on every archive read.
 */
const compareNames = new Intl.Collator('en', { sensitivity: 'base' }).compare;

const byNameThenNewest = (a: PackageRow, b: PackageRow) =>
  compareNames(a.name ?? '', b.name ?? '') ||
  comparePackageVersions(b.version ?? '', a.version ?? '') ||
  (a.packageId < b.packageId ? -1 : 1);

/**
 * Groups packages by the DAR they came with. The participant does not say which DAR brought a
 * package, so the DARs are read from the packages themselves: a package no other (non-standard)
 * package depends on is a DAR's main package, and everything it reaches through `dependencies`
 * came with it. Main packages of one name (versions of one DAR) share a group. Until a package's
 * dependencies are known (absent from the map), it counts as depending on nothing.
 *
 * A dependency that several DARs use is listed once, under the first of them in the list's order,
 * with the others named in `alsoUsedBy`: every package id stays one row (so counts, filters and
 * links to a package find exactly one), and the others still say that they need it.
 *
 * Groups are in name order, except that `firstMainId` (a package just uploaded) puts its DAR first.
 */
export function groupByDar(
  rows: readonly PackageRow[],
  dependencies: ReadonlyMap<string, readonly string[]>,
  { firstMainId }: { firstMainId?: string } = {},
): PackageGrouping {
  const standardLibrary: PackageRow[] = [];
  const unnamed: PackageRow[] = [];
  const own = new Map<string, PackageRow>();
  for (const row of rows) {
    if (row.name === undefined) unnamed.push(row);
    else if (isStandardLibrary(row.name)) standardLibrary.push(row);
    else own.set(row.packageId, row);
  }
  const ownDependencies = (packageId: string) =>
    (dependencies.get(packageId) ?? []).filter((id) => id !== packageId && own.has(id));

  const hasParent = new Set<string>();
  for (const packageId of own.keys()) {
    for (const dependency of ownDependencies(packageId)) hasParent.add(dependency);
  }
  const byName = new Map<string, PackageRow[]>();
  for (const row of own.values()) {
    if (hasParent.has(row.packageId) || row.name === undefined) continue;
    const mains = byName.get(row.name);
    if (mains) mains.push(row);
    else byName.set(row.name, [row]);
  }
  const names = [...byName.keys()].sort(compareNames);
  const first = firstMainId === undefined ? undefined : own.get(firstMainId)?.name;
  if (first !== undefined && byName.has(first)) {
    names.splice(names.indexOf(first), 1);
    names.unshift(first);
  }

  // Every DAR's reach, in the list's order; a dependency is placed under the first that has it.
  const reach = names.map((name) => {
    const mains = byName.get(name) ?? [];
    const seen = new Set<string>(mains.map((row) => row.packageId));
    const found: string[] = [];
    const queue = mains.map((row) => row.packageId);
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const dependency of ownDependencies(next)) {
        if (seen.has(dependency)) continue;
        seen.add(dependency);
        found.push(dependency);
        queue.push(dependency);
      }
    }
    return { name, mains, found };
  });
  const usedBy = new Map<string, string[]>();
  for (const { name, found } of reach) {
    for (const packageId of found) {
      const users = usedBy.get(packageId);
      if (users) users.push(name);
      else usedBy.set(packageId, [name]);
    }
  }
  const dars = reach.map(({ name, mains, found }) => ({
    name,
    mains: [...mains].sort(byNameThenNewest),
    dependencies: found
      .filter((packageId) => usedBy.get(packageId)?.[0] === name)
      .map((packageId) => own.get(packageId))
      .filter((row): row is PackageRow => row !== undefined)
      .sort(byNameThenNewest)
      .map((row) => ({
        row,
        alsoUsedBy: (usedBy.get(row.packageId) ?? []).filter((user) => user !== name),
      })),
  }));
  return { dars, standardLibrary: standardLibrary.sort(byNameThenNewest), unnamed };
}

/** The grouping with only the rows that match `filter`, plus the main packages of their DARs. */
export function filterGrouping(grouping: PackageGrouping, filter: string): PackageGrouping {
  if (!filter.trim()) return grouping;
  const matches = new Set(
    filterPackageRows(
      [
        ...grouping.dars.flatMap((dar) => [
          ...dar.mains,
          ...dar.dependencies.map(({ row }) => row),
        ]),
        ...grouping.standardLibrary,
        ...grouping.unnamed,
      ],
      filter,
    ).map((row) => row.packageId),
  );
  const dars = grouping.dars.flatMap((dar) => {
    const dependencies = dar.dependencies.filter(({ row }) => matches.has(row.packageId));
    const isMainMatch = dar.mains.some((row) => matches.has(row.packageId));
    if (!isMainMatch && dependencies.length === 0) return [];
    // A matching dependency keeps its DAR's main packages, which say where it came from.
    return [{ ...dar, dependencies }];
  });
  return {
    dars,
    standardLibrary: grouping.standardLibrary.filter((row) => matches.has(row.packageId)),
    unnamed: grouping.unnamed.filter((row) => matches.has(row.packageId)),
  };
}

import type { VettedPackages } from '@/api/packages';

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

/** All versions of one package name, newest first. */
export type PackageGroup = {
  /** Undefined for packages whose name is not known (yet). */
  name: string | undefined;
  rows: PackageRow[];
};

export type PackageHeader = { name: string; version: string };

/**
 * Daml package versions are dot-separated numbers (`1.0.0`, `3.4.0`): compared numerically, part by
 * part, so 1.10 comes after 1.9. Anything else falls back to text order.
 */
export function comparePackageVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = Number(left[i] ?? -1) - Number(right[i] ?? -1);
    if (Number.isNaN(diff)) break;
    if (diff !== 0) return diff;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

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

/** Groups by name (alphabetically, unknown names last), versions newest first. */
export function groupPackages(rows: readonly PackageRow[]): PackageGroup[] {
  const byName = new Map<string | undefined, PackageRow[]>();
  for (const row of rows) {
    const group = byName.get(row.name);
    if (group) group.push(row);
    else byName.set(row.name, [row]);
  }
  const groups = [...byName].map(([name, groupRows]) => ({
    name,
    rows: groupRows.sort(
      (a, b) =>
        comparePackageVersions(b.version ?? '', a.version ?? '') ||
        (a.packageId < b.packageId ? -1 : 1),
    ),
  }));
  return groups.sort((a, b) => {
    if (a.name === undefined) return 1;
    if (b.name === undefined) return -1;
    return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
  });
}

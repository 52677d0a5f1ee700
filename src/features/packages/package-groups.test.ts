import { describe, expect, it } from 'vitest';
import type { VettedPackages } from '@/api/package-vetting';
import {
  filterGrouping,
  filterPackageRows,
  groupByDar,
  idsWithoutName,
  isStandardLibrary,
  toPackageRows,
  type PackageGrouping,
  type PackageRow,
} from './package-groups';

const id = (n: number) => String(n).repeat(64).slice(0, 64);

const vetting: VettedPackages[] = [
  {
    synchronizerId: 'alpha::1220aa',
    participantId: 'p::1220',
    topologySerial: 3,
    packages: [
      { packageId: id(1), packageName: 'finance', packageVersion: '1.9.0' },
      { packageId: id(2), packageName: 'finance', packageVersion: '1.10.0' },
      // Vetted, but the participant does not know its metadata.
      { packageId: id(4), packageName: '', packageVersion: '' },
    ],
  },
  {
    synchronizerId: 'beta::1220bb',
    participantId: 'p::1220',
    topologySerial: 1,
    packages: [{ packageId: id(2), packageName: 'finance', packageVersion: '1.10.0' }],
  },
];

describe('package rows', () => {
  it('take names from the vetting list, else from the decoded archive', () => {
    const decoded = new Map([
      [id(3), { name: 'Assets', version: '2.0.0' }],
      [id(4), { name: 'finance', version: '0.1.0' }],
    ]);
    const rows = toPackageRows([id(1), id(2), id(3), id(4), id(5)], vetting, decoded);

    expect(rows).toEqual([
      {
        packageId: id(1),
        name: 'finance',
        version: '1.9.0',
        vettedOn: ['alpha::1220aa'],
        source: 'vetting',
      },
      {
        packageId: id(2),
        name: 'finance',
        version: '1.10.0',
        vettedOn: ['alpha::1220aa', 'beta::1220bb'],
        source: 'vetting',
      },
      { packageId: id(3), name: 'Assets', version: '2.0.0', vettedOn: [], source: 'archive' },
      {
        packageId: id(4),
        name: 'finance',
        version: '0.1.0',
        vettedOn: ['alpha::1220aa'],
        source: 'archive',
      },
      { packageId: id(5), name: undefined, version: undefined, vettedOn: [], source: 'unknown' },
    ]);
    expect(idsWithoutName([id(1), id(2), id(3), id(4), id(5)], vetting)).toEqual([
      id(3),
      id(4),
      id(5),
    ]);
  });

  it('filter by name, version or id, ignoring case', () => {
    const rows = toPackageRows([id(1), id(2), id(3)], vetting, new Map());

    expect(filterPackageRows(rows, ' FIN ').map((row) => row.packageId)).toEqual([id(1), id(2)]);
    expect(filterPackageRows(rows, '1.10').map((row) => row.packageId)).toEqual([id(2)]);
    expect(filterPackageRows(rows, id(3).slice(0, 12)).map((row) => row.packageId)).toEqual([
      id(3),
    ]);
    expect(filterPackageRows(rows, '')).toHaveLength(3);
  });
});

describe('isStandardLibrary', () => {
  it('knows the SDK’s packages by name', () => {
    for (const name of [
      'daml-prim',
      'daml-stdlib',
      'ghc-stdlib',
      'daml-script',
      'daml3-script',
      'daml-prim-DA-Types',
      'daml-prim-GHC-Tuple',
      'daml-stdlib-DA-Internal-Template',
      'ghc-stdlib-DA-Internal-Template',
    ]) {
      expect(isStandardLibrary(name), name).toBe(true);
    }
    for (const name of ['finance', 'daml-finance-interface', 'my-daml-prim', 'daml-primer', '']) {
      expect(isStandardLibrary(name), name).toBe(false);
    }
    expect(isStandardLibrary(undefined)).toBe(false);
  });
});

describe('groupByDar', () => {
  const row = (n: number, name: string | undefined, version = '1.0.0'): PackageRow => ({
    packageId: id(n),
    name,
    version,
    vettedOn: [],
    source: 'vetting',
  });
  // Two DARs: `trading` (1 → 2 → 3, and the standard library) and `settlement` (4 → 3, 5),
  // sharing the library package 3; `upgrade-demo` in two versions (6, 7); 8 not named yet.
  const rows = [
    row(1, 'trading'),
    row(2, 'trading-model'),
    row(3, 'shared-lib'),
    row(4, 'settlement', '2.0.0'),
    row(5, 'settlement-types'),
    row(6, 'upgrade-demo', '1.0.0'),
    row(7, 'upgrade-demo', '1.1.0'),
    row(8, undefined),
    row(9, 'daml-prim'),
    row(10, 'daml-stdlib-DA-Time-Types'),
  ];
  const dependencies = new Map<string, string[]>([
    [id(1), [id(2), id(9), id(10)]],
    [id(2), [id(3), id(9)]],
    [id(3), [id(9)]],
    [id(4), [id(3), id(5)]],
    [id(5), []],
    [id(6), []],
    [id(7), []],
  ]);
  const shape = (grouping: PackageGrouping) =>
    grouping.dars.map((dar) => ({
      name: dar.name,
      mains: dar.mains.map((main) => main.version),
      dependencies: dar.dependencies.map(
        ({ row: dependency, alsoUsedBy }) =>
          `${dependency.name ?? '?'}${alsoUsedBy.length ? ` (also ${alsoUsedBy.join(', ')})` : ''}`,
      ),
    }));

  it('puts dependencies under the DAR that brought them, the standard library apart', () => {
    const grouping = groupByDar(rows, dependencies);

    expect(shape(grouping)).toEqual([
      {
        name: 'settlement',
        mains: ['2.0.0'],
        dependencies: ['settlement-types', 'shared-lib (also trading)'],
      },
      { name: 'trading', mains: ['1.0.0'], dependencies: ['trading-model'] },
      { name: 'upgrade-demo', mains: ['1.1.0', '1.0.0'], dependencies: [] },
    ]);
    expect(grouping.standardLibrary.map((pkg) => pkg.name)).toEqual([
      'daml-prim',
      'daml-stdlib-DA-Time-Types',
    ]);
    expect(grouping.unnamed.map((pkg) => pkg.packageId)).toEqual([id(8)]);
    // Every package is in exactly one place.
    const placed = [
      ...grouping.dars.flatMap((dar) => [...dar.mains, ...dar.dependencies.map((d) => d.row)]),
      ...grouping.standardLibrary,
      ...grouping.unnamed,
    ].map((pkg) => pkg.packageId);
    expect([...placed].sort()).toEqual(rows.map((pkg) => pkg.packageId).sort());
  });

  it('puts a just-uploaded DAR first, and its shared dependencies under it', () => {
    const grouping = groupByDar(rows, dependencies, { firstMainId: id(1) });

    expect(shape(grouping).map((dar) => [dar.name, dar.dependencies])).toEqual([
      ['trading', ['shared-lib (also settlement)', 'trading-model']],
      ['settlement', ['settlement-types']],
      ['upgrade-demo', []],
    ]);
    // Not a main package: the order stays by name.
    expect(groupByDar(rows, dependencies, { firstMainId: id(3) }).dars[0]?.name).toBe('settlement');
  });

  it('orders DARs by name ignoring case, as a reader would', () => {
    const named = (n: number, name: string): PackageRow => ({
      packageId: id(n),
      name,
      version: '1.0.0',
      vettedOn: [],
      source: 'vetting',
    });
    const mixed = [named(1, 'zeta'), named(2, 'Beta'), named(3, 'alpha'), named(4, 'Gamma')];

    expect(groupByDar(mixed, new Map()).dars.map((dar) => dar.name)).toEqual([
      'alpha',
      'Beta',
      'Gamma',
      'zeta',
    ]);
  });

  it('counts a package whose dependencies are not known yet as a DAR of its own', () => {
    const partial = new Map(dependencies);
    partial.delete(id(1));

    expect(shape(groupByDar(rows, partial)).map((dar) => dar.name)).toEqual([
      'settlement',
      'trading',
      'trading-model',
      'upgrade-demo',
    ]);
  });

  it('filters rows, keeping the main packages of the DARs whose dependencies match', () => {
    const grouping = groupByDar(rows, dependencies);

    expect(shape(filterGrouping(grouping, 'TYPES'))).toEqual([
      { name: 'settlement', mains: ['2.0.0'], dependencies: ['settlement-types'] },
    ]);
    expect(filterGrouping(grouping, 'types').standardLibrary.map((pkg) => pkg.name)).toEqual([
      'daml-stdlib-DA-Time-Types',
    ]);
    expect(shape(filterGrouping(grouping, 'upgrade'))).toEqual([
      { name: 'upgrade-demo', mains: ['1.1.0', '1.0.0'], dependencies: [] },
    ]);
    expect(filterGrouping(grouping, '  ')).toBe(grouping);
  });
});

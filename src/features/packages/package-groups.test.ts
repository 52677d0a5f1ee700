import { describe, expect, it } from 'vitest';
import type { VettedPackages } from '@/api/packages';
import {
  comparePackageVersions,
  filterPackageRows,
  groupPackages,
  idsWithoutName,
  toPackageRows,
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

  it('group by name, versions newest first, unknown names last', () => {
    const rows = toPackageRows(
      [id(5), id(1), id(3), id(2)],
      vetting,
      new Map([[id(3), { name: 'assets', version: '2.0.0' }]]),
    );

    expect(
      groupPackages(rows).map((group) => [group.name, group.rows.map((row) => row.version)]),
    ).toEqual([
      ['assets', ['2.0.0']],
      ['finance', ['1.10.0', '1.9.0']],
      [undefined, [undefined]],
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

describe('comparePackageVersions', () => {
  it('compares part by part, numerically', () => {
    const versions = ['1.10.0', '1.9.0', '1.0', '2.0.0', '1.0.0'];
    expect([...versions].sort(comparePackageVersions)).toEqual([
      '1.0',
      '1.0.0',
      '1.9.0',
      '1.10.0',
      '2.0.0',
    ]);
  });
});

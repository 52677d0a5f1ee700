import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DarError } from '../daml-lf/dar-error';
import { readDar } from '../daml-lf/read-dar';
import {
  buildFixtureDar,
  FIXTURE_DAR_NAMES,
  FIXTURE_DAR_REFUSALS,
  FIXTURE_SDK_VERSION,
  fixtureDar,
  type FixtureDarName,
} from './fixture-dars';

const valid = FIXTURE_DAR_NAMES.filter((name) => !(name in FIXTURE_DAR_REFUSALS));

describe('the generated fixture DARs', () => {
  it('are built once per process, and the same bytes every time', () => {
    for (const name of FIXTURE_DAR_NAMES) {
      expect(fixtureDar(name)).toBe(fixtureDar(name));
      const again = buildFixtureDar(name);
      expect(again.bytes(), name).toEqual(fixtureDar(name).bytes());
      expect(again.packages).toEqual(fixtureDar(name).packages);
    }
  });

  it('keep their package ids from one build of the project to the next', () => {
    // Stable ids let a participant that kept its data (npm start, e2e) take the DARs again; an
    // encoder change that alters them must say so here.
    expect(
      Object.fromEntries(FIXTURE_DAR_NAMES.map((name) => [name, fixtureDar(name).main.packageId])),
    ).toEqual({
      workflows: '4cd78a8cd24c6f3577c4c1fc587bbd7f6abb8cb49832e17da97a9800b513a4bf',
      replication: '4c7a7d4f8bae584a6a4e375edf32d141819934a1bf3617dc3b75d8ca18af851b',
      definitions: 'e529d07bddf55a3b6feca88d9c7f8fd847be8ad4e70e39269dafaf36bffee657',
      upgradeV1: 'e635383e8d119c29f4a5355df3df4e682d7c32735199f6b00d843aa8f71b7f30',
      upgradeV2: 'be7a64831f07370ab55092a30960ad806ca4c2cc9d202d1eea02ea08c646d2db',
      upgradeIncompatible: '2ef310a245d977b6e6fb326bfa0e0d02ef58d9df3409c5c412575bb89f3dc259',
      illformed: '8983406fd24a89e57355e3fa01e29579ec2d33080a6a86bd2321fbf9994b1a12',
      lf1: 'dd1c9ba26131bef5e80e651195c4723c7c25184157439edcf6f90acb4150f639',
      large: '6d0134704c35147c09b8164333e233f64ad2837f98991be7498283aac331777c',
    });
  });

  it('hand out a fresh copy of the bytes on each call', () => {
    const dar = fixtureDar('workflows');
    const first = dar.bytes();
    first.fill(0);
    expect(dar.bytes()).not.toEqual(first);
    expect(dar.bytes().byteLength).toBe(dar.size);
  });

  it.each(valid)('%s reads back with the packages it lists, each id verified', async (name) => {
    const fixture = fixtureDar(name);
    const dar = await readDar(fixture.bytes());
    expect(
      dar.packages.map(({ packageId, name: pkg, version }) => ({ packageId, name: pkg, version })),
    ).toEqual(fixture.packages);
    expect(dar.main.packageId).toBe(fixture.main.packageId);
    expect(fixture.title).toBe(`${dar.main.name} ${dar.main.version}`);
    for (const pkg of dar.packages) {
      expect(createHash('sha256').update(pkg.payload).digest('hex')).toBe(pkg.packageId);
      expect(`${String(pkg.lfVersion.major)}.${pkg.lfVersion.minor}`).toBe('2.1');
    }
    if (fixture.packages.length > 1) {
      // Laid out as damlc does: every DALF under a folder named after the main package.
      const folder = `${fixture.main.name}-${fixture.main.version}-${fixture.main.packageId}/`;
      expect(dar.packages.every((pkg) => pkg.dalfName.startsWith(folder))).toBe(true);
      expect(dar.manifest.sdkVersion).toBe(FIXTURE_SDK_VERSION);
    }
  });

  it.each([
    [
      'illformed',
      'VALIDATION_FAILED',
      /Type checking failed: Mod:x is declared as Bool but defined as \(\)$/,
    ],
    ['lf1', 'UNSUPPORTED_LF_VERSION', /Daml-LF 1\.15 is not supported/],
  ] as const)(
    '%s is refused by the reader as %s',
    async (name: FixtureDarName, reason, message) => {
      const fixture = fixtureDar(name);
      const error = await readDar(fixture.bytes()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DarError);
      expect(error).toMatchObject({ reason, details: { packageId: fixture.main.packageId } });
      expect((error as DarError).message).toMatch(message);
    },
  );

  it('share the prim packages between DARs, but not the stdlib version', () => {
    const idOf = (dar: FixtureDarName, pkg: string) => fixtureDar(dar).packageNamed(pkg);
    for (const shared of ['fixture-prim-DA-Types', 'fixture-prim-DA-Internal-Template']) {
      expect(idOf('workflows', shared)).toEqual(idOf('replication', shared));
      expect(idOf('workflows', shared)).toEqual(idOf('definitions', shared));
    }
    expect(idOf('workflows', 'fixture-stdlib').version).toBe('1.0.0');
    expect(idOf('replication', 'fixture-stdlib').version).toBe('1.1.0');
    expect(idOf('definitions', 'fixture-stdlib')).toEqual(idOf('workflows', 'fixture-stdlib'));
    expect(() => fixtureDar('upgradeV1').packageNamed('fixture-stdlib')).toThrow(/no package/);
  });

  it('name their files after the main package, and hold no other entries', () => {
    for (const name of FIXTURE_DAR_NAMES) {
      const fixture = fixtureDar(name);
      expect(fixture.file).toBe(`${fixture.main.name}-${fixture.main.version}.dar`);
      const entries = Object.keys(unzipSync(fixture.bytes()));
      expect(entries).toHaveLength(fixture.packages.length + 1);
      expect(entries).toContain('META-INF/MANIFEST.MF');
    }
  });
});

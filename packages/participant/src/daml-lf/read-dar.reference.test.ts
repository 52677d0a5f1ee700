import { readdirSync, readFileSync, statSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceDir, referencePath } from '../testing/reference-dir';
import type { DarErrorReason } from './dar-error';
import { decodeArchive } from './decode-archive';
import { formatType } from './format-type';
import {
  checkDefinitionsDar,
  checkPingModule,
  checkValidDar,
  choicesByTemplate,
  expectDarError,
  findTemplate,
  reportReadTime,
} from '../testing/dar-checks';
import { readDar, type Dar } from './read-dar';

/**
 * The decoder against the Canton team's own DARs, read in place from $CANTON_REFERENCE_DIR: the
 * default suite (read-dar.test.ts) checks the same on the project's generated DARs.
 */
const dir = referenceDir();
const fixture = (name: string) =>
  new Uint8Array(readFileSync(referencePath('fixtures', 'dars', name)));
/** Canton's DARs by name, so that the skipped checks are counted when no folder is given. */
const allFixtures = [
  'DamlDefinitionsServiceMain.dar',
  'canton-builtin-admin-workflow-party-replication-alpha.dar',
  'canton-builtin-admin-workflow-ping.dar',
  'dummy-1.15.dar',
  'illformed.dar',
];

/** Fixtures that must be rejected, and why. */
const REJECTED: Record<string, DarErrorReason> = {
  'illformed.dar': 'VALIDATION_FAILED',
  'dummy-1.15.dar': 'UNSUPPORTED_LF_VERSION',
};
const validFixtures = allFixtures.filter((name) => !(name in REJECTED));

/** What we know about the valid fixtures' main packages (from their manifests and sources). */
const MAINS: Record<
  string,
  { name: string; version: string; lf: string; id: string; sdk: string; count: number }
> = {
  'canton-builtin-admin-workflow-ping.dar': {
    name: 'canton-builtin-admin-workflow-ping',
    version: '3.4.0',
    lf: '2.2',
    id: 'de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54',
    sdk: '3.4.0-snapshot.20251020.14338.0.v0c8ae53c',
    count: 30,
  },
  'canton-builtin-admin-workflow-party-replication-alpha.dar': {
    name: 'canton-builtin-admin-workflow-party-replication-alpha',
    version: '3.5.0',
    lf: '2.2',
    id: '8541ef08471ba3c76985347802fce4f7133435cb12110b9c9a1c050c7cb8b8c5',
    sdk: '3.5.0-snapshot.20251016.14332.0.vff0c54f6',
    count: 30,
  },
  'DamlDefinitionsServiceMain.dar': {
    name: 'DamlDefinitionsServiceMain',
    version: '3.4.0',
    lf: '2.dev',
    id: '14f62ac81f5802d0a02aaf6516ac066a96b0ccb170bd64d271cc69ff4bd92da8',
    sdk: '3.4.0-snapshot.20250901.14164.0.va27662f3',
    count: 31,
  },
};

describe.skipIf(!dir)("readDar on Canton's DARs", () => {
  it('finds exactly the DARs named here in the reference folder', () => {
    const present = readdirSync(referencePath('fixtures', 'dars')).filter((name) =>
      name.endsWith('.dar'),
    );
    expect(present.sort()).toEqual([...allFixtures].sort());
    for (const name of Object.keys(REJECTED)) expect(allFixtures).toContain(name);
  });

  describe.each(validFixtures)('%s', (file) => {
    const decodedDar = checkValidDar(() => fixture(file));

    it('has the expected main package and manifest', () => {
      const dar = decodedDar();
      const expected = MAINS[file];
      if (!expected) return; // a fixture added later still gets the generic checks above
      expect(dar.main).toMatchObject({
        name: expected.name,
        version: expected.version,
        packageId: expected.id,
      });
      expect(`${dar.main.lfVersion.major}.${dar.main.lfVersion.minor}`).toBe(expected.lf);
      expect(dar.packages).toHaveLength(expected.count);
      expect(dar.manifest).toMatchObject({
        name: `${expected.name}-${expected.version}`,
        sdkVersion: expected.sdk,
        format: 'daml-lf',
      });
      expect(dar.manifest.attributes['Created-By']).toBe('damlc');
    });
  });
});

describe.skipIf(!dir)('canton-builtin-admin-workflow-ping.dar', () => {
  let dar: Dar;
  beforeAll(async () => {
    dar = await readDar(fixture('canton-builtin-admin-workflow-ping.dar'));
  });

  it('has the Ping and Bong modules', () => {
    expect(dar.main.modules.map((m) => m.name).sort()).toEqual([
      'Canton.Internal.Bong',
      'Canton.Internal.Ping',
      'CantonBuiltinAdminWorkflowPing',
    ]);
  });

  checkPingModule(() => dar, {
    module: 'Canton.Internal.Ping',
    templatePackage: 'ghc-stdlib-DA-Internal-Template',
  });

  it('decodes the Bong module’s templates and choices', () => {
    expect(choicesByTemplate(dar.main, 'Canton.Internal.Bong')).toEqual({
      BongProposal: ['AbortBongProposal', 'Accept', 'Archive'],
      Bong: ['AbortBong', 'Ack', 'Archive'],
      Explode: ['AbortExplode', 'Archive', 'ProcessExplode'],
      Merge: ['AbortMerge', 'Archive', 'ProcessMerge'],
      Collapse: ['AbortCollapse', 'Archive', 'ProcessCollapse'],
    });
    const accept = findTemplate(dar.main, 'Canton.Internal.Bong', 'BongProposal').choices.find(
      (c) => c.name === 'Accept',
    );
    expect(accept && formatType(accept.returnType)).toBe(
      'DA.Types:Either (ContractId Canton.Internal.Bong:BongProposal) (ContractId Canton.Internal.Bong:Explode)',
    );
    expect(
      findTemplate(dar.main, 'Canton.Internal.Bong', 'Bong').fields.map(
        (f) => `${f.name}: ${formatType(f.type)}`,
      ),
    ).toEqual([
      'id: Text',
      'initiator: Party',
      'validators: List Party',
      'responder: Party',
      'observers: List Party',
      'timeout: Timestamp',
    ]);
  });
});

describe.skipIf(!dir)('DamlDefinitionsServiceMain.dar', () => {
  checkDefinitionsDar(() => fixture('DamlDefinitionsServiceMain.dar'), 'DamlDefinitionsServiceDep');
});

describe.skipIf(!dir)("readDar rejects Canton's broken DARs", () => {
  it('illformed.dar as VALIDATION_FAILED (it parses, but does not type-check, like in Canton)', async () => {
    const error = await expectDarError(readDar(fixture('illformed.dar')), 'VALIDATION_FAILED');
    expect(error.message).toBe(
      'archive.dalf: Type checking failed: Mod:x is declared as Bool but defined as ()',
    );
    expect(error.details).toEqual({
      entry: 'archive.dalf',
      packageId: 'dc0563f935abf08b498003bcf8ec6b070a619ff05ae4a091572863947cc8901c',
    });
  });

  it('the LF 1.15 dummy-1.15.dar as UNSUPPORTED_LF_VERSION, after checking its hash', async () => {
    const packageId = '968b64d6f60d3643a9554d5ea10bae48b0eac89be3598c369426d382b9b9cc2b';
    const error = await expectDarError(
      readDar(fixture('dummy-1.15.dar')),
      'UNSUPPORTED_LF_VERSION',
    );
    expect(error.details).toEqual({ entry: 'archive.dalf', packageId, lfVersion: '1.15' });
    // The wrapper itself decodes fine: the version and the hash are reported, not thrown.
    const dalf = unzipSync(fixture('dummy-1.15.dar'))['archive.dalf'] ?? new Uint8Array();
    const archive = await decodeArchive(dalf);
    expect(archive).toMatchObject({
      packageId,
      hashMatches: true,
      lfVersion: { major: 1, minor: '15' },
    });
  });
});

describe.skipIf(!dir)('decoding time', () => {
  it('reports how long the largest fixture DAR takes to read', async () => {
    const [largest] = validFixtures
      .map((name) => ({ name, size: statSync(referencePath('fixtures', 'dars', name)).size }))
      .sort((a, b) => b.size - a.size);
    if (!largest) throw new Error('no fixtures');
    const packages = await reportReadTime(largest.name, fixture(largest.name));
    expect(packages).toBeGreaterThan(0);
  });
});

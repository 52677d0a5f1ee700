import { unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeArchive } from './decode-archive';
import { formatType } from './format-type';
import {
  FIXTURE_DAR_NAMES,
  FIXTURE_DAR_REFUSALS,
  FIXTURE_SDK_VERSION,
  fixtureDar,
  type FixtureDarName,
} from '../testing/fixture-dars';
import {
  checkDefinitionsDar,
  checkPingModule,
  checkValidDar,
  choicesByTemplate,
  expectDarError,
  findTemplate,
  reportReadTime,
} from '../testing/dar-checks';
import { ProtobufWriter } from './protobuf-writer';
import { parseManifestAttributes, readDar, type Dar } from './read-dar';

// The project's generated DARs (fixture-dars.ts); read-dar.reference.test.ts reads Canton's.
const fixture = (name: FixtureDarName) => fixtureDar(name).bytes();
const validFixtures = FIXTURE_DAR_NAMES.filter((name) => !(name in FIXTURE_DAR_REFUSALS));

/** Rezips `entries` (stored uncompressed, which fflate and Canton both read). */
function zip(entries: Record<string, Uint8Array | string>): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(entries).map(([name, data]) => [
        name,
        typeof data === 'string' ? new TextEncoder().encode(data) : data,
      ]),
    ),
  );
}

const manifestFor = (main: string, dalfs: string[] = [main], format = 'daml-lf') =>
  `Manifest-Version: 1.0\r\nMain-Dalf: ${main}\r\nDalfs: ${dalfs.join(', ')}\r\nFormat: ${format}\r\n\r\n`;

describe('readDar on the fixture DARs', () => {
  it('finds the fixtures', () => {
    expect(validFixtures.length).toBeGreaterThanOrEqual(6);
    expect(Object.keys(FIXTURE_DAR_REFUSALS).sort()).toEqual(['illformed', 'lf1']);
  });

  describe.each(validFixtures)('%s', (file) => {
    const decodedDar = checkValidDar(() => fixture(file));

    it('has the expected main package and manifest', () => {
      const dar = decodedDar();
      const expected = fixtureDar(file);
      expect(dar.main).toMatchObject({
        name: expected.main.name,
        version: expected.main.version,
        packageId: expected.main.packageId,
      });
      expect(`${String(dar.main.lfVersion.major)}.${dar.main.lfVersion.minor}`).toBe('2.1');
      expect(dar.packages).toHaveLength(expected.packages.length);
      expect(dar.manifest).toMatchObject({
        name: `${expected.main.name}-${expected.main.version}`,
        format: 'daml-lf',
      });
      expect(dar.manifest.sdkVersion).toBe(
        expected.packages.length > 1 ? FIXTURE_SDK_VERSION : undefined,
      );
      expect(dar.manifest.attributes['Created-By']).toBe('ledger-console sandbox');
    });
  });
});

describe('the workflows DAR', () => {
  let dar: Dar;
  const PING = 'Fixture.Ping';
  const BONG = 'Fixture.Bong';
  beforeAll(async () => {
    dar = await readDar(fixture('workflows'));
  });

  it('has the Ping and Bong modules', () => {
    expect(dar.main.modules.map((m) => m.name).sort()).toEqual([BONG, PING, 'FixtureWorkflows']);
  });

  checkPingModule(() => dar, {
    module: PING,
    templatePackage: 'fixture-prim-DA-Internal-Template',
  });

  it('decodes the Bong module’s templates, their consuming and non-consuming choices', () => {
    expect(choicesByTemplate(dar.main, BONG)).toEqual({
      BongProposal: ['AbortBongProposal', 'Accept', 'Archive'],
      Bong: ['AbortBong', 'Ack (nonconsuming)', 'Archive'],
    });
    const accept = findTemplate(dar.main, BONG, 'BongProposal').choices.find(
      (c) => c.name === 'Accept',
    );
    expect(accept && formatType(accept.returnType)).toBe(
      'DA.Types:Either (ContractId Fixture.Bong:BongProposal) (ContractId Fixture.Bong:Bong)',
    );
    expect(
      findTemplate(dar.main, BONG, 'Bong').fields.map((f) => `${f.name}: ${formatType(f.type)}`),
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

describe('the definitions DAR', () => {
  checkDefinitionsDar(() => fixture('definitions'), 'fixture-definitions-dep');
});

describe('readDar rejects', () => {
  it('the illformed DAR as VALIDATION_FAILED (it parses, but does not type-check, like in Canton)', async () => {
    const { main } = fixtureDar('illformed');
    const entry = `${main.name}-${main.version}-${main.packageId}.dalf`;
    const error = await expectDarError(readDar(fixture('illformed')), 'VALIDATION_FAILED');
    expect(error.message).toBe(
      `${entry}: Type checking failed: Mod:x is declared as Bool but defined as ()`,
    );
    expect(error.details).toEqual({ entry, packageId: main.packageId });
  });

  it('the LF 1.15 DAR as UNSUPPORTED_LF_VERSION, after checking its hash', async () => {
    const { main } = fixtureDar('lf1');
    const entry = `${main.name}-${main.version}-${main.packageId}.dalf`;
    const error = await expectDarError(readDar(fixture('lf1')), 'UNSUPPORTED_LF_VERSION');
    expect(error.details).toEqual({ entry, packageId: main.packageId, lfVersion: '1.15' });
    // The wrapper itself decodes fine: the version and the hash are reported, not thrown.
    const dalf = unzipSync(fixture('lf1'))[entry] ?? new Uint8Array();
    const archive = await decodeArchive(dalf);
    expect(archive).toMatchObject({
      packageId: main.packageId,
      hashMatches: true,
      lfVersion: { major: 1, minor: '15' },
    });
  });

  it.each([
    ['empty input', new Uint8Array()],
    ['garbage bytes', Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)],
    ['a text file', new TextEncoder().encode('Manifest-Version: 1.0\n')],
    ['a truncated DAR', fixture('large').subarray(0, 60_000)],
  ])('%s as NOT_A_ZIP', async (_name, bytes) => {
    await expectDarError(readDar(bytes), 'NOT_A_ZIP');
  });

  describe('hand-made zips', () => {
    let dalf: Uint8Array;
    beforeAll(() => {
      const files = unzipSync(fixture('workflows'), {
        filter: (f) => f.name.includes('/fixture-prim-DA-Types-'),
      });
      const [bytes] = Object.values(files);
      if (!bytes) throw new Error('fixture-prim-DA-Types is in the workflows DAR');
      dalf = bytes;
    });

    it('accepts a minimal DAR: one DALF and a manifest', async () => {
      const dar = await readDar(
        zip({ 'META-INF/MANIFEST.MF': manifestFor('a.dalf'), 'a.dalf': dalf }),
      );
      expect(dar.main).toMatchObject({ name: 'fixture-prim-DA-Types', dalfName: 'a.dalf' });
      expect(dar.manifest).toMatchObject({ mainDalf: 'a.dalf', dalfs: ['a.dalf'] });
      expect(dar.manifest.sdkVersion).toBeUndefined();
    });

    it('decodes a DALF the manifest does not list, after the listed ones', async () => {
      const dar = await readDar(
        zip({
          'META-INF/MANIFEST.MF': manifestFor('a.dalf'),
          'extra/b.dalf': dalf,
          'a.dalf': dalf,
        }),
      );
      expect(dar.packages.map((p) => p.dalfName)).toEqual(['a.dalf', 'extra/b.dalf']);
    });

    it('a zip without any DALF as NO_DALF', async () => {
      await expectDarError(
        readDar(zip({ 'README.md': 'hello', 'META-INF/MANIFEST.MF': manifestFor('a.dalf') })),
        'NO_DALF',
      );
      await expectDarError(readDar(zip({})), 'NO_DALF');
    });

    it('a DAR without a manifest as NO_MANIFEST', async () => {
      await expectDarError(readDar(zip({ 'a.dalf': dalf })), 'NO_MANIFEST');
    });

    it('a manifest naming a missing DALF as INVALID_ZIP_ENTRY', async () => {
      const error = await expectDarError(
        readDar(
          zip({
            'META-INF/MANIFEST.MF': manifestFor('a.dalf', ['a.dalf', 'gone.dalf']),
            'a.dalf': dalf,
          }),
        ),
        'INVALID_ZIP_ENTRY',
      );
      expect(error.details.entry).toBe('gone.dalf');
    });

    it.each([
      [
        'a format other than daml-lf',
        manifestFor('a.dalf', ['a.dalf'], 'daml-lf-2'),
        /Unsupported DAR format daml-lf-2/,
      ],
      [
        'no Main-Dalf',
        'Manifest-Version: 1.0\nDalfs: a.dalf\nFormat: daml-lf\n',
        /no Main-Dalf attribute/,
      ],
      ['no Format', 'Main-Dalf: a.dalf\nDalfs: a.dalf\n', /no Format attribute/],
    ])('a manifest with %s as INVALID_MANIFEST', async (_name, manifest, message) => {
      const error = await expectDarError(
        readDar(zip({ 'META-INF/MANIFEST.MF': manifest, 'a.dalf': dalf })),
        'INVALID_MANIFEST',
      );
      expect(error.message).toMatch(message);
    });

    it('a DALF whose declared hash is not its payload’s as HASH_MISMATCH', async () => {
      const { payload, packageId } = await decodeArchive(dalf);
      const wrongId = `${packageId.slice(0, -1)}${packageId.endsWith('0') ? '1' : '0'}`;
      const tampered = new ProtobufWriter()
        .varint(1, 0)
        .bytes(3, payload)
        .string(4, wrongId)
        .finish();
      const error = await expectDarError(
        readDar(zip({ 'META-INF/MANIFEST.MF': manifestFor('a.dalf'), 'a.dalf': tampered })),
        'HASH_MISMATCH',
      );
      expect(error.details).toMatchObject({ entry: 'a.dalf', packageId: wrongId });
      expect(error.message).toContain(packageId);
      // decodeArchive reports the mismatch rather than throwing.
      expect(await decodeArchive(tampered)).toMatchObject({
        hashMatches: false,
        computedHash: packageId,
      });
    });

    it('a DALF that is not an archive as CORRUPT_ARCHIVE, naming the entry', async () => {
      const error = await expectDarError(
        readDar(
          zip({ 'META-INF/MANIFEST.MF': manifestFor('a.dalf'), 'a.dalf': 'not protobuf at all' }),
        ),
        'CORRUPT_ARCHIVE',
      );
      expect(error.details.entry).toBe('a.dalf');
      expect(error.message).toMatch(/^a\.dalf: /);
    });

    it('an archive with an unknown hash function, or no hash, as CORRUPT_ARCHIVE', async () => {
      const { payload, packageId } = await decodeArchive(dalf);
      const otherHash = new ProtobufWriter()
        .varint(1, 1)
        .bytes(3, payload)
        .string(4, packageId)
        .finish();
      await expect(decodeArchive(otherHash)).rejects.toMatchObject({
        reason: 'CORRUPT_ARCHIVE',
        message: /hash function 1/,
      });
      const noHash = new ProtobufWriter().bytes(3, payload).finish();
      await expect(decodeArchive(noHash)).rejects.toMatchObject({
        reason: 'CORRUPT_ARCHIVE',
        message: /no hash/,
      });
    });

    it('an entry larger than maxEntryBytes as INVALID_ZIP_ENTRY', async () => {
      const { main } = fixtureDar('large');
      const [big] = Object.values(
        unzipSync(fixture('large'), { filter: (f) => f.name.endsWith(`${main.packageId}.dalf`) }),
      );
      expect(big?.byteLength).toBeGreaterThan(1024);
      const error = await expectDarError(
        readDar(zip({ 'META-INF/MANIFEST.MF': manifestFor('a.dalf'), 'a.dalf': big ?? dalf }), {
          maxEntryBytes: 1024,
        }),
        'INVALID_ZIP_ENTRY',
      );
      expect(error.message).toMatch(/a\.dalf inflates to \d+ bytes, over the 1024-byte limit/);
    });
  });
});

describe('parseManifestAttributes', () => {
  it('joins continuation lines, whatever the line endings, and stops at the first blank line', () => {
    const text =
      'Manifest-Version: 1.0\r\nMain-Dalf: a-very-long/na\r\n me.dalf\r\nDalfs: x.dalf, \n y.dalf\rFormat: daml-lf\r\n\r\nName: section\r\nFormat: other\r\n';
    expect(parseManifestAttributes(text)).toEqual({
      'Manifest-Version': '1.0',
      'Main-Dalf': 'a-very-long/name.dalf',
      Dalfs: 'x.dalf, y.dalf',
      Format: 'daml-lf',
    });
  });

  it('matches attribute names case-insensitively when reading a DAR', async () => {
    const [dalf = new Uint8Array()] = Object.entries(unzipSync(fixture('lf1')))
      .filter(([name]) => name.endsWith('.dalf'))
      .map(([, bytes]) => bytes);
    // Reaches the archive (and fails there), so the lower-case manifest was understood.
    await expectDarError(
      readDar(
        zip({
          'META-INF/MANIFEST.MF': 'main-dalf: archive.dalf\ndalfs: archive.dalf\nformat: daml-lf\n',
          'archive.dalf': dalf,
        }),
      ),
      'UNSUPPORTED_LF_VERSION',
    );
  });
});

describe('decoding time', () => {
  it('reports how long the largest fixture DAR takes to read', async () => {
    const [largest] = validFixtures
      .map((name) => ({ name, size: fixtureDar(name).size }))
      .sort((a, b) => b.size - a.size);
    if (!largest) throw new Error('no fixtures');
    const packages = await reportReadTime(fixtureDar(largest.name).file, fixture(largest.name));
    expect(packages).toBe(fixtureDar(largest.name).packages.length);
  });
});

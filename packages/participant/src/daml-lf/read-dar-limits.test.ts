import { deflateRawSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { deflatedZeros, rawZip, type RawZipEntry } from '../testing/zip-bombs';
import { encodeDar } from './encode-package';
import { readDar } from './read-dar';

const MANIFEST = 'META-INF/MANIFEST.MF';
/**
 * How long a refusal may take. Measured on a 2-core machine at load average 6: 250–315 ms for the
 * bomb that lies about its size (inflating stops within a chunk of the declared size), under 15 ms
 * for the refusals that inflate nothing; inflating the whole 1 GiB takes seconds.
 */
const BOMB_BOUND_MS = 3000;
/** The 100,000-entry directory refused in under 10 ms; read to its end, 190–240 ms. */
const ENTRY_COUNT_BOUND_MS = 500;
const manifestFor = (main: string) =>
  new TextEncoder().encode(
    `Manifest-Version: 1.0\r\nMain-Dalf: ${main}\r\nDalfs: ${main}\r\nFormat: daml-lf\r\n\r\n`,
  );
const stored = (name: string, data: Uint8Array): RawZipEntry => ({
  name,
  data,
  method: 0,
  declaredSize: data.length,
});
const deflated = (name: string, data: Uint8Array, declaredSize = data.length): RawZipEntry => ({
  name,
  data: deflateRawSync(data),
  method: 8,
  declaredSize,
});

describe('readDar on hostile zips', () => {
  it('reads a DAR rewritten by the hand-made zip writer (the writer itself is sound)', async () => {
    const { bytes, packageIds } = await encodeDar([
      { name: 'limits-test', version: '1.0.0', modules: [] },
    ]);
    const entries = Object.entries(unzipSync(bytes)).map(([name, data]) => deflated(name, data));
    const dar = await readDar(rawZip(entries));
    expect(dar.main.packageId).toBe(packageIds[0]);
  });

  it('stops inflating an entry the moment it passes its declared size', async () => {
    // ~1 MB that inflates to 1 GiB of zeros, declared as 64 KiB.
    const bomb = rawZip([
      stored(MANIFEST, manifestFor('bomb.dalf')),
      { name: 'bomb.dalf', data: deflatedZeros(1024), method: 8, declaredSize: 64 * 1024 },
    ]);
    const started = performance.now();
    await expect(readDar(bomb)).rejects.toMatchObject({
      reason: 'INVALID_ZIP_ENTRY',
      message: 'Zip entry bomb.dalf inflates to more than the 65536 bytes it declares',
      details: { entry: 'bomb.dalf' },
    });
    expect(performance.now() - started).toBeLessThan(BOMB_BOUND_MS);
  });

  it('refuses an entry declared over the entry limit without inflating it', async () => {
    const bomb = rawZip([
      stored(MANIFEST, manifestFor('bomb.dalf')),
      { name: 'bomb.dalf', data: deflatedZeros(1024), method: 8, declaredSize: 1024 ** 3 },
    ]);
    const started = performance.now();
    await expect(readDar(bomb)).rejects.toMatchObject({
      reason: 'INVALID_ZIP_ENTRY',
      message: 'Zip entry bomb.dalf inflates to 1073741824 bytes, over the 268435456-byte limit',
    });
    expect(performance.now() - started).toBeLessThan(BOMB_BOUND_MS);
  });

  it('refuses archives that together inflate past the total limit', async () => {
    const zeros = new Uint8Array(3000);
    const zip = rawZip([
      stored(MANIFEST, manifestFor('a.dalf')),
      deflated('a.dalf', zeros),
      deflated('b.dalf', zeros),
    ]);
    await expect(readDar(zip, { maxTotalBytes: 5000 })).rejects.toMatchObject({
      reason: 'INVALID_ZIP_ENTRY',
      message: "The DAR's archives inflate to more than the 5000-byte limit (at b.dalf)",
    });
    // Under the limit, the same zip gets as far as decoding the (bogus) archives.
    await expect(readDar(zip, { maxTotalBytes: 7000 })).rejects.toMatchObject({
      reason: 'CORRUPT_ARCHIVE',
    });
  });

  it('holds stored entries to their declared size too', async () => {
    const zip = rawZip([
      stored(MANIFEST, manifestFor('a.dalf')),
      { name: 'a.dalf', data: new Uint8Array(5000), method: 0, declaredSize: 10 },
    ]);
    await expect(readDar(zip)).rejects.toMatchObject({ reason: 'INVALID_ZIP_ENTRY' });
  });

  it('refuses more entries than the limit before reading any of them', async () => {
    const empty = new Uint8Array();
    const entries = Array.from({ length: 100_000 }, (_, i) =>
      stored(`src/M${String(i)}.daml`, empty),
    );
    const zip = rawZip([stored(MANIFEST, manifestFor('a.dalf')), ...entries]);
    const started = performance.now();
    await expect(readDar(zip)).rejects.toMatchObject({
      reason: 'NOT_A_ZIP',
      message: 'The DAR has 100001 zip entries, over the limit of 10000',
    });
    expect(performance.now() - started).toBeLessThan(ENTRY_COUNT_BOUND_MS);
    // Allowed, the same zip64 directory reads to the end: it simply holds no archive.
    await expect(readDar(zip, { maxEntries: 200_000 })).rejects.toMatchObject({
      reason: 'NO_DALF',
    });
  });

  it('refuses a central directory that claims more records than it holds', async () => {
    const zip = rawZip([stored(MANIFEST, manifestFor('a.dalf'))]);
    // The end record's entry counts, patched to 4000.
    const end = zip.length - 22;
    zip.set([0xa0, 0x0f], end + 8);
    zip.set([0xa0, 0x0f], end + 10);
    await expect(readDar(zip)).rejects.toMatchObject({
      reason: 'NOT_A_ZIP',
      message: 'The DAR is not a readable zip file (invalid zip data)',
    });
  });
});

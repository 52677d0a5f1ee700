import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import {
  deflatedZeros,
  rawZip,
  type RawZipEntry,
} from '@ledger-console/participant/testing/zip-bombs';

/**
 * The slowest /livez answer allowed while a hostile DAR is being refused. The DAR is read in a
 * worker thread; on the main thread the same archive would block the event loop for seconds.
 * Measured on a 2-core machine: median 2 ms; the slowest poll 270–680 ms at load average 8–10
 * (scheduling, not blocking). The bound is several times that, still below what blocking costs.
 */
const LIVEZ_BOUND_MS = 2000;
/** Inflating and hashing 128 MiB takes 3.5–5 s at load average 8–10, past vitest's 5 s default. */
const UPLOAD_TEST_TIMEOUT_MS = 60_000;

const manifest = (main: string): RawZipEntry => {
  const data = new TextEncoder().encode(
    `Manifest-Version: 1.0\r\nMain-Dalf: ${main}\r\nDalfs: ${main}\r\nFormat: daml-lf\r\n\r\n`,
  );
  return { name: 'META-INF/MANIFEST.MF', data, method: 0, declaredSize: data.length };
};

describe('hostile DAR uploads', { timeout: UPLOAD_TEST_TIMEOUT_MS }, () => {
  let sandbox: RunningSandbox;
  const latencies: number[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
  });
  afterAll(async () => {
    await sandbox.close();
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.log(
      `/livez during hostile uploads: ${String(sorted.length)} polls, median ${median.toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
    );
  });

  /** Uploads `dar` while polling /livez back to back; returns the upload's answer. */
  async function uploadWhilePolling(dar: Uint8Array<ArrayBuffer>) {
    const upload = { inProgress: true };
    const polled: number[] = [];
    const poller = (async () => {
      while (upload.inProgress) {
        const started = performance.now();
        const live = await fetch(`${sandbox.url}/livez`);
        await live.arrayBuffer();
        polled.push(performance.now() - started);
        expect(live.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const response = await fetch(`${sandbox.url}/v2/dars`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: dar,
    }).finally(() => {
      upload.inProgress = false;
    });
    const body: unknown = await response.json();
    await poller;
    latencies.push(...polled);
    expect(polled.length).toBeGreaterThan(0);
    expect(Math.max(...polled)).toBeLessThan(LIVEZ_BOUND_MS);
    return { status: response.status, body };
  }

  it('refuses an entry of 1 GiB of zeros (1 MB compressed) that lies about its size', async () => {
    const bomb = rawZip([
      manifest('bomb.dalf'),
      { name: 'bomb.dalf', data: deflatedZeros(1024), method: 8, declaredSize: 4 * 1024 * 1024 },
    ]);
    const { status, body } = await uploadWhilePolling(bomb);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'INVALID_ZIP_ENTRY',
      cause: 'Dar zip file is corrupt',
      context: { name: 'bomb.dalf' },
    });
  });

  it('refuses the same bomb declared honestly, before inflating it', async () => {
    const bomb = rawZip([
      manifest('bomb.dalf'),
      { name: 'bomb.dalf', data: deflatedZeros(1024), method: 8, declaredSize: 1024 ** 3 },
    ]);
    const { status, body } = await uploadWhilePolling(bomb);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'INVALID_ZIP_ENTRY', context: { name: 'bomb.dalf' } });
  });

  it('inflates a big archive within the limits off the main thread', async () => {
    // 128 MiB of zeros, honestly declared: inflated and hashed in full, then found corrupt.
    const big = rawZip([
      manifest('big.dalf'),
      { name: 'big.dalf', data: deflatedZeros(128), method: 8, declaredSize: 128 * 1024 * 1024 },
    ]);
    const { status, body } = await uploadWhilePolling(big);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'DAR_PARSE_ERROR' });
  });

  it('refuses an archive of 100,000 entries', async () => {
    const entries = Array.from({ length: 100_000 }, (_, i): RawZipEntry => ({
      name: `src/M${String(i)}.daml`,
      data: new Uint8Array(),
      method: 0,
      declaredSize: 0,
    }));
    const { status, body } = await uploadWhilePolling(rawZip([manifest('a.dalf'), ...entries]));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'INVALID_DAR',
      context: { throwable: 'The DAR has 100001 zip entries, over the limit of 10000' },
    });
  });
});

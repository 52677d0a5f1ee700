import { createHash } from 'node:crypto';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { MemoryStorage } from '@/testing/memory-storage';
import {
  createSandbox,
  routeFetchToSandbox,
  type NetworkIntercept,
  type Sandbox,
} from '@/testing/sandbox-network';
import { FIXTURE_SDK_VERSION, fixtureDar, type FixtureDarName } from '@/testing/seed-packages';
import { mintToken } from '@/testing/sign-in-as';
import { writeAccessToken } from './access-token';
import { DamlLfDecodeError, decodePackagePayload, readDarContents } from './daml-lf-decoder';
import {
  createTaskLimiter,
  getPackageArchive,
  getPackageStatus,
  listPackageIds,
  NAME_READS_AT_ONCE,
  packageQueries,
} from './packages';
import { listOwnVettedPackages, listVettedPackages, updateVetting } from './package-vetting';
import { isAbortError, uploadDar, validateDar, type UploadProgress } from './dars';

/*
 * A package's life through the API modules that share it: a DAR uploaded (dars.ts), its packages
 * listed and decoded (packages.ts), vetted and unvetted (package-vetting.ts).
 */

/** A fresh buffer per call: decoding transfers (detaches) the one it is given in a browser. */
const fixture = (name: FixtureDarName): ArrayBuffer => fixtureDar(name).bytes().buffer;
const PING: FixtureDarName = 'workflows';
const PING_MAIN = fixtureDar(PING).main.packageId;
/** Over the sandbox's 64 KiB upload steps, so that progress comes in more than one step. */
const LARGE: FixtureDarName = 'large';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});

describe('package requests', () => {
  it('list the built-in package, serve its archive, and decode it', async () => {
    routeFetchToSandbox();

    const [packageId] = await listPackageIds();
    if (!packageId) throw new Error('the sandbox has its demo package');
    expect(await getPackageStatus(packageId)).toBe('PACKAGE_STATUS_REGISTERED');
    const archive = await getPackageArchive(packageId);
    expect(createHash('sha256').update(new Uint8Array(archive)).digest('hex')).toBe(packageId);
    const contents = await decodePackagePayload(archive, packageId);
    expect(contents).toMatchObject({ packageId, name: 'sandbox-demo' });
    // The trimmed model: no interned tables cross from the worker.
    expect(contents).not.toHaveProperty('internedStrings');
    expect(contents).not.toHaveProperty('internedDottedNames');
  });

  it('report an unknown package as PACKAGE_NOT_FOUND, and its status as unspecified', async () => {
    routeFetchToSandbox();
    const unknown = 'ab'.repeat(32);

    expect((await failure(getPackageArchive(unknown))).code).toBe('PACKAGE_NOT_FOUND');
    expect(await getPackageStatus(unknown)).toBe('PACKAGE_STATUS_UNSPECIFIED');
  });

  it('follow the vetting list page by page', async () => {
    const { sandbox } = routeFetchToSandbox();
    const [demo] = sandbox.state.packages.all();
    if (!demo) throw new Error('the sandbox has its demo package');
    // 150 participants vetting on one synchronizer: two pages of at most 100.
    sandbox.state.transaction(() => {
      for (let i = 0; i < 150; i++) {
        sandbox.state.vetting.save({
          synchronizerId: sandbox.state.synchronizerId,
          participantId: `other-${String(i).padStart(3, '0')}::1220${'0'.repeat(64)}`,
          serial: 1,
          packages: [{ packageId: demo.packageId, validFrom: null, validUntil: null }],
        });
      }
    });

    const all = await listVettedPackages();
    expect(all).toHaveLength(151);
    expect(new Set(all.map((entry) => entry.participantId)).size).toBe(151);
    // Only this participant's own vetting, in one page.
    const own = await listOwnVettedPackages();
    expect(own.map((entry) => entry.participantId)).toEqual([sandbox.state.participantId]);
  });
});

// Uploads that run the DAR reader and vetting: up to ~5 s each on a loaded 2-core machine.
describe('DAR upload and validation', { timeout: 20_000 }, () => {
  it('upload with progress up to every byte, then list and vet the packages', async () => {
    routeFetchToSandbox();
    const bytes = fixture(LARGE);
    const main = fixtureDar(LARGE).main.packageId;
    const progress: UploadProgress[] = [];

    await uploadDar({
      bytes,
      synchronizerId: '',
      vetAllPackages: true,
      onProgress: (step) => progress.push(step),
    });

    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual({ loaded: bytes.byteLength, total: bytes.byteLength });
    expect(progress.map((step) => step.loaded)).toEqual(
      [...progress.map((step) => step.loaded)].sort((a, b) => a - b),
    );
    expect(await listPackageIds()).toContain(main);
    const [vetting] = await listOwnVettedPackages();
    expect(vetting?.packages.map((pkg) => pkg.packageId)).toContain(main);
  });

  it('turn a rejected DAR into the server’s ApiError', async () => {
    routeFetchToSandbox();

    const error = await failure(
      uploadDar({ bytes: fixture('illformed'), synchronizerId: '', vetAllPackages: true }),
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe('DAR_VALIDATION_ERROR');
    expect(error.body.context?.validationError).toMatch(/Type checking failed/);
  });

  it('stop when cancelled, and store nothing', async () => {
    routeFetchToSandbox();
    const controller = new AbortController();
    const sent: number[] = [];

    const error = await uploadDar({
      bytes: fixture(LARGE),
      synchronizerId: '',
      vetAllPackages: true,
      signal: controller.signal,
      onProgress: ({ loaded }) => {
        sent.push(loaded);
        controller.abort();
      },
    }).catch((e: unknown) => e);

    expect(isAbortError(error)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeLessThan(fixtureDar(LARGE).size);
    expect(await listPackageIds()).not.toContain(fixtureDar(LARGE).main.packageId);
  });

  it('send the stored access token, so only an admin may upload', async () => {
    const sandbox: Sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'packages-test' });
    routeFetchToSandbox({ sandbox });
    const request = { bytes: fixture(PING), synchronizerId: '', vetAllPackages: false };

    expect((await failure(uploadDar({ ...request, bytes: fixture(PING) }))).status).toBe(401);
    writeAccessToken(await mintToken(sandbox, 'participant_admin'));
    await uploadDar(request);
    expect(await listPackageIds()).toContain(PING_MAIN);
  });

  it('validate without storing anything, or answer the server’s error', async () => {
    routeFetchToSandbox();

    await validateDar({ bytes: fixture(PING), synchronizerId: '' });
    expect(await listPackageIds()).not.toContain(PING_MAIN);
    const error = await failure(validateDar({ bytes: fixture('illformed'), synchronizerId: '' }));
    expect(error.code).toBe('DAR_VALIDATION_ERROR');
  });

  it('ask for a synchronizer when the participant has several', async () => {
    const { sandbox } = routeFetchToSandbox({
      sandbox: createSandbox({ synchronizers: ['alpha', 'beta'] }),
    });
    const [, beta] = sandbox.state.synchronizerIds;
    if (!beta) throw new Error('two synchronizers');

    const error = await failure(validateDar({ bytes: fixture(PING), synchronizerId: '' }));
    expect(error.code).toBe('PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    await uploadDar({ bytes: fixture(PING), synchronizerId: beta, vetAllPackages: true });
    const vetting = await listOwnVettedPackages();
    const vettedOn = vetting.filter((entry) =>
      entry.packages.some((pkg) => pkg.packageId === PING_MAIN),
    );
    expect(vettedOn.map((entry) => entry.synchronizerId)).toEqual([beta]);
  });
});

describe('vetting changes', () => {
  it('unvet and vet again, guarded by the topology serial', async () => {
    const { sandbox } = routeFetchToSandbox();
    await uploadDar({ bytes: fixture(PING), synchronizerId: '', vetAllPackages: true });
    const synchronizerId = sandbox.state.synchronizerId;
    const serialNow = async () => (await listOwnVettedPackages())[0]?.topologySerial;
    const serial = await serialNow();

    await updateVetting({
      operation: 'Unvet',
      packageId: PING_MAIN,
      synchronizerId,
      expectedTopologySerial: serial,
    });
    const [afterUnvet] = await listOwnVettedPackages();
    expect(afterUnvet?.packages.map((pkg) => pkg.packageId)).not.toContain(PING_MAIN);

    // A stale serial: someone changed the vetting in between.
    const stale = await failure(
      updateVetting({
        operation: 'Vet',
        packageId: PING_MAIN,
        synchronizerId,
        expectedTopologySerial: serial,
      }),
    );
    expect(stale.code).toBe('TOPOLOGY_SERIAL_MISMATCH');

    await updateVetting({
      operation: 'Vet',
      packageId: PING_MAIN,
      synchronizerId,
      expectedTopologySerial: await serialNow(),
    });
    const [afterVet] = await listOwnVettedPackages();
    expect(afterVet?.packages.map((pkg) => pkg.packageId)).toContain(PING_MAIN);
  });
});

describe('package names for lists', () => {
  it('read a few archives at a time, and keep only the name and version', async () => {
    let inFlight = 0;
    let most = 0;
    const archiveRequests: string[] = [];
    // A participant that takes a moment per archive, so that overlapping requests show.
    const slowArchives: NetworkIntercept = async (request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      if (request.method !== 'GET' || !/^\/v2\/packages\/[0-9a-f]{64}$/.test(pathname)) {
        return sandboxFetch(request);
      }
      archiveRequests.push(pathname);
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await sandboxFetch(request);
      } finally {
        inFlight--;
      }
    };
    routeFetchToSandbox({ intercept: slowArchives });
    await uploadDar({ bytes: fixture(PING), synchronizerId: '', vetAllPackages: false });
    const ids = await listPackageIds();
    expect(ids).toHaveLength(1 + fixtureDar(PING).packages.length);
    const queryClient = new QueryClient();

    const headers = await Promise.all(
      ids.map((id) => queryClient.query(packageQueries.nameVersion(id))),
    );

    expect(archiveRequests).toHaveLength(ids.length);
    expect(most).toBe(NAME_READS_AT_ONCE);
    expect(headers.find((header) => header.packageId === PING_MAIN)).toEqual({
      packageId: PING_MAIN,
      name: 'fixture-workflows',
      version: '1.0.0',
    });
    queryClient.clear();
  });

  it('never start a waiting read whose query was cancelled', async () => {
    const run = createTaskLimiter(1);
    let release: () => void = () => undefined;
    const first = run(
      () =>
        new Promise<string>((resolve) => {
          release = () => {
            resolve('first');
          };
        }),
    );
    const controller = new AbortController();
    const task = vi.fn(() => Promise.resolve('cancelled'));
    const cancelled = run(task, controller.signal).catch((e: unknown) => e);
    const third = run(() => Promise.resolve('third'));

    controller.abort();
    expect(isAbortError(await cancelled)).toBe(true);
    release();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
    expect(task).not.toHaveBeenCalled();
  });
});

describe('the decoder client, without a Worker (node)', () => {
  it('reads a DAR into its main package and packages', async () => {
    const contents = await readDarContents(fixture(PING));

    expect(contents.main).toMatchObject({
      packageId: PING_MAIN,
      name: 'fixture-workflows',
      version: '1.0.0',
    });
    expect(contents.packages.map((pkg) => pkg.packageId)).toEqual(
      fixtureDar(PING).packages.map((pkg) => pkg.packageId),
    );
    expect(contents.sdkVersion).toBe(FIXTURE_SDK_VERSION);
  });

  it('rejects an ill-formed DAR with the decoder’s reason and a heading for it', async () => {
    const error = await readDarContents(fixture('illformed')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DamlLfDecodeError);
    const decodeError = error as DamlLfDecodeError;
    expect(decodeError.reason).toBe('VALIDATION_FAILED');
    expect(decodeError.title).toBe('A package is not valid Daml-LF');
    expect(decodeError.message).toMatch(/Type checking failed: Mod:x is declared as Bool/);
  });
});

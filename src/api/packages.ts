import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { env } from '@/env';
import {
  activityMeta,
  NOT_LOADED,
  NOTHING,
  valueOf,
  registerActivitySpecs,
} from '@/lib/activity/activity-spec';
import { networkError, toApiError } from '@/lib/errors/api-error';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { readAccessToken } from './access-token';
import { api, unwrap } from './client';
import type { DarContents, PackageContents, PackageNameVersion } from './daml-lf-decoder';
import { directDependencies } from '@ledger-console/participant/daml-lf/package-dependencies';
import { getParticipantId } from './participant';
import type { Schemas } from './schema';

/** Daml's order of package versions, for the lists and search that pick the newest. */
export { comparePackageVersions } from '@ledger-console/participant/daml-lf/package-version';

export type VettedPackages = Schemas['VettedPackages'];
export type VettedPackage = Schemas['VettedPackage'];
export type PackageStatus = Schemas['GetPackageStatusResponse']['packageStatus'];

/** The API's page size cap for the vetting list (ledger-api-behaviour.md §6). */
export const MAX_VETTED_PACKAGES_PAGE_SIZE = 100;

export type VettingListFilter = {
  /** Only these participants' vetting; all participants on the synchronizers when empty. */
  participantIds?: readonly string[];
  /** Only these packages; all when empty. */
  packageIds?: readonly string[];
};

/** The DAR's bytes and where they go; `synchronizerId` `''` lets the participant choose. */
export type DarTarget = { bytes: ArrayBuffer; synchronizerId: string };

export type UploadProgress = { loaded: number; total: number };

export type UploadDarRequest = DarTarget & {
  /** Vet every package of the DAR right away (the API's default). */
  vetAllPackages: boolean;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

export type VettingChange = {
  operation: 'Vet' | 'Unvet';
  packageId: string;
  synchronizerId: string;
  /**
   * The `topologySerial` the vetting list showed for this participant and synchronizer; the
   * change fails if another one came in between. Undefined when the list had no entry to show it.
   */
  expectedTopologySerial: number | undefined;
};

// ── request builders: pure, shared by the calls below and by "Copy as…" ─────────

/** What an upload sends beside the DAR's bytes. */
export type DarUploadOptions = Pick<UploadDarRequest, 'synchronizerId' | 'vetAllPackages'>;

/** The upload's path and query: `/v2/dars?vetAllPackages=…[&synchronizerId=…]`. */
export function darUploadPath({ synchronizerId, vetAllPackages }: DarUploadOptions): string {
  const query = new URLSearchParams({ vetAllPackages: String(vetAllPackages) });
  if (synchronizerId) query.set('synchronizerId', synchronizerId);
  return `/v2/dars?${query.toString()}`;
}

/** The upload as a request with a file body (the DAR the user picked, by its file name). */
export function darUploadRequest(options: DarUploadOptions, fileName: string): LedgerApiRequest {
  return {
    method: 'POST',
    path: darUploadPath(options),
    file: { name: fileName, contentType: 'application/octet-stream' },
  };
}

/** The body of `POST /v2/package-vetting/update` for one change. */
export function updateVettingBody({
  operation,
  packageId,
  synchronizerId,
  expectedTopologySerial,
}: VettingChange): Schemas['UpdateVettedPackagesRequest'] {
  // The id alone names the package; adding its name and version could only fail to match.
  const packages = [{ packageId }];
  return {
    changes: [
      {
        operation:
          operation === 'Vet'
            ? { Vet: { value: { packages } } }
            : { Unvet: { value: { packages } } },
      },
    ],
    dryRun: false,
    synchronizerId,
    ...(expectedTopologySerial === undefined
      ? {}
      : { expectedTopologySerial: { serial: { Prior: { value: expectedTopologySerial } } } }),
  };
}

export const UPDATE_VETTING_PATH = '/v2/package-vetting/update';

/** The force flags a vetting update takes (ledger-api-behaviour.md §6). */
export const VETTING_FORCE_FLAGS = {
  /** Leave a vetted package without one of its dependencies (TOPOLOGY_DEPENDENCIES_NOT_VETTED). */
  allowUnvettedDependencies: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
  /** Vet packages that fail the upgrade checks (NOT_VALID_UPGRADE_PACKAGE, KNOWN_PACKAGE_VERSION). */
  allowIncompatibleUpgrades: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
} as const;

export type VettingForceFlag = (typeof VETTING_FORCE_FLAGS)[keyof typeof VETTING_FORCE_FLAGS];

/** One package a plan vets (with optional bounds, ISO instants) or unvets. */
export type PlannedVettingChange =
  | { operation: 'Vet'; packageId: string; validFrom?: string; validUntil?: string }
  | { operation: 'Unvet'; packageId: string };

/** Several vetting changes on one synchronizer, sent as one topology transaction. */
export type VettingPlan = {
  synchronizerId: string;
  changes: readonly PlannedVettingChange[];
  forceFlags: readonly VettingForceFlag[];
};

/**
 * The body of a plan's update: `dryRun` asks the participant to check it and answer what it
 * would do; `expectedSerial` (the serial the dry run saw; `null` for "no vetting yet") makes the
 * real one fail if the vetting changed in between.
 */
export function vettingPlanBody(
  plan: VettingPlan,
  { dryRun, expectedSerial }: { dryRun: boolean; expectedSerial?: number | null },
): Schemas['UpdateVettedPackagesRequest'] {
  return {
    changes: plan.changes.map((change) => ({
      operation:
        change.operation === 'Vet'
          ? {
              Vet: {
                value: {
                  packages: [{ packageId: change.packageId }],
                  ...(change.validFrom ? { newValidFromInclusive: change.validFrom } : {}),
                  ...(change.validUntil ? { newValidUntilExclusive: change.validUntil } : {}),
                },
              },
            }
          : { Unvet: { value: { packages: [{ packageId: change.packageId }] } } },
    })),
    dryRun,
    synchronizerId: plan.synchronizerId,
    ...(expectedSerial === undefined
      ? {}
      : {
          expectedTopologySerial: {
            serial:
              expectedSerial === null ? { NoPrior: {} } : { Prior: { value: expectedSerial } },
          },
        }),
    ...(plan.forceFlags.length > 0 ? { updateVettedPackagesForceFlags: [...plan.forceFlags] } : {}),
  };
}

/** One vetting change as the request {@link updateVetting} sends. */
export function updateVettingRequest(change: VettingChange): LedgerApiRequest {
  return { method: 'POST', path: UPDATE_VETTING_PATH, body: updateVettingBody(change) };
}

/** The packages a package's declarations refer to, sorted (what groups the packages list). */
export function packageDependencies(
  pkg: Pick<PackageContents, 'packageId' | 'modules' | 'importedPackages'>,
): string[] {
  return [...directDependencies(pkg)].sort();
}

/**
 * The Daml-LF decoder's client (its worker and protocol), loaded by the first query that decodes:
 * the overview and the lists that only count or name packages by id need none of it.
 */
const decoder = () => import('./daml-lf-decoder');

// ── requests: one per endpoint, no caching, no UI ──────────────────────────────

export async function listPackageIds(signal?: AbortSignal): Promise<string[]> {
  const { packageIds } = unwrap(await api.GET('/v2/packages', signal ? { signal } : {}));
  return packageIds;
}

export async function getPackageStatus(packageId: string): Promise<PackageStatus> {
  const { packageStatus } = unwrap(
    await api.GET('/v2/packages/{package-id}/status', {
      params: { path: { 'package-id': packageId } },
    }),
  );
  return packageStatus;
}

/** The package's `ArchivePayload` bytes, which hash to its id. */
export async function getPackageArchive(
  packageId: string,
  signal?: AbortSignal,
): Promise<ArrayBuffer> {
  const outcome = await api.GET('/v2/packages/{package-id}', {
    params: { path: { 'package-id': packageId } },
    parseAs: 'arrayBuffer',
    ...(signal ? { signal } : {}),
  });
  return unwrap(outcome);
}

/** Every page of the vetting list (the server sends at most 100 `VettedPackages` a page). */
export async function listVettedPackages(
  { participantIds = [], packageIds = [] }: VettingListFilter = {},
  signal?: AbortSignal,
): Promise<VettedPackages[]> {
  const all: VettedPackages[] = [];
  let pageToken = '';
  do {
    const page = unwrap(
      await api.POST('/v2/package-vetting/list', {
        body: {
          packageMetadataFilter: { packageIds: [...packageIds], packageNamePrefixes: [] },
          topologyStateFilter: { participantIds: [...participantIds], synchronizerIds: [] },
          pageSize: MAX_VETTED_PACKAGES_PAGE_SIZE,
          pageToken,
        },
        ...(signal ? { signal } : {}),
      }),
    );
    all.push(...(page.vettedPackages ?? []));
    pageToken = page.nextPageToken ?? '';
  } while (pageToken !== '');
  return all;
}

/** This participant's vetting, on every synchronizer it has vetted anything on. */
export async function listOwnVettedPackages(signal?: AbortSignal): Promise<VettedPackages[]> {
  // Without the filter a real synchronizer answers with every participant's vetting.
  const participantId = await getParticipantId();
  return listVettedPackages({ participantIds: [participantId] }, signal);
}

const octetStream = {
  // The DAR goes as it is: the generated type calls the binary body a string.
  bodySerializer: (body: unknown) => body as BodyInit,
  headers: { 'Content-Type': 'application/octet-stream' },
};

/** Runs the upload checks on the participant without storing or vetting anything. */
export async function validateDar({ bytes, synchronizerId }: DarTarget): Promise<void> {
  unwrap(
    await api.POST('/v2/dars/validate', {
      params: { query: synchronizerId ? { synchronizerId } : {} },
      body: bytes as unknown as string,
      ...octetStream,
      // 200 comes with an empty body.
      parseAs: 'text',
    }),
  );
}

/**
 * Uploads a DAR, reporting the bytes sent. Through XMLHttpRequest, not fetch: fetch cannot report
 * upload progress. Failures are ApiErrors like every other call's; a cancel (via `signal`)
 * rejects with an `AbortError` DOMException.
 */
export function uploadDar({
  bytes,
  synchronizerId,
  vetAllPackages,
  onProgress,
  signal,
}: UploadDarRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const request = new XMLHttpRequest();
    request.open('POST', `${env.API_BASE_URL}${darUploadPath({ synchronizerId, vetAllPackages })}`);
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    const token = readAccessToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.responseType = 'text';

    const onAbort = () => {
      request.abort();
    };
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
    };
    request.upload.addEventListener('progress', (event) => {
      onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : bytes.byteLength,
      });
    });
    request.addEventListener('load', () => {
      settle();
      if (request.status >= 200 && request.status < 300) {
        resolve();
        return;
      }
      reject(toApiError(request.status, parseBody(request)));
    });
    request.addEventListener('error', () => {
      settle();
      reject(networkError(new Error('the upload was interrupted')));
    });
    request.addEventListener('abort', () => {
      settle();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbort);
    request.send(bytes);
  });
}

/** Vets or unvets one package on one synchronizer for this participant. */
export async function updateVetting(
  change: VettingChange,
): Promise<Schemas['UpdateVettedPackagesResponse']> {
  return unwrap(await api.POST(UPDATE_VETTING_PATH, { body: updateVettingBody(change) }));
}

export type VettingUpdateResponse = Schemas['UpdateVettedPackagesResponse'];

/** Asks the participant what the plan would do, changing nothing (`dryRun: true`). */
export async function dryRunVettingPlan(
  plan: VettingPlan,
  signal?: AbortSignal,
): Promise<VettingUpdateResponse> {
  return unwrap(
    await api.POST(UPDATE_VETTING_PATH, {
      body: vettingPlanBody(plan, { dryRun: true }),
      ...(signal ? { signal } : {}),
    }),
  );
}

/** What applying a plan sends: the plan and the vetting serial its dry run saw. */
export type ApplyVettingPlan = { plan: VettingPlan; expectedSerial: number | null };

/** Applies a plan, failing with TOPOLOGY_SERIAL_MISMATCH if the vetting changed since its dry run. */
export async function applyVettingPlan({
  plan,
  expectedSerial,
}: ApplyVettingPlan): Promise<VettingUpdateResponse> {
  return unwrap(
    await api.POST(UPDATE_VETTING_PATH, {
      body: vettingPlanBody(plan, { dryRun: false, expectedSerial }),
    }),
  );
}

function parseBody(request: XMLHttpRequest): unknown {
  const text = request.responseText;
  if ((request.getResponseHeader('Content-Type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

/** True for the rejection of a request the user cancelled. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Runs at most `limit` tasks at once, the others in turn as those finish. A task still waiting
 * when its signal aborts never starts.
 */
export function createTaskLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    waiting.shift()?.();
  };
  return async function run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (running >= limit) {
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = waiting.indexOf(start);
          if (index >= 0) waiting.splice(index, 1);
          reject(new DOMException('Cancelled before it started', 'AbortError'));
        };
        if (signal?.aborted) {
          onAbort();
          return;
        }
        waiting.push(start);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    running++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}

/** How many archives the packages list reads at once, for names the vetting list lacks. */
export const NAME_READS_AT_ONCE = 4;
const nameReads = createTaskLimiter(NAME_READS_AT_ONCE);

// ── cache: keys and query functions defined together ───────────────────────────

export const packageQueries = {
  all: () => ['packages'] as const,
  /** What changes on the participant (ids, vetting, status); uploads and vetting refresh it. */
  state: () => [...packageQueries.all(), 'state'] as const,
  ids: () =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'ids'],
      queryFn: ({ signal }) => listPackageIds(signal),
    }),
  vetting: () =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'vetting'],
      queryFn: ({ signal }) => listOwnVettedPackages(signal),
    }),
  status: (packageId: string) =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'status', packageId],
      queryFn: () => getPackageStatus(packageId),
    }),
  /** The decoded package. Its id is the hash of its bytes, so the result never goes stale. */
  contents: (packageId: string) =>
    queryOptions<PackageContents>({
      queryKey: [...packageQueries.all(), 'contents', packageId],
      queryFn: async ({ signal }) => {
        const [{ decodePackagePayload }, archive] = await Promise.all([
          decoder(),
          getPackageArchive(packageId, signal),
        ]);
        return decodePackagePayload(archive, packageId);
      },
      staleTime: Infinity,
    }),
  /**
   * A package's name and version from its archive, for lists: a few at a time
   * (`NAME_READS_AT_ONCE`), and only the two strings are kept. Never stale, as `contents`.
   */
  nameVersion: (packageId: string) =>
    queryOptions<PackageNameVersion>({
      queryKey: [...packageQueries.all(), 'name-version', packageId],
      queryFn: ({ signal }) =>
        nameReads(async () => {
          const [{ decodePackageNameVersion }, archive] = await Promise.all([
            decoder(),
            getPackageArchive(packageId, signal),
          ]);
          return decodePackageNameVersion(archive, packageId);
        }, signal),
      staleTime: Infinity,
    }),
  /**
   * The packages a package refers to ({@link packageDependencies}), for grouping a list by DAR:
   * the archive is decoded in full, a few at a time like `nameVersion`, and only the ids are kept.
   */
  dependencies: (packageId: string) =>
    queryOptions<string[]>({
      queryKey: [...packageQueries.all(), 'dependencies', packageId],
      queryFn: ({ signal }) =>
        nameReads(async () => {
          const [{ decodePackagePayload }, archive] = await Promise.all([
            decoder(),
            getPackageArchive(packageId, signal),
          ]);
          return packageDependencies(await decodePackagePayload(archive, packageId));
        }, signal),
      staleTime: Infinity,
    }),
  /**
   * What the participant would do with a plan (a dry run, which changes nothing). Under `state`,
   * so that any vetting change, this console's or a refresh's, asks again; never retried, as its
   * refusal is the answer.
   */
  vettingDryRun: (plan: VettingPlan) =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'vetting-dry-run', plan],
      queryFn: ({ signal }) => dryRunVettingPlan(plan, signal),
      retry: false,
      staleTime: 0,
      meta: { errorDisplay: 'inline' },
    }),
  /**
   * A DAR file the user chose, read in the browser for a preview. `selection` tells two choices
   * apart (a file is no query key); the answer is dropped as soon as nothing shows it.
   */
  darFile: (file: Blob & { readonly name: string }, selection: number) =>
    queryOptions<DarContents>({
      queryKey: [...packageQueries.all(), 'dar-file', selection, file.name, file.size],
      queryFn: async () => {
        const [{ readDarContents }, bytes] = await Promise.all([decoder(), file.arrayBuffer()]);
        return readDarContents(bytes);
      },
      staleTime: Infinity,
      gcTime: 0,
      meta: { errorDisplay: 'inline' },
    }),
};

// What the activity log records of an upload: the request without its bytes; the participant's
// answer to an upload is empty, so which packages it held is not known here.
const uploadActivity = activityMeta<UploadDarRequest, undefined>({
  action: 'dar.upload',
  call: (options) => ({ method: 'POST', path: darUploadPath(options) }),
  subjects: () => [],
  before: () => NOTHING,
  after: ({ bytes, vetAllPackages, synchronizerId }) =>
    valueOf({ darBytes: bytes.byteLength, vetAllPackages, synchronizerId }),
});

const vettingActivity = activityMeta<VettingChange, Schemas['UpdateVettedPackagesResponse']>({
  action: 'package.vetting',
  call: () => ({ method: 'POST', path: UPDATE_VETTING_PATH }),
  subjects: ({ packageId }) => [{ kind: 'package', packageId }],
  before: ({ operation, synchronizerId, expectedTopologySerial }) =>
    expectedTopologySerial === undefined
      ? NOT_LOADED
      : valueOf({ synchronizerId, topologySerial: expectedTopologySerial, change: operation }),
  after: ({ operation, synchronizerId }, response) =>
    valueOf({ synchronizerId, change: operation, response }),
});

const vettingPlanActivity = activityMeta<ApplyVettingPlan, VettingUpdateResponse>({
  action: 'package.vetting',
  call: () => ({ method: 'POST', path: UPDATE_VETTING_PATH }),
  subjects: ({ plan }) => plan.changes.map(({ packageId }) => ({ kind: 'package', packageId })),
  // The dry run's serial is what the change was decided on; the answer holds the state before.
  before: ({ plan, expectedSerial }) =>
    valueOf({ synchronizerId: plan.synchronizerId, topologySerial: expectedSerial }),
  after: ({ plan }, response) => valueOf({ changes: plan.changes, response }),
});

export const packageMutations = {
  // The page shows the participant's verdict in place, code and correlation id included.
  validate: () => mutationOptions({ mutationFn: validateDar, meta: { errorDisplay: 'inline' } }),
  upload: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'upload'],
      mutationFn: uploadDar,
      meta: {
        errorDisplay: 'inline',
        invalidates: [packageQueries.state()],
        activity: uploadActivity,
      },
    }),
  updateVetting: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'update-vetting'],
      mutationFn: updateVetting,
      meta: { invalidates: [packageQueries.state()], activity: vettingActivity },
      // A failed change refreshes too: after TOPOLOGY_SERIAL_MISMATCH (someone else changed the
      // vetting), a retry must send the serial of the vetting as it is now, and the page show it.
      // Returned, so the mutation fails only once the refresh is done.
      onError: (_error, _variables, _onMutateResult, { client }) =>
        client.invalidateQueries({ queryKey: packageQueries.state() }),
    }),
  applyVettingPlan: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'apply-vetting-plan'],
      mutationFn: applyVettingPlan,
      meta: {
        errorDisplay: 'inline',
        invalidates: [packageQueries.state()],
        activity: vettingPlanActivity,
      },
      // As updateVetting: after a serial mismatch the plan's next dry run must see the new state.
      onError: (_error, _variables, _onMutateResult, { client }) =>
        client.invalidateQueries({ queryKey: packageQueries.state() }),
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(packageMutations);

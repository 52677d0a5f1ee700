import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { PackageContents, PackageNameVersion } from './daml-lf-decoder';
import { directDependencies } from '@ledger-console/participant/daml-lf/package-dependencies';
import type { Schemas } from './schema';

/** Daml's order of package versions, for the lists and search that pick the newest. */
export { comparePackageVersions } from '@ledger-console/participant/daml-lf/package-version';

export type PackageStatus = Schemas['GetPackageStatusResponse']['packageStatus'];

// ── request builders: pure, shared by the calls below and by "Copy as…" ─────────

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
};

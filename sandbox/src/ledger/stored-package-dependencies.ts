import { decodeArchivePayload } from '@ledger-console/participant/daml-lf/decode-package';
import { directDependencies } from '@ledger-console/participant/daml-lf/package-dependencies';
import type { LedgerState } from '../ledger-state';

/**
 * Direct dependencies by package id. Ids are hashes of the archives, so one cache serves every
 * sandbox in the process; bounded, since ids come from what users upload.
 */
const dependencyCache = new Map<string, readonly string[]>();
const MAX_CACHED_DEPENDENCIES = 10_000;

export function dependenciesOf(state: LedgerState, packageId: string): readonly string[] {
  const cached = dependencyCache.get(packageId);
  if (cached) return cached;
  const payload = state.packages.payload(packageId);
  let dependencies: readonly string[] = [];
  if (payload) {
    try {
      dependencies = [...directDependencies(decodeArchivePayload(payload, packageId))].sort();
    } catch {
      // A stored package always decoded once; one that no longer does has nothing to walk.
    }
  }
  if (dependencyCache.size >= MAX_CACHED_DEPENDENCIES) dependencyCache.clear();
  dependencyCache.set(packageId, dependencies);
  return dependencies;
}

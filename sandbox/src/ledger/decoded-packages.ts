import { decodeArchivePayload } from '@ledger-console/participant/daml-lf/decode-package';
import type { DecodedPackage } from '@ledger-console/participant/daml-lf/package-model';
import type { PackagesStore } from '../store/packages-store';

/**
 * The packages of the store, decoded on first use and kept: a package id is the hash of its
 * bytes, so a decoded package never goes stale. The built-in package is stored as a real
 * archive, so it is decoded like any uploaded one.
 */
export function createDecodedPackages(packages: PackagesStore) {
  const decoded = new Map<string, DecodedPackage>();
  return (packageId: string): DecodedPackage | undefined => {
    let pkg = decoded.get(packageId);
    if (!pkg) {
      const payload = packages.payload(packageId);
      if (!payload) return undefined;
      pkg = decodeArchivePayload(payload, packageId);
      decoded.set(packageId, pkg);
    }
    return pkg;
  };
}

export type DecodedPackages = ReturnType<typeof createDecodedPackages>;

import {
  decodeArchivePayload,
  formatLfVersion,
} from '@ledger-console/participant/daml-lf/decode-package';
import type { DecodedPackage } from '@ledger-console/participant/daml-lf/package-model';
import { comparePackageVersions } from '@ledger-console/participant/daml-lf/package-version';
import type { DarPackage } from '@ledger-console/participant/daml-lf/read-dar';
import {
  checkUpgrades,
  describePackage,
  type UpgradeFailure,
  type UpgradePackageSource,
} from '@ledger-console/participant/daml-lf/upgrade-check';
import { SandboxError, invalidArgument, missingField } from '../errors/sandbox-error';
import type { LedgerState } from '../ledger-state';
import { decodePageToken, encodePageToken } from '../store/page-token';
import type { PackageMetadata, VettedEntry, VettingState } from '../store/packages-store';
import type { Schemas } from '../wire-types';
import { dependenciesOf } from './stored-package-dependencies';

/**
 * The participant's package service behind `/v2/dars`, `/v2/packages` and `/v2/package-vetting`:
 * storing DARs, vetting and unvetting packages as topology transactions, and Canton's upgrade
 * checks before any vetting change. Requests arrive decoded and authorized (routes/package-
 * routes.ts); errors are the ones the real service raises, in its order.
 */

/** PackageServiceConfig's default and maximum page of `VettedPackages` (§6). */
export const MAX_VETTED_PACKAGES_PAGE_SIZE = 100;

// ── Requests, as the HTTP layer decodes them ──

/** A timestamp as protobuf holds it; nanoseconds matter for how it is printed back. */
export type Instant = { seconds: number; nanos: number };

export type PackageRef = { packageId: string; packageName: string; packageVersion: string };

export type VettingOperation =
  | {
      Vet: {
        value: {
          packages: PackageRef[];
          newValidFromInclusive: Instant | null;
          newValidUntilExclusive: Instant | null;
        };
      };
    }
  | { Unvet: { value: { packages: PackageRef[] } } }
  | { Empty: object };

export type PriorSerial = { Prior: { value: number } } | { NoPrior: object } | { Empty: object };

export const ALLOW_INCOMPATIBLE_UPGRADES =
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES';

export const ALLOW_UNVETTED_DEPENDENCIES =
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

export type UpdateVettedPackagesRequest = {
  changes: { operation?: VettingOperation | null }[];
  dryRun: boolean;
  synchronizerId: string;
  expectedTopologySerial?: { serial?: PriorSerial | null } | null;
  updateVettedPackagesForceFlags: string[];
};

export type ListVettedPackagesRequest = {
  packageMetadataFilter?: { packageIds: string[]; packageNamePrefixes: string[] } | null;
  topologyStateFilter?: { participantIds: string[]; synchronizerIds: string[] } | null;
  pageToken: string;
  pageSize: number;
};

// ── DARs ──

/**
 * The synchronizer a vetting change goes to, as CantonSyncService.autoDetectSynchronizer picks
 * it: the one asked for if connected, else the only one connected.
 */
export function targetSynchronizer(state: LedgerState, requested: string) {
  if (requested !== '') {
    if (!state.synchronizerIds.includes(requested)) {
      throw new SandboxError(
        'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
        `Cannot upload a dar because the participant is not connected to synchronizer '${requested}'.`,
      );
    }
    return requested;
  }
  if (state.synchronizerIds.length > 1) {
    throw new SandboxError(
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
      `Cannot autodetect synchronizer: currently connected synchronizers ${state.synchronizerIds.join(', ')}`,
    );
  }
  return state.synchronizerId;
}

/**
 * Stores a DAR's packages and, given a synchronizer, vets those not vetted there yet. A
 * participant stores the DAR first and vets it afterwards, so packages whose vetting fails the
 * upgrade checks stay stored, unvetted (inferred; see docs/sandbox-fidelity.md).
 */
export function storeDar(
  state: LedgerState,
  darPackages: readonly DarPackage[],
  synchronizerId: string | undefined,
) {
  const uploadedAt = new Date().toISOString();
  let refusal: SandboxError | undefined;
  state.transaction(() => {
    for (const pkg of darPackages) {
      state.packages.insert({
        packageId: pkg.packageId,
        name: pkg.name,
        version: pkg.version,
        lfVersion: formatLfVersion(pkg.lfVersion),
        payload: pkg.payload,
        uploadedAt,
      });
    }
    if (synchronizerId !== undefined) {
      try {
        // Packages already vetted keep the bounds they have.
        changeVetting(state, synchronizerId, (vetted) => {
          const before = [...vetted.keys()];
          for (const pkg of darPackages) {
            if (!vetted.has(pkg.packageId)) {
              vetted.set(pkg.packageId, {
                packageId: pkg.packageId,
                validFrom: null,
                validUntil: null,
              });
            }
          }
          // Thrown before the new vetting state is saved.
          checkVettingUpgrades(state, before, vetted.keys(), darPackages);
        });
      } catch (error) {
        if (!isUpgradeError(error)) throw error;
        refusal = error;
      }
    }
  });
  if (refusal) throw refusal;
}

/** The upgrade checks of vetting every package of a DAR on a synchronizer, storing nothing. */
export function validateDar(
  state: LedgerState,
  darPackages: readonly DecodedPackage[],
  synchronizerId: string,
) {
  const vetted = (state.vetting.get(synchronizerId, state.participantId)?.packages ?? []).map(
    (entry) => entry.packageId,
  );
  checkVettingUpgrades(
    state,
    vetted,
    [...vetted, ...darPackages.map((pkg) => pkg.packageId)],
    darPackages,
  );
}

// ── Vetting ──

/** Java's `Instant.toString`: the fraction in groups of 3 digits, none when whole seconds. */
function formatInstant({ seconds, nanos }: Instant): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = String(nanos).padStart(9, '0');
  const length = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${base}.${digits.slice(0, length)}Z`;
}

export const compareInstants = (a: Instant, b: Instant) =>
  a.seconds - b.seconds || a.nanos - b.nanos;

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 instant with an offset, to the nanosecond; undefined when it is not one. */
export function parseInstant(text: string): Instant | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const millis = Date.parse(`${match[1] ?? ''}${match[3] ?? ''}`);
  if (Number.isNaN(millis)) return undefined;
  return { seconds: millis / 1000, nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

function toWireVetted(
  state: VettingState,
  entries: VettedEntry[],
  known: Map<string, PackageMetadata>,
): Schemas['VettedPackages'] {
  const packages = entries.map((entry) => {
    const pkg = known.get(entry.packageId);
    return {
      packageId: entry.packageId,
      validFromInclusive: entry.validFrom,
      validUntilExclusive: entry.validUntil,
      packageName: pkg?.name ?? '',
      packageVersion: pkg?.version ?? '',
    };
  });
  packages.sort(
    (a, b) =>
      (a.packageName < b.packageName ? -1 : a.packageName > b.packageName ? 1 : 0) ||
      comparePackageVersions(a.packageVersion, b.packageVersion) ||
      (a.packageId < b.packageId ? -1 : 1),
  );
  return {
    // The real server prints absent bounds as null (§6), which the generated type calls optional.
    packages: packages as Schemas['VettedPackage'][],
    participantId: state.participantId,
    synchronizerId: state.synchronizerId,
    topologySerial: state.serial,
  };
}

function knownPackages(state: LedgerState) {
  return new Map(state.packages.all().map((pkg) => [pkg.packageId, pkg]));
}

/**
 * Applies `change` to this participant's vetting on `synchronizerId` as one topology
 * transaction: the serial only moves when the vetted set or a bound really changed.
 */
function changeVetting(
  state: LedgerState,
  synchronizerId: string,
  change: (vetted: Map<string, VettedEntry>) => void,
  { dryRun = false }: { dryRun?: boolean } = {},
) {
  const before = state.vetting.get(synchronizerId, state.participantId);
  const vetted = new Map(before?.packages.map((entry) => [entry.packageId, entry]));
  change(vetted);
  const packages = [...vetted.values()].sort((a, b) => (a.packageId < b.packageId ? -1 : 1));
  const unchanged =
    before?.packages.length === packages.length &&
    before.packages.every((entry, i) => {
      const other = packages[i];
      return (
        other?.packageId === entry.packageId &&
        other.validFrom === entry.validFrom &&
        other.validUntil === entry.validUntil
      );
    });
  const after: VettingState = {
    synchronizerId,
    participantId: state.participantId,
    serial: unchanged ? before.serial : (before?.serial ?? 0) + 1,
    packages,
  };
  if (!unchanged && !dryRun) state.vetting.save(after);
  return { before, after };
}

/** scalapb's toString of a reference, as Canton prints it in vetting errors. */
const renderRef = (ref: PackageRef) =>
  `VettedPackagesRef(${[ref.packageId, ref.packageName, ref.packageVersion].join(',')})`;

function resolve(ref: PackageRef, known: Map<string, PackageMetadata>): string[] {
  if (ref.packageId === '' && ref.packageName === '') {
    throw invalidArgument('Either package_id or package_name must be set in a package reference');
  }
  return [...known.values()]
    .filter(
      (pkg) =>
        (ref.packageId === '' || pkg.packageId === ref.packageId) &&
        (ref.packageName === '' || pkg.name === ref.packageName) &&
        (ref.packageVersion === '' || pkg.version === ref.packageVersion),
    )
    .map((pkg) => pkg.packageId);
}

function unresolved(ref: PackageRef) {
  return new SandboxError(
    'UNRESOLVED_VETTING_REFERENCE',
    `The vetted package reference ${renderRef(ref)} does not match any package in the package store. Reason: no package matches the reference`,
  );
}

/** The vetting states matching a list request's filters, one page of them. */
export function listVettedPackages(
  state: LedgerState,
  request: ListVettedPackagesRequest,
): Schemas['ListVettedPackagesResponse'] {
  const { pageSize, pageToken } = request;
  if (pageSize < 0) throw invalidArgument('Page size must be non-negative');
  if (pageSize > MAX_VETTED_PACKAGES_PAGE_SIZE) {
    throw invalidArgument(
      `Page size must not exceed the server's maximum of ${String(MAX_VETTED_PACKAGES_PAGE_SIZE)}`,
    );
  }
  let after: [string, string] | undefined;
  if (pageToken !== '') {
    const [synchronizerId, participantId, ...rest] = decodePageToken(pageToken)?.split('\n') ?? [];
    if (synchronizerId === undefined || participantId === undefined || rest.length > 0) {
      throw invalidArgument('Invalid page token');
    }
    after = [synchronizerId, participantId];
  }
  const ids = request.packageMetadataFilter?.packageIds ?? [];
  const prefixes = request.packageMetadataFilter?.packageNamePrefixes ?? [];
  const participants = request.topologyStateFilter?.participantIds ?? [];
  const synchronizers = request.topologyStateFilter?.synchronizerIds ?? [];
  const known = knownPackages(state);
  const matchesPackage = (entry: VettedEntry) => {
    if (ids.length === 0 && prefixes.length === 0) return true;
    const name = known.get(entry.packageId)?.name;
    return (
      ids.includes(entry.packageId) ||
      (name !== undefined && prefixes.some((prefix) => name.startsWith(prefix)))
    );
  };
  const matching = state.vetting
    .all()
    // Only connected synchronizers: a data directory may remember others from an earlier run.
    .filter((vetting) => state.synchronizerIds.includes(vetting.synchronizerId))
    .filter(
      (vetting) =>
        !after ||
        vetting.synchronizerId > after[0] ||
        (vetting.synchronizerId === after[0] && vetting.participantId > after[1]),
    )
    .filter(
      (vetting) => synchronizers.length === 0 || synchronizers.includes(vetting.synchronizerId),
    )
    .filter((vetting) => participants.length === 0 || participants.includes(vetting.participantId))
    .map((vetting) => ({ vetting, entries: vetting.packages.filter(matchesPackage) }))
    .filter(({ entries }) => entries.length > 0);
  const limit = pageSize || MAX_VETTED_PACKAGES_PAGE_SIZE;
  const page = matching.slice(0, limit);
  const last = page.at(-1)?.vetting;
  return {
    vettedPackages: page.map(({ vetting, entries }) => toWireVetted(vetting, entries, known)),
    nextPageToken:
      matching.length > limit && last
        ? encodePageToken(`${last.synchronizerId}\n${last.participantId}`)
        : '',
  };
}

/** Vets and unvets packages as one topology transaction (or a dry run of it). */
export function updateVettedPackages(state: LedgerState, body: UpdateVettedPackagesRequest) {
  if (body.changes.length === 0) throw missingField('changes');
  const synchronizerId = targetSynchronizer(state, body.synchronizerId);
  const known = knownPackages(state);
  const expected = body.expectedTopologySerial?.serial;
  return state.transaction(() => {
    const { before, after } = changeVetting(
      state,
      synchronizerId,
      (vetted) => {
        for (const { operation: op } of body.changes) {
          if (!op || 'Empty' in op) throw missingField('operation');
          if ('Vet' in op) {
            const {
              packages,
              newValidFromInclusive: from,
              newValidUntilExclusive: until,
            } = op.Vet.value;
            if (packages.length === 0) throw missingField('packages');
            if (from && until && compareInstants(from, until) >= 0) {
              throw invalidArgument(
                `new_valid_from_inclusive ${formatInstant(from)} must be before new_valid_until_exclusive ${formatInstant(until)}`,
              );
            }
            for (const ref of packages) {
              const matches = resolve(ref, known);
              const [packageId] = matches;
              if (packageId === undefined) throw unresolved(ref);
              if (matches.length > 1) {
                throw new SandboxError(
                  'AMBIGUOUS_VETTING_REFERENCE',
                  `The package reference ${renderRef(ref)} matches multiple packages: List(${matches.join(', ')})`,
                );
              }
              vetted.set(packageId, {
                packageId,
                validFrom: from ? formatInstant(from) : null,
                validUntil: until ? formatInstant(until) : null,
              });
            }
          } else {
            const { packages } = op.Unvet.value;
            if (packages.length === 0) throw missingField('packages');
            for (const ref of packages) {
              const matches = resolve(ref, known);
              if (matches.length === 0) throw unresolved(ref);
              for (const packageId of matches) vetted.delete(packageId);
            }
          }
        }
      },
      { dryRun: body.dryRun },
    );
    // Checked against the state the change was computed from, inside the same transaction.
    if (expected && !('Empty' in expected)) {
      const wanted = 'Prior' in expected ? expected.Prior.value : undefined;
      if (wanted !== before?.serial) {
        const render = (value: number | undefined) =>
          value === undefined ? 'None' : `Some(${String(value)})`;
        throw new SandboxError(
          'TOPOLOGY_SERIAL_MISMATCH',
          `The provided serial ${render(wanted)} did not match the expected serial ${render(before?.serial)}.`,
        );
      }
    }
    if (!body.updateVettedPackagesForceFlags.includes(ALLOW_UNVETTED_DEPENDENCIES)) {
      checkVettingDependencies(
        state,
        (before?.packages ?? []).map((entry) => entry.packageId),
        after.packages.map((entry) => entry.packageId),
      );
    }
    // After the serial, as the topology manager validates a change only once it is built; the
    // force flag skips both upgrade errors (KNOWN_PACKAGE_VERSION included), dry runs check too.
    if (!body.updateVettedPackagesForceFlags.includes(ALLOW_INCOMPATIBLE_UPGRADES)) {
      checkVettingUpgrades(
        state,
        (before?.packages ?? []).map((entry) => entry.packageId),
        after.packages.map((entry) => entry.packageId),
      );
    }
    return {
      pastVettedPackages: before ? toWireVetted(before, before.packages, known) : null,
      newVettedPackages: toWireVetted(after, after.packages, known),
    };
  });
}

// ── Dependency checks ──

/**
 * The topology manager's dependency check of a vetting change (ParticipantTopologyManager
 * `checkPackageDependencies`): every package newly vetted needs its dependencies, transitively,
 * vetted after the change, and no package removed may be a direct dependency of one still vetted.
 */
function checkVettingDependencies(
  state: LedgerState,
  before: readonly string[],
  after: readonly string[],
) {
  const target = new Set(after);
  const previously = new Set(before);
  const added = after.filter((packageId) => !previously.has(packageId));
  const removed = new Set(before.filter((packageId) => !target.has(packageId)));
  const missing = new Set<string>();
  const seen = new Set<string>();
  const pending = added.flatMap((packageId) => dependenciesOf(state, packageId));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    if (!target.has(next)) missing.add(next);
    pending.push(...dependenciesOf(state, next));
  }
  if (removed.size > 0) {
    for (const packageId of target) {
      for (const dependency of dependenciesOf(state, packageId)) {
        if (removed.has(dependency)) missing.add(dependency);
      }
    }
  }
  if (missing.size === 0) return;
  const unvetted = `Set(${[...missing].sort().join(', ')})`;
  throw new SandboxError(
    'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
    'Package vetting failed due to dependencies not being vetted',
    { context: { unvetted } },
  );
}

// ── Upgrade checks ──

/**
 * Canton's ParticipantTopologyManagerError for a vetting state that would hold packages which
 * cannot upgrade each other. Its context is the error's fields, as for every CantonError.
 */
function upgradeError(failure: UpgradeFailure): SandboxError {
  if (failure.code === 'KNOWN_PACKAGE_VERSION') {
    const firstPackage = describePackage(failure.first);
    const secondPackage = describePackage(failure.second);
    return new SandboxError(
      'KNOWN_PACKAGE_VERSION',
      `Tried to vet two packages with the same name and version: ${firstPackage} and ${secondPackage}.`,
      { context: { firstPackage, secondPackage } },
    );
  }
  const oldPackage = describePackage(failure.oldPackage);
  const newPackage = describePackage(failure.newPackage);
  return new SandboxError(
    'NOT_VALID_UPGRADE_PACKAGE',
    `Upgrade checks indicate that ${newPackage} cannot be an upgrade of ${oldPackage}. Reason: ${failure.reason}`,
    { context: { oldPackage, newPackage, upgradeError: failure.reason } },
  );
}

/** The stored packages, plus `added` (a DAR being uploaded or validated) ahead of them. */
function upgradePackages(
  state: LedgerState,
  added: readonly DecodedPackage[],
): UpgradePackageSource {
  const extra = new Map(added.map((pkg) => [pkg.packageId, pkg]));
  const stored = knownPackages(state);
  const decoded = new Map<string, DecodedPackage | undefined>();
  return {
    info(packageId) {
      const pkg = extra.get(packageId);
      if (pkg) {
        return { name: pkg.name, version: pkg.version, lfVersion: formatLfVersion(pkg.lfVersion) };
      }
      const meta = stored.get(packageId);
      return meta && { name: meta.name, version: meta.version, lfVersion: meta.lfVersion };
    },
    decoded(packageId) {
      const pkg = extra.get(packageId);
      if (pkg) return pkg;
      if (!decoded.has(packageId)) {
        const payload = state.packages.payload(packageId);
        decoded.set(packageId, payload && decodeArchivePayload(payload, packageId));
      }
      return decoded.get(packageId);
    },
  };
}

/**
 * Canton's checks before a vetting change (PackageUpgradeValidator): the lineages of the packages
 * `after` vets that `before` did not must stay upgrade-compatible.
 */
function checkVettingUpgrades(
  state: LedgerState,
  before: Iterable<string>,
  after: Iterable<string>,
  added: readonly DecodedPackage[] = [],
) {
  const previously = new Set(before);
  const next = [...after];
  const failure = checkUpgrades({
    newPackageIds: next.filter((packageId) => !previously.has(packageId)),
    vettedPackageIds: next,
    packages: upgradePackages(state, added),
  });
  if (failure) throw upgradeError(failure);
}

const isUpgradeError = (error: unknown): error is SandboxError =>
  error instanceof SandboxError &&
  (error.code === 'NOT_VALID_UPGRADE_PACKAGE' || error.code === 'KNOWN_PACKAGE_VERSION');

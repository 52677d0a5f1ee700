import { Hono } from 'hono';
import { z } from 'zod';
import { requireAdmin, requireAuthenticated } from '../auth/authorizer';
import { DarError } from '@ledger-console/participant/daml-lf/dar-error';
import { readDar, type Dar } from '@ledger-console/participant/daml-lf/read-dar';
import {
  decodeArchivePayload,
  formatLfVersion,
} from '@ledger-console/participant/daml-lf/decode-package';
import type { DecodedPackage } from '@ledger-console/participant/daml-lf/package-model';
import {
  checkUpgrades,
  describePackage,
  type UpgradeFailure,
  type UpgradePackageSource,
} from '@ledger-console/participant/daml-lf/upgrade-check';
import {
  DecodeFailure,
  SandboxError,
  invalidArgument,
  missingField,
} from '../errors/sandbox-error';
import { list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { decodePageToken, encodePageToken } from '../store/page-token';
import type { PackageMetadata, VettedEntry, VettingState } from '../store/packages-store';
import { packageIdProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';

/** PackageServiceConfig's default and maximum page of `VettedPackages` (§6). */
export const MAX_VETTED_PACKAGES_PAGE_SIZE = 100;

/** The stable Daml-LF range a Canton 3.5 participant accepts outside dev mode (inferred). */
const ALLOWED_LF_RANGE = { min: '2.1', max: '2.2' };

// ── DAR decoding ──

/** The PackageServiceErrors a real participant answers for each way a DAR can be broken. */
export function darErrorToSandboxError(error: DarError): SandboxError {
  switch (error.reason) {
    case 'NOT_A_ZIP':
    case 'NO_DALF':
    case 'NO_MANIFEST':
      return new SandboxError('INVALID_DAR', 'Dar file is corrupt', {
        context: { throwable: error.message },
      });
    case 'INVALID_ZIP_ENTRY':
      return new SandboxError('INVALID_ZIP_ENTRY', 'Dar zip file is corrupt', {
        context: { name: error.details.entry ?? '' },
      });
    case 'INVALID_MANIFEST':
    case 'CORRUPT_ARCHIVE':
    case 'HASH_MISMATCH':
      // Canton keys this context entry by the reason itself, not by the word "reason"; the
      // key is then cut to 63 safe characters like every context key (§1.6).
      return new SandboxError('DAR_PARSE_ERROR', 'Failed to parse the dar file content.', {
        context: { [error.message]: error.message },
      });
    case 'UNSUPPORTED_LF_VERSION': {
      const packageId = error.details.packageId ?? '';
      const version = error.details.lfVersion ?? '';
      return new SandboxError(
        'ALLOWED_LANGUAGE_VERSIONS',
        `Disallowed language version in package ${packageId}: Expected version between ${ALLOWED_LF_RANGE.min} and ${ALLOWED_LF_RANGE.max} but got ${version}`,
        { context: { packageId, languageVersion: version } },
      );
    }
    case 'VALIDATION_FAILED':
      return new SandboxError('DAR_VALIDATION_ERROR', 'Package validation failed.', {
        context: { validationError: error.message },
      });
  }
}

/** How the routes read an uploaded DAR: `readDar` itself, or the same off the main thread. */
export type ReadDarBytes = (bytes: Uint8Array) => Promise<Dar>;

async function decodeDar(c: SandboxContext, read: ReadDarBytes): Promise<Dar> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  try {
    return await read(bytes);
  } catch (error) {
    throw error instanceof DarError ? darErrorToSandboxError(error) : error;
  }
}

/** tapir decodes a Boolean query value with Scala's case-insensitive `toBoolean`. */
function queryBoolean(c: SandboxContext, name: string): boolean | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  const lower = raw.toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw new DecodeFailure(`query parameter ${name}`);
  return lower === 'true';
}

/**
 * The synchronizer a vetting change goes to, as CantonSyncService.autoDetectSynchronizer picks
 * it: the one asked for if connected, else the only one connected.
 */
function targetSynchronizer(state: LedgerState, requested: string) {
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

// ── Vetting model ──

type Instant = { seconds: number; nanos: number };
const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function parseInstant(text: string): Instant | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const millis = Date.parse(`${match[1] ?? ''}${match[3] ?? ''}`);
  if (Number.isNaN(millis)) return undefined;
  return { seconds: millis / 1000, nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

/** Java's `Instant.toString`: the fraction in groups of 3 digits, none when whole seconds. */
function formatInstant({ seconds, nanos }: Instant): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = String(nanos).padStart(9, '0');
  const length = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${base}.${digits.slice(0, length)}Z`;
}

const compareInstants = (a: Instant, b: Instant) => a.seconds - b.seconds || a.nanos - b.nanos;

/** Timestamps decode in circe like any other field, so a bad one is a 400 text/plain. */
const timestamp = () =>
  z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined) return null;
      const instant = parseInstant(value);
      if (!instant) {
        ctx.addIssue({ code: 'custom', message: `Text '${value}' could not be parsed` });
        return z.NEVER;
      }
      return instant;
    });

/** Daml package versions are dot-separated numbers; compare them numerically. */
function compareVersions(a: string, b: string) {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = Number(left[i] ?? -1) - Number(right[i] ?? -1);
    if (diff !== 0 && !Number.isNaN(diff)) return diff;
  }
  return a < b ? -1 : a > b ? 1 : 0;
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
      compareVersions(a.packageVersion, b.packageVersion) ||
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

// ── Request shapes ──

const listRequest = z.object({
  packageMetadataFilter: message(
    z.object({ packageIds: list(z.string()), packageNamePrefixes: list(z.string()) }),
  ),
  topologyStateFilter: message(
    z.object({ participantIds: list(z.string()), synchronizerIds: list(z.string()) }),
  ),
  pageToken: str(),
  pageSize: z.number().int().default(0),
});
type ListRequest = z.infer<typeof listRequest>;

const packageRef = z.object({ packageId: str(), packageName: str(), packageVersion: str() });
type PackageRef = z.infer<typeof packageRef>;

const operation = z.union([
  z.object({
    Vet: z.object({
      value: z.object({
        packages: list(packageRef),
        newValidFromInclusive: timestamp(),
        newValidUntilExclusive: timestamp(),
      }),
    }),
  }),
  z.object({ Unvet: z.object({ value: z.object({ packages: list(packageRef) }) }) }),
  z.object({ Empty: z.object({}) }),
]);

const serial = z.union([
  z.object({ Prior: z.object({ value: z.number().int() }) }),
  z.object({ NoPrior: z.object({}) }),
  z.object({ Empty: z.object({}) }),
]);

const ALLOW_INCOMPATIBLE_UPGRADES =
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES';

const updateRequest = z.object({
  changes: list(z.object({ operation: message(operation) })),
  dryRun: z.boolean().default(false),
  synchronizerId: str(),
  expectedTopologySerial: message(z.object({ serial: message(serial) })),
  updateVettedPackagesForceFlags: list(
    z.enum([
      'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED',
      ALLOW_INCOMPATIBLE_UPGRADES,
      'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
    ]),
  ),
});

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

// ── Handlers ──

async function uploadDar(c: SandboxContext, state: LedgerState, read: ReadDarBytes) {
  const vetAllPackages = queryBoolean(c, 'vetAllPackages') ?? true;
  const synchronizerQuery = c.req.query('synchronizerId') ?? '';
  requireAdmin(c.get('caller'));
  // The synchronizer is picked before the DAR is read, and only when packages are to be vetted:
  // otherwise the participant ignores `synchronizerId` (CantonSyncService.uploadDar).
  const synchronizerId = vetAllPackages ? targetSynchronizer(state, synchronizerQuery) : undefined;
  const dar = await decodeDar(c, read);
  const uploadedAt = new Date().toISOString();
  // A participant stores the DAR first and vets it afterwards, so packages whose vetting fails
  // the upgrade checks stay stored, unvetted (inferred; see docs/sandbox-fidelity.md).
  let refusal: SandboxError | undefined;
  state.transaction(() => {
    for (const pkg of dar.packages) {
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
          for (const pkg of dar.packages) {
            if (!vetted.has(pkg.packageId)) {
              vetted.set(pkg.packageId, {
                packageId: pkg.packageId,
                validFrom: null,
                validUntil: null,
              });
            }
          }
          // Thrown before the new vetting state is saved.
          checkVettingUpgrades(state, before, vetted.keys(), dar.packages);
        });
      } catch (error) {
        if (!isUpgradeError(error)) throw error;
        refusal = error;
      }
    }
  });
  if (refusal) throw refusal;
  return c.json({});
}

function listVetted(c: SandboxContext, state: LedgerState, request: ListRequest) {
  requireAuthenticated(c.get('caller'));
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
  const response: Schemas['ListVettedPackagesResponse'] = {
    vettedPackages: page.map(({ vetting, entries }) => toWireVetted(vetting, entries, known)),
    nextPageToken:
      matching.length > limit && last
        ? encodePageToken(`${last.synchronizerId}\n${last.participantId}`)
        : '',
  };
  return c.json(response);
}

async function updateVetted(c: SandboxContext, state: LedgerState) {
  const body = await readJsonBody(c, updateRequest);
  requireAdmin(c.get('caller'));
  if (body.changes.length === 0) throw missingField('changes');
  const synchronizerId = targetSynchronizer(state, body.synchronizerId);
  const known = knownPackages(state);
  const expected = body.expectedTopologySerial?.serial;
  const response = state.transaction(() => {
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
  return c.json(response as Schemas['UpdateVettedPackagesResponse']);
}

// ── Routes ──

/** `/v2/dars`: upload and validate. */
export function darRoutes(state: LedgerState, read: ReadDarBytes = readDar) {
  return new Hono<SandboxEnv>()
    .post('/', (c) => uploadDar(c, state, read))
    .post('/validate', async (c) => {
      const synchronizerQuery = c.req.query('synchronizerId') ?? '';
      requireAdmin(c.get('caller'));
      // Validation runs against one synchronizer's vetting state, picked before the DAR is read.
      const synchronizerId = targetSynchronizer(state, synchronizerQuery);
      const dar = await decodeDar(c, read);
      // The upgrade checks of vetting every package of the DAR there, without storing anything.
      const vetted = (state.vetting.get(synchronizerId, state.participantId)?.packages ?? []).map(
        (entry) => entry.packageId,
      );
      checkVettingUpgrades(
        state,
        vetted,
        [...vetted, ...dar.packages.map((pkg) => pkg.packageId)],
        dar.packages,
      );
      // The endpoint declares no output, so tapir answers 200 with an empty body.
      return c.body(null, 200);
    });
}

/** `/v2/packages`: list, upload (the older path), download and status. */
export function packageRoutes(state: LedgerState, read: ReadDarBytes = readDar) {
  const checkedId = (c: SandboxContext) => {
    requireAuthenticated(c.get('caller'));
    const packageId = c.req.param('packageId') ?? '';
    const problem = packageIdProblem(packageId);
    if (problem) throw invalidArgument(`Invalid package id: ${problem}`);
    return packageId;
  };
  return new Hono<SandboxEnv>()
    .get('/', (c) => {
      requireAuthenticated(c.get('caller'));
      return c.json({ packageIds: state.packages.all().map((pkg) => pkg.packageId) });
    })
    .post('/', (c) => uploadDar(c, state, read))
    .get('/:packageId', (c) => {
      const packageId = checkedId(c);
      const payload = state.packages.payload(packageId);
      if (!payload) {
        throw new SandboxError('PACKAGE_NOT_FOUND', 'Could not find package.', {
          resources: [['PACKAGE', packageId]],
        });
      }
      return c.body(new Uint8Array(payload), 200, {
        'content-type': 'application/octet-stream',
        'Canton-Package-Hash': packageId,
      });
    })
    .get('/:packageId/status', (c) => {
      const packageId = checkedId(c);
      const known = state.packages.metadata(packageId) !== undefined;
      return c.json({
        packageStatus: known ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED',
      } satisfies Schemas['GetPackageStatusResponse']);
    });
}

/** `/v2/package-vetting`: list and update, plus the deprecated spellings of both. */
export function packageVettingRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .post('/list', async (c) => listVetted(c, state, await readJsonBody(c, listRequest)))
    .get('/', (c) =>
      // Node's HTTP adapter and fetch drop the body of a GET, so the deprecated endpoint can
      // only ever see the empty request; it answers as for `{}` instead of failing to decode.
      listVetted(c, state, listRequest.parse({})),
    )
    .post('/update', (c) => updateVetted(c, state))
    .post('/', (c) => updateVetted(c, state));
}

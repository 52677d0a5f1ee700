import { Hono } from 'hono';
import { z } from 'zod';
import { requireAdmin, requireAuthenticated } from '../auth/authorizer';
import { DarError } from '@ledger-console/participant/daml-lf/dar-error';
import { readDar, type Dar } from '@ledger-console/participant/daml-lf/read-dar';
import { DecodeFailure, SandboxError, invalidArgument } from '../errors/sandbox-error';
import { list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import {
  ALLOW_INCOMPATIBLE_UPGRADES,
  listVettedPackages,
  parseInstant,
  storeDar,
  targetSynchronizer,
  updateVettedPackages,
  validateDar,
  type ListVettedPackagesRequest,
  type UpdateVettedPackagesRequest,
} from '../ledger/package-vetting';
import { packageIdProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';

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

// ── Request shapes ──

/** Timestamps decode in circe like any other field, so a bad one is a 400 text/plain. */
export const timestamp = () =>
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

const listRequest = z.object({
  packageMetadataFilter: message(
    z.object({ packageIds: list(z.string()), packageNamePrefixes: list(z.string()) }),
  ),
  topologyStateFilter: message(
    z.object({ participantIds: list(z.string()), synchronizerIds: list(z.string()) }),
  ),
  pageToken: str(),
  pageSize: z.number().int().default(0),
}) satisfies z.ZodType<ListVettedPackagesRequest>;

const packageRef = z.object({ packageId: str(), packageName: str(), packageVersion: str() });

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
}) satisfies z.ZodType<UpdateVettedPackagesRequest>;

// ── Handlers ──

async function uploadDar(c: SandboxContext, state: LedgerState, read: ReadDarBytes) {
  const vetAllPackages = queryBoolean(c, 'vetAllPackages') ?? true;
  const synchronizerQuery = c.req.query('synchronizerId') ?? '';
  requireAdmin(c.get('caller'));
  // The synchronizer is picked before the DAR is read, and only when packages are to be vetted:
  // otherwise the participant ignores `synchronizerId` (CantonSyncService.uploadDar).
  const synchronizerId = vetAllPackages ? targetSynchronizer(state, synchronizerQuery) : undefined;
  const dar = await decodeDar(c, read);
  storeDar(state, dar.packages, synchronizerId);
  return c.json({});
}

function listVetted(c: SandboxContext, state: LedgerState, request: ListVettedPackagesRequest) {
  requireAuthenticated(c.get('caller'));
  return c.json(listVettedPackages(state, request));
}

async function updateVetted(c: SandboxContext, state: LedgerState) {
  const body = await readJsonBody(c, updateRequest);
  requireAdmin(c.get('caller'));
  const response = updateVettedPackages(state, body);
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
      validateDar(state, dar.packages, synchronizerId);
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

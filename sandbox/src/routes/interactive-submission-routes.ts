import { randomBytes, randomUUID } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { canExecuteAs, canReadAs, type Claims } from '../auth/claims';
import {
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { bool, list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import { transactionFormatSchema } from '../http/stream-requests';
import type { LedgerState } from '../ledger-state';
import { wildcardFor, type EventFilter, type TransactionShape } from '../ledger/event-filter';
import { requireReadFor, shapeOf, toEventFilter } from '../ledger/event-format';
import type { WireSignature } from '../ledger/external/keys';
import { executeSubmission, prepareSubmission } from '../ledger/interactive/interactive-submission';
import { emptyTransaction, toJsTransaction } from '../ledger/projection';
import type { TransactionRecord } from '../ledger/transaction';
import { ledgerStringProblem, partyProblem } from '../validation/identifiers';
import {
  commandSchema,
  deduplicationOf,
  deduplicationPeriodSchema,
  disclosedContractSchema,
  disclosedOf,
  durationSchema,
  effectiveUserId,
  minLedgerTimeOf,
  prefetchContractKeysSchema,
  resolveCommands,
  timestampMicros,
  validateCommandFields,
} from './command-submission';

// ── Request shapes (JsPrepareSubmissionRequest, JsExecuteSubmission*Request) ──

const hashingSchemeVersion = z.enum([
  'HASHING_SCHEME_VERSION_UNSPECIFIED',
  'HASHING_SCHEME_VERSION_V2',
  'HASHING_SCHEME_VERSION_V3',
  'HASHING_SCHEME_VERSION_V4',
]);

const signingAlgorithmSpec = z.enum([
  'SIGNING_ALGORITHM_SPEC_UNSPECIFIED',
  'SIGNING_ALGORITHM_SPEC_ED25519',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384',
  'SIGNING_ALGORITHM_SPEC_ML_DSA_65',
]);

const minLedgerTime = z.object({
  time: message(
    z.union([
      z.object({ MinLedgerTimeAbs: z.object({ value: z.string() }) }),
      z.object({ MinLedgerTimeRel: z.object({ value: durationSchema }) }),
      z.object({ Empty: z.object({}) }),
    ]),
  ),
});
type MinLedgerTime = z.infer<typeof minLedgerTime>;

/** A protobuf `bytes` field: standard base64, as the JSON layer's ByteString codec reads it. */
const base64 = z.string().superRefine((value, ctx) => {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: 'Invalid base64 data' });
  }
});

const prepareRequest = z.object({
  // Required by the decoder itself, as for JsCommands.
  commands: z.array(commandSchema),
  commandId: z.string(),
  actAs: z.array(z.string()),
  userId: str(),
  minLedgerTime: message(minLedgerTime),
  readAs: list(z.string()),
  disclosedContracts: list(disclosedContractSchema),
  synchronizerId: str(),
  packageIdSelectionPreference: list(z.string()),
  verboseHashing: bool(),
  prefetchContractKeys: prefetchContractKeysSchema,
  maxRecordTime: z.string().nullish(),
  estimateTrafficCost: message(
    z.object({ disabled: bool(), expectedSignatures: list(signingAlgorithmSpec) }),
  ),
  tapsMaxPasses: z.number().int().nullish(),
  hashingSchemeVersion: hashingSchemeVersion.default('HASHING_SCHEME_VERSION_V2'),
});

const signature = z.object({
  format: z.string(),
  signature: base64,
  signedBy: z.string(),
  signingAlgorithmSpec: z.string(),
});

const executeFields = {
  preparedTransaction: base64,
  partySignatures: z.object({
    signatures: z.array(z.object({ party: z.string(), signatures: z.array(signature) })),
  }),
  deduplicationPeriod: message(deduplicationPeriodSchema),
  submissionId: z.string(),
  userId: str(),
  hashingSchemeVersion,
  minLedgerTime: message(minLedgerTime),
};
const executeRequest = z.object(executeFields);
type ExecuteBody = z.infer<typeof executeRequest>;
const executeForTransactionRequest = z.object({
  ...executeFields,
  transactionFormat: message(transactionFormatSchema),
});

// ── Validation ──

function minLedgerTimeMicros(value: MinLedgerTime | null | undefined): bigint | null {
  const time = value?.time;
  return minLedgerTimeOf(
    time && 'MinLedgerTimeAbs' in time ? time.MinLedgerTimeAbs.value : null,
    time && 'MinLedgerTimeRel' in time ? time.MinLedgerTimeRel.value : null,
    BigInt(Date.now()) * 1000n,
  );
}

const checkHashingSchemeVersion = (version: z.infer<typeof hashingSchemeVersion>) => {
  if (version === 'HASHING_SCHEME_VERSION_UNSPECIFIED') {
    throw invalidField('hashing_scheme_version', 'Unspecified version');
  }
};

/** SubmitRequestValidator.validatePartySignatures: one entry per party, duplicates merged. */
function partySignatures(body: ExecuteBody): Map<string, WireSignature[]> {
  const byParty = new Map<string, WireSignature[]>();
  for (const entry of body.partySignatures.signatures) {
    const problem = partyProblem(entry.party);
    if (problem) throw invalidField('SinglePartySignatures.party', problem);
    const merged = [...(byParty.get(entry.party) ?? []), ...entry.signatures];
    const distinct = new Map(merged.map((s) => [JSON.stringify(s), s] as const));
    byParty.set(entry.party, [...distinct.values()]);
  }
  return byParty;
}

const UNIQUE_IDENTIFIER = /^[^:]+::[^:]+$/;
const PHYSICAL_SYNCHRONIZER_ID = /^[^:]+::[^:]+::\d+-\d+$/;

/**
 * What an execute request goes through once the JSON layer has parsed its transaction: the
 * authorizer wants CanExecuteAs (or CanActAs) for its acting parties, then
 * SubmitRequestValidator.validateExecute, then the service.
 */
function execute(
  c: SandboxContext,
  state: LedgerState,
  body: ExecuteBody,
  prepared: PreparedTransaction,
  extraReadCheck?: (claims: Claims) => void,
): TransactionRecord {
  const claims = requireAuthenticated(c.get('caller'));
  const userId = effectiveUserId(claims, body.userId);
  for (const party of prepared.metadata?.submitterInfo?.actAs ?? []) {
    if (!canExecuteAs(claims, party)) {
      throw permissionDenied(`Claims do not authorize to execute as party '${party}'`);
    }
  }
  extraReadCheck?.(claims);
  if (body.submissionId !== '') {
    const problem = ledgerStringProblem(body.submissionId);
    if (problem) throw invalidField('submission_id', problem);
  }
  const submissionId = body.submissionId || randomUUID();
  const deduplication = deduplicationOf(body.deduplicationPeriod);
  const signatures = partySignatures(body);
  checkHashingSchemeVersion(body.hashingSchemeVersion);
  const synchronizerId = prepared.metadata?.synchronizerId;
  if (synchronizerId === undefined) throw missingField('synchronizer_id');
  if (!UNIQUE_IDENTIFIER.test(synchronizerId) && !PHYSICAL_SYNCHRONIZER_ID.test(synchronizerId)) {
    throw invalidField(
      'synchronizer_id',
      `Invalid unique identifier \`${synchronizerId}\`: expected <identifier>::<namespace>`,
    );
  }
  const minLedgerTime = minLedgerTimeMicros(body.minLedgerTime);
  // The submission id becomes the correlation id of any error from here on (§1.5, inferred).
  c.set('correlationId', submissionId);
  return executeSubmission(state, {
    preparedTransaction: prepared,
    signatures,
    userId,
    submissionId,
    deduplication,
    hashingSchemeVersion: body.hashingSchemeVersion,
    minLedgerTimeMicros: minLedgerTime,
    traceparent: `00-${c.get('traceId')}-${randomBytes(8).toString('hex')}-01`,
  });
}

/** The JSON layer parses the prepared transaction before the request reaches the service. */
function parsePrepared(body: ExecuteBody): PreparedTransaction {
  try {
    return PreparedTransaction.fromBinary(Buffer.from(body.preparedTransaction, 'base64'));
  } catch {
    throw invalidArgument('Cannot parse prepared_transaction', { origin: 'json' });
  }
}

export function interactiveSubmissionRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .post('/prepare', async (c) => {
      const body = await readJsonBody(c, prepareRequest);
      // JSON layer first: templates are resolved before the gRPC call (§7.1).
      const commands = resolveCommands(state, body.commands);
      const claims = requireAuthenticated(c.get('caller'));
      effectiveUserId(claims, body.userId);
      // Preparing only reads: read rights for every submitting party suffice (the spec's rule).
      for (const party of new Set([...body.actAs, ...body.readAs])) {
        if (!canReadAs(claims, party)) {
          throw permissionDenied(`Claims do not authorize to read as party '${party}'`);
        }
      }
      validateCommandFields(state, body);
      minLedgerTimeMicros(body.minLedgerTime);
      const disclosed = disclosedOf(state, body.disclosedContracts);
      const maxRecordTime =
        body.maxRecordTime === undefined || body.maxRecordTime === null
          ? null
          : timestampMicros('max_record_time', body.maxRecordTime);
      checkHashingSchemeVersion(body.hashingSchemeVersion);
      return c.json(
        prepareSubmission(state, {
          commands,
          actAs: [...new Set(body.actAs)],
          readAs: [...new Set(body.readAs)],
          disclosed,
          synchronizerId: body.synchronizerId === '' ? null : body.synchronizerId,
          commandId: body.commandId,
          maxRecordTimeMicros: maxRecordTime,
          verboseHashing: body.verboseHashing,
          hashingSchemeVersion: body.hashingSchemeVersion,
          costEstimation: {
            disabled: body.estimateTrafficCost?.disabled ?? false,
            expectedSignatures: body.estimateTrafficCost?.expectedSignatures ?? [],
          },
        }),
      );
    })
    .post('/execute', async (c) => {
      const body = await readJsonBody(c, executeRequest);
      execute(c, state, body, parsePrepared(body));
      // The sandbox answers rejections synchronously (docs/sandbox-fidelity.md); the
      // completion of a success is on the completion stream already.
      return c.json({});
    })
    .post('/executeAndWait', async (c) => {
      const body = await readJsonBody(c, executeRequest);
      const tx = execute(c, state, body, parsePrepared(body));
      return c.json({ updateId: tx.updateId, completionOffset: tx.offset });
    })
    .post('/executeAndWaitForTransaction', async (c) => {
      const body = await readJsonBody(c, executeForTransactionRequest);
      const prepared = parsePrepared(body);
      let filter: EventFilter;
      let shape: TransactionShape = 'ACS_DELTA';
      let readCheck: ((claims: Claims) => void) | undefined;
      const format = body.transactionFormat;
      if (format) {
        if (!format.eventFormat) throw missingField('event_format');
        filter = toEventFilter(state, format.eventFormat);
        shape = shapeOf(format.transactionShape);
        readCheck = (claims) => {
          requireReadFor(claims, filter);
        };
      } else {
        // Without a format: ACS delta, a wildcard for the acting parties, verbose.
        filter = wildcardFor(prepared.metadata?.submitterInfo?.actAs ?? []);
      }
      const tx = execute(c, state, body, prepared, readCheck);
      return c.json({ transaction: toJsTransaction(tx, filter, shape) ?? emptyTransaction(tx) });
    });
}

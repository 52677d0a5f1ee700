import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { defaultUserId, requireAuthenticated } from '../auth/authorizer';
import { canActAs, canReadAs, type Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { wildcardFor, type EventFilter, type TransactionShape } from '../ledger/event-filter';
import type { Command } from '../ledger/interpreter';
import type { Deduplication, SubmitRequest } from '../ledger/ledger';
import { decodeCreatedEventBlob, toJsTransaction, toJsTransactionTree } from '../ledger/projection';
import { splitTemplateId } from '../ledger/template-resolver';
import { collectList, streamCompletions } from '../ledger/update-stream';
import {
  isWellFormedContractId,
  type CreateNode,
  type TransactionRecord,
} from '../ledger/transaction';
import { ledgerStringProblem, partyProblem } from '../validation/identifiers';
import { requireReadFor, shapeOf, toEventFilter } from '../ledger/event-format';
import {
  completionStreamRequestSchema,
  getCompletionsRequestSchema,
  listParams,
  transactionFormatSchema,
} from '../http/stream-requests';

// ── Request shapes (JsCommands, §7.1) ──

/** The JSON layer splits identifiers on `:` and wants exactly three parts (§0.7, §1.9). */
const templateId = z.string().superRefine((value, ctx) => {
  if (!splitTemplateId(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `Invalid identifier format (${value}) not matching the expected format (<package>:<moduleName>:<entityName>)`,
    });
  }
});

const command = z.union([
  z.object({
    CreateCommand: z.object({ templateId, createArguments: z.unknown() }),
  }),
  z.object({
    ExerciseCommand: z.object({
      templateId,
      contractId: str(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
  z.object({
    CreateAndExerciseCommand: z.object({
      templateId,
      createArguments: z.unknown(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
  z.object({
    ExerciseByKeyCommand: z.object({
      templateId,
      contractKey: z.unknown(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
]);

const duration = z.object({
  seconds: z.number().int().default(0),
  nanos: z.number().int().default(0),
});

const deduplicationPeriod = z.union([
  z.object({ DeduplicationDuration: z.object({ value: duration }) }),
  z.object({ DeduplicationOffset: z.object({ value: z.number().int() }) }),
  z.object({ Empty: z.object({}) }),
]);

const jsCommands = z.object({
  // Required by the decoder itself: these three are not relaxed (§7.1).
  commands: z.array(command),
  commandId: z.string(),
  actAs: z.array(z.string()),
  userId: str(),
  readAs: list(z.string()),
  workflowId: str(),
  deduplicationPeriod: message(deduplicationPeriod),
  minLedgerTimeAbs: z.string().nullish(),
  minLedgerTimeRel: message(duration),
  submissionId: str(),
  disclosedContracts: list(
    z.object({
      templateId: str(),
      contractId: str(),
      createdEventBlob: str(),
      synchronizerId: str(),
    }),
  ),
  synchronizerId: str(),
  packageIdSelectionPreference: list(z.string()),
  prefetchContractKeys: list(z.unknown()),
  tapsMaxPasses: z.number().int().nullish(),
});
type JsCommands = z.infer<typeof jsCommands>;

const forTransactionRequest = z.object({
  commands: jsCommands,
  transactionFormat: message(transactionFormatSchema),
});

// ── Validation ──

/** JSON-layer template resolution, before the ledger sees the command (§7.1). */
function resolveCommands(state: LedgerState, body: JsCommands): Command[] {
  return body.commands.map((wire): Command => {
    if ('CreateCommand' in wire) {
      const { templateId: id, createArguments } = wire.CreateCommand;
      return { kind: 'create', template: state.templates.resolve(id), argument: createArguments };
    }
    if ('ExerciseCommand' in wire) {
      const { templateId: id, contractId, choice, choiceArgument } = wire.ExerciseCommand;
      const exercised = state.templates.resolveExercised(id);
      return exercised.kind === 'interface'
        ? {
            kind: 'exerciseInterface',
            iface: exercised.iface,
            contractId,
            choice,
            argument: choiceArgument,
          }
        : {
            kind: 'exercise',
            template: exercised.template,
            contractId,
            choice,
            argument: choiceArgument,
          };
    }
    if ('CreateAndExerciseCommand' in wire) {
      const {
        templateId: id,
        createArguments,
        choice,
        choiceArgument,
      } = wire.CreateAndExerciseCommand;
      return {
        kind: 'createAndExercise',
        template: state.templates.resolve(id),
        createArgument: createArguments,
        choice,
        choiceArgument,
      };
    }
    const { templateId: id, contractKey, choice, choiceArgument } = wire.ExerciseByKeyCommand;
    return {
      kind: 'exerciseByKey',
      template: state.templates.resolve(id),
      key: contractKey,
      choice,
      argument: choiceArgument,
    };
  });
}

/** The token's user stands in for an empty userId; any other user is refused (§4.6). */
export function effectiveUserId(claims: Claims, requested: string): string {
  const userId = defaultUserId(claims, requested);
  if (claims.userId !== undefined && userId !== claims.userId) {
    throw permissionDenied(
      `user_id '${requested}' of the request does not match the user '${claims.userId}' of the token`,
    );
  }
  return userId;
}

function authorizeSubmission(claims: Claims, body: JsCommands) {
  for (const party of body.actAs) {
    if (!canActAs(claims, party)) {
      throw permissionDenied(`Claims do not authorize to act as party '${party}'`);
    }
  }
  for (const party of body.readAs.filter((p) => !body.actAs.includes(p))) {
    if (!canReadAs(claims, party)) {
      throw permissionDenied(`Claims do not authorize to read as party '${party}'`);
    }
  }
}

const MICROS_PER_SECOND = 1_000_000n;
const durationMicros = ({ seconds, nanos }: { seconds: number; nanos: number }) =>
  BigInt(seconds) * MICROS_PER_SECOND + BigInt(Math.trunc(nanos / 1000));

function deduplicationOf(body: JsCommands): Deduplication {
  const period = body.deduplicationPeriod;
  if (!period || 'Empty' in period) return { kind: 'default' };
  if ('DeduplicationOffset' in period) {
    const offset = period.DeduplicationOffset.value;
    if (offset < 0) {
      throw new SandboxError(
        'NEGATIVE_OFFSET',
        `Offset ${String(offset)} in deduplication_period is a negative integer: the offset has to be either a positive integer, or zero`,
      );
    }
    return { kind: 'offset', offset };
  }
  const micros = durationMicros(period.DeduplicationDuration.value);
  if (micros < 0n) {
    throw invalidField('deduplication_period', 'Duration must be positive');
  }
  return { kind: 'duration', micros };
}

function minLedgerTimeOf(body: JsCommands, now: bigint): bigint | null {
  const absolute = body.minLedgerTimeAbs;
  if (absolute && body.minLedgerTimeRel) {
    throw invalidArgument('min_ledger_time_abs and min_ledger_time_rel cannot both be set');
  }
  if (absolute) {
    const millis = Date.parse(absolute);
    if (Number.isNaN(millis))
      throw invalidField('min_ledger_time_abs', `Invalid timestamp ${absolute}`);
    return BigInt(millis) * 1000n;
  }
  if (body.minLedgerTimeRel) return now + durationMicros(body.minLedgerTimeRel);
  return null;
}

/**
 * Disclosed contracts, authenticated: on a real participant the contract id is a hash over the
 * contract's content, so a blob cannot claim other signatories or arguments. The sandbox is the
 * only participant there is, so every genuine contract is in its store: the blob must match it.
 */
function disclosedOf(state: LedgerState, body: JsCommands): Map<string, CreateNode> {
  const disclosed = new Map<string, CreateNode>();
  body.disclosedContracts.forEach((wire, i) => {
    const field = `disclosed_contracts[${String(i)}]`;
    if (wire.createdEventBlob === '') throw missingField(`${field}.created_event_blob`);
    const decoded = decodeCreatedEventBlob(wire.createdEventBlob);
    if (!decoded) {
      throw invalidField(`${field}.created_event_blob`, 'Unable to decode the created event blob');
    }
    const { node } = decoded;
    if (wire.contractId !== '' && wire.contractId !== node.contractId) {
      throw invalidArgument(
        `Mismatch between DisclosedContract.contract_id (${wire.contractId}) and the contract id in created_event_blob (${node.contractId})`,
      );
    }
    if (wire.templateId !== '' && wire.templateId !== node.templateId) {
      throw invalidArgument(
        `Mismatch between DisclosedContract.template_id (${wire.templateId}) and the template id in created_event_blob (${node.templateId})`,
      );
    }
    const stored = state.history.contract(node.contractId)?.node;
    if (!stored || JSON.stringify(stored) !== JSON.stringify(node)) {
      throw invalidArgument(
        `Disclosed contract ${node.contractId} failed authentication: its created_event_blob does not match the contract with that id`,
      );
    }
    disclosed.set(stored.contractId, stored);
  });
  return disclosed;
}

/** Everything from the body to the committed transaction, in the real server's order. */
function submit(
  c: SandboxContext,
  state: LedgerState,
  body: JsCommands,
  extraReadCheck?: (claims: Claims) => void,
): TransactionRecord {
  // 1. JSON layer: templates are resolved before the gRPC call, so before authorization.
  const commands = resolveCommands(state, body);
  // 2. gRPC: authorization, then request validation (§7.1).
  const claims = requireAuthenticated(c.get('caller'));
  const userId = effectiveUserId(claims, body.userId);
  authorizeSubmission(claims, body);
  extraReadCheck?.(claims);
  if (body.commandId === '') throw missingField('command_id');
  const commandIdProblem = ledgerStringProblem(body.commandId);
  if (commandIdProblem) throw invalidField('command_id', commandIdProblem);
  if (body.workflowId !== '') {
    const problem = ledgerStringProblem(body.workflowId);
    if (problem) throw invalidField('workflow_id', problem);
  }
  if (body.submissionId !== '') {
    const problem = ledgerStringProblem(body.submissionId);
    if (problem) throw invalidField('submission_id', problem);
  }
  if (body.commands.length === 0) throw missingField('commands');
  if (body.actAs.length === 0) throw missingField('party or act_as');
  for (const party of [...body.actAs, ...body.readAs]) {
    const problem = partyProblem(party);
    if (problem) throw invalidArgument(`Invalid party: ${problem}`);
  }
  for (const wire of body.commands) {
    const exercised = 'ExerciseCommand' in wire ? wire.ExerciseCommand : undefined;
    if (exercised) {
      if (exercised.contractId === '') throw missingField('contract_id');
      if (!isWellFormedContractId(exercised.contractId)) {
        throw invalidField('contract_id', `cannot parse ContractId "${exercised.contractId}"`);
      }
    }
    const withChoice =
      'ExerciseCommand' in wire
        ? wire.ExerciseCommand
        : 'CreateAndExerciseCommand' in wire
          ? wire.CreateAndExerciseCommand
          : 'ExerciseByKeyCommand' in wire
            ? wire.ExerciseByKeyCommand
            : undefined;
    if (withChoice?.choice === '') throw missingField('choice');
  }
  if (body.synchronizerId !== '' && !state.synchronizerIds.includes(body.synchronizerId)) {
    throw invalidArgument(
      `The prescribed synchronizer ${body.synchronizerId} is not connected to this participant`,
    );
  }
  const deduplication = deduplicationOf(body);
  const minLedgerTimeMicros = minLedgerTimeOf(body, BigInt(Date.now()) * 1000n);
  const disclosed = disclosedOf(state, body);
  const request: SubmitRequest = {
    commands,
    userId,
    actAs: [...new Set(body.actAs)],
    readAs: [...new Set(body.readAs)],
    commandId: body.commandId,
    workflowId: body.workflowId,
    submissionId: body.submissionId || randomUUID(),
    deduplication,
    minLedgerTimeMicros,
    disclosed,
    synchronizerId: body.synchronizerId === '' ? null : body.synchronizerId,
    traceparent: `00-${c.get('traceId')}-${randomBytes(8).toString('hex')}-01`,
  };
  // The submission id becomes the correlation id of any error from here on (§1.5, inferred).
  c.set('correlationId', request.submissionId);
  return state.ledger.submit(request);
}

/** Without a transaction format: ACS delta, wildcard for actAs and readAs, verbose (§7.2). */
function defaultTransactionFilter(body: JsCommands): EventFilter {
  return wildcardFor([...body.actAs, ...body.readAs]);
}

export function commandRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .post('/submit-and-wait', async (c) => {
      const body = await readJsonBody(c, jsCommands);
      const tx = submit(c, state, body);
      return c.json({ updateId: tx.updateId, completionOffset: tx.offset });
    })
    .post('/submit-and-wait-for-transaction', async (c) => {
      const { commands: body, transactionFormat } = await readJsonBody(c, forTransactionRequest);
      let filter: EventFilter;
      let shape: TransactionShape = 'ACS_DELTA';
      let readCheck: ((claims: Claims) => void) | undefined;
      if (transactionFormat) {
        if (!transactionFormat.eventFormat) throw missingField('event_format');
        const format = transactionFormat.eventFormat;
        filter = toEventFilter(state, format);
        shape = shapeOf(transactionFormat.transactionShape);
        readCheck = (claims) => {
          requireReadFor(claims, filter);
        };
      } else {
        filter = defaultTransactionFilter(body);
      }
      const tx = submit(c, state, body, readCheck);
      return c.json({ transaction: toJsTransaction(tx, filter, shape) ?? emptyTransaction(tx) });
    })
    .post('/submit-and-wait-for-transaction-tree', async (c) => {
      const body = await readJsonBody(c, jsCommands);
      const tx = submit(c, state, body);
      // Ledger effects with a wildcard for each actAs party; readAs parties are not included (§7.3).
      const tree = toJsTransactionTree(tx, wildcardFor(body.actAs));
      return c.json({ transactionTree: tree ?? emptyTree(tx) });
    })
    .post('/async/submit', async (c) => {
      const body = await readJsonBody(c, jsCommands);
      submit(c, state, body);
      return c.json({});
    })
    .post('/completions', async (c) => {
      const { limit, idleTimeoutMs } = listParams((name) => c.req.query(name));
      const body = await readJsonBody(c, completionStreamRequestSchema);
      const stream = streamCompletions(
        state,
        { endpoint: 'completions', body, caller: c.get('caller') },
        { idleTimeoutMs, signal: c.req.raw.signal },
      );
      return c.json(await collectList(stream, limit));
    })
    .post('/command-completions', async (c) => {
      const { limit, idleTimeoutMs } = listParams((name) => c.req.query(name));
      const body = await readJsonBody(c, getCompletionsRequestSchema);
      const stream = streamCompletions(
        state,
        { endpoint: 'command-completions', body, caller: c.get('caller') },
        { idleTimeoutMs, signal: c.req.raw.signal },
      );
      return c.json(await collectList(stream, limit));
    });
}

/** A transaction the requested parties see nothing of is still returned, with no events. */
function emptyTransaction(tx: TransactionRecord) {
  return {
    updateId: tx.updateId,
    commandId: '',
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    events: [],
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    traceContext: { traceparent: tx.traceparent, tracestate: null },
    recordTime: tx.recordTime,
    externalTransactionHash: null,
    paidTrafficCost: null,
    transactionHash: null,
  };
}

function emptyTree(tx: TransactionRecord) {
  return {
    updateId: tx.updateId,
    commandId: '',
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById: {},
    synchronizerId: tx.synchronizerId,
    traceContext: { traceparent: tx.traceparent, tracestate: null },
    recordTime: tx.recordTime,
  };
}

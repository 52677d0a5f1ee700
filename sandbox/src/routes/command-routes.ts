import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { canActAs, canReadAs, type Claims } from '../auth/claims';
import { missingField, permissionDenied } from '../errors/sandbox-error';
import { list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { wildcardFor, type EventFilter, type TransactionShape } from '../ledger/event-filter';
import { submissionTrafficCost } from '../ledger/interactive/interactive-submission';
import type { SubmitRequest } from '../ledger/ledger';
import { emptyTransaction, toJsTransaction, toJsTransactionTree } from '../ledger/projection';
import { collectList, streamCompletions } from '../ledger/update-stream';
import type { TransactionRecord } from '../ledger/transaction';
import { requireReadFor, shapeOf, toEventFilter } from '../ledger/event-format';
import {
  completionStreamRequestSchema,
  getCompletionsRequestSchema,
  listParams,
  transactionFormatSchema,
} from '../http/stream-requests';
import {
  commandSchema,
  deduplicationOf,
  deduplicationPeriodSchema,
  disclosedContractSchema,
  durationSchema,
  disclosedOf,
  effectiveUserId,
  minLedgerTimeOf,
  prefetchContractKeysSchema,
  resolveCommands,
  validateCommandFields,
} from './command-submission';

// ── Request shapes (JsCommands, §7.1) ──

const jsCommands = z.object({
  // Required by the decoder itself: these three are not relaxed (§7.1).
  commands: z.array(commandSchema),
  commandId: z.string(),
  actAs: z.array(z.string()),
  userId: str(),
  readAs: list(z.string()),
  workflowId: str(),
  deduplicationPeriod: message(deduplicationPeriodSchema),
  minLedgerTimeAbs: z.string().nullish(),
  minLedgerTimeRel: message(durationSchema),
  submissionId: str(),
  disclosedContracts: list(disclosedContractSchema),
  synchronizerId: str(),
  packageIdSelectionPreference: list(z.string()),
  prefetchContractKeys: prefetchContractKeysSchema,
  tapsMaxPasses: z.number().int().nullish(),
});
type JsCommands = z.infer<typeof jsCommands>;

const forTransactionRequest = z.object({
  commands: jsCommands,
  transactionFormat: message(transactionFormatSchema),
});

// ── Validation ──

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

/** Everything from the body to the committed transaction, in the real server's order. */
function submit(
  c: SandboxContext,
  state: LedgerState,
  body: JsCommands,
  extraReadCheck?: (claims: Claims) => void,
): TransactionRecord {
  // 1. JSON layer: templates are resolved before the gRPC call, so before authorization.
  const commands = resolveCommands(state, body.commands);
  // 2. gRPC: authorization, then request validation (§7.1).
  const claims = requireAuthenticated(c.get('caller'));
  const userId = effectiveUserId(claims, body.userId);
  authorizeSubmission(claims, body);
  extraReadCheck?.(claims);
  validateCommandFields(state, body);
  const deduplication = deduplicationOf(body.deduplicationPeriod);
  const minLedgerTimeMicros = minLedgerTimeOf(
    body.minLedgerTimeAbs,
    body.minLedgerTimeRel,
    BigInt(Date.now()) * 1000n,
  );
  const disclosed = disclosedOf(state, body.disclosedContracts);
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
  const trafficCost = submissionTrafficCost(state, request);
  if (trafficCost) request.trafficCost = trafficCost;
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

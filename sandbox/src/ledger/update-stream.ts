import { createHash } from 'node:crypto';
import { defaultUserId, requireAuthenticated, type Caller } from '../auth/authorizer';
import type { Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import type { LedgerState } from '../ledger-state';
import type { CompletionRecord, ContractRecord } from '../store/ledger-store';
import { isValidUserId, partyProblem, userIdRegexMessage } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import {
  requireReadFor,
  shapeOf,
  toEventFilter,
  type EventFormat,
  type Filters,
  type TransactionFilter,
  type UpdateFormat,
} from './event-format';
import {
  visibility,
  type EventFilter,
  type PartyFilter,
  type TransactionShape,
  type Visibility,
} from './event-filter';
import {
  createdEvent,
  toJsReassignment,
  toJsTopologyTransaction,
  toJsTransaction,
  toJsTransactionTree,
  unassignedEvent,
} from './projection';
import {
  checkpointInjector,
  type CheckpointInjector,
  type OffsetCheckpoint,
} from './offset-checkpoints';
import type { UpdateRecord } from './transaction';

/**
 * The core of every stream-like endpoint (updates, active contracts, completions) as async
 * generators of wire elements. The HTTP list endpoints collect them with `collectList`; the
 * websocket endpoints send each element as one message. Requests are validated, in the real
 * server's order, when the first element is pulled, so an invalid request fails the first
 * `next()` before anything has been yielded.
 */

// ── Limits (ledger-api-behaviour.md §10) ──

/** `WebsocketConfig.DefaultHttpListMaxElementsLimit`: more matches than this is a 413. */
const HTTP_LIST_MAX_ELEMENTS = 200;
/** `WebsocketConfig.DefaultHttpListWaitTime`: open-ended list requests end after this idle time. */
export const HTTP_LIST_IDLE_TIMEOUT_MS = 500;

export type StreamOptions = {
  /**
   * End an open-ended stream once this long has passed without a new element. Undefined waits
   * for new updates until `signal` aborts, as a websocket does.
   */
  idleTimeoutMs?: number;
  /** Stops the stream, also while it waits for new updates. */
  signal?: AbortSignal;
};

// ── Requests, as the HTTP layer decodes them (http/stream-requests.ts) ──

/** The legacy DTO of `/v2/updates`, `/flats` and `/trees` (JSV2/LegacyDTOs.scala). */
export type GetUpdatesRequest = {
  beginExclusive: number;
  endInclusive?: number | null;
  filter?: TransactionFilter | null;
  verbose: boolean;
  updateFormat?: UpdateFormat | null;
  descendingOrder: boolean;
};

export type GetActiveContractsRequest = {
  filter?: TransactionFilter | null;
  verbose: boolean;
  activeAtOffset: number;
  eventFormat?: EventFormat | null;
  streamContinuationToken: string;
};

export type CompletionStreamRequest = { userId: string; parties: string[]; beginExclusive: number };

export type GetCompletionsRequest = { parties: string[]; beginExclusive: number };

// ── Offsets: the messages of ParticipantOffsetValidator ──

export function negativeOffset(fieldName: string, value: number) {
  return new SandboxError(
    'NEGATIVE_OFFSET',
    `Offset ${String(value)} in ${fieldName} is a negative integer: the offset in ${fieldName} field has to be a non-negative integer (>=0)`,
  );
}

/** `optional` is the wording for fields that may also be left out (validateOptionalPositive). */
export function nonPositiveOffset(fieldName: string, value: number, optional = false) {
  const rule = optional
    ? 'the offset has to be either a positive integer (>0) or not defined at all'
    : 'the offset has to be a positive integer (>0)';
  return new SandboxError(
    'NON_POSITIVE_OFFSET',
    `Offset ${String(value)} in ${fieldName} is not a positive integer: ${rule}`,
  );
}

/** `offsetType` is `Begin`, `End` or a field name, as the real validators pass it. */
export function requireNotAfterLedgerEnd(offsetType: string, offset: number, ledgerEnd: number) {
  if (offset > ledgerEnd) {
    throw new SandboxError(
      'OFFSET_AFTER_LEDGER_END',
      `${offsetType} offset (${String(offset)}) is after ledger end (${String(ledgerEnd)})`,
    );
  }
}

// ── Formats ──

/** What an update format selects, validated. */
export type UpdateSelection = {
  transactions: { filter: EventFilter; shape: TransactionShape } | null;
  /** Reassignments are always in the ACS-delta shape. */
  reassignments: EventFilter | null;
  /** Parties whose participant authorization changes to show; 'all' for an empty list. */
  topologyParties: readonly string[] | 'all' | null;
};

const ANY_FILTER: PartyFilter = {
  wildcard: true,
  templates: new Map(),
  interfaces: new Map(),
  wildcardIncludesBlob: false,
};

/** The parties a format names, in the shape `requireReadFor` checks (RequiredClaims). */
function claimsOf(parties: Iterable<string>, anyParty: boolean) {
  return {
    byParty: new Map([...parties].map((party) => [party, ANY_FILTER] as const)),
    anyParty: anyParty ? ANY_FILTER : null,
  };
}

export function requireReadForEventFormat(claims: Claims, format: TransactionFilter) {
  requireReadFor(claims, claimsOf(Object.keys(format.filtersByParty), !!format.filtersForAnyParty));
}

/** RequiredClaims.updateFormatClaims: ReadAs per named party, ReadAsAnyParty for any-party. */
export function requireReadForUpdateFormat(claims: Claims, format: UpdateFormat) {
  const eventFormat = format.includeTransactions?.eventFormat;
  if (eventFormat) requireReadForEventFormat(claims, eventFormat);
  if (format.includeReassignments) requireReadForEventFormat(claims, format.includeReassignments);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology) {
    requireReadFor(claims, claimsOf(topology.parties, topology.parties.length === 0));
  }
}

/** FormatValidator.validate(UpdateFormat), raising the same errors in the same order. */
export function toUpdateSelection(state: LedgerState, format: UpdateFormat): UpdateSelection {
  let transactions: UpdateSelection['transactions'] = null;
  const transactionFormat = format.includeTransactions;
  if (transactionFormat) {
    const shape = shapeOf(transactionFormat.transactionShape);
    if (!transactionFormat.eventFormat) throw missingField('event_format');
    transactions = { filter: toEventFilter(state, transactionFormat.eventFormat), shape };
  }
  const reassignments = format.includeReassignments
    ? toEventFilter(state, format.includeReassignments)
    : null;
  let topologyParties: UpdateSelection['topologyParties'] = null;
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology) {
    for (const party of topology.parties) {
      const problem = partyProblem(party);
      if (problem) throw invalidField('parties', problem);
    }
    topologyParties = topology.parties.length === 0 ? 'all' : topology.parties;
  }
  return { transactions, reassignments, topologyParties };
}

/** One update as `/v2/updates` and the point lookups print it, or null when nothing is visible. */
export function renderUpdate(
  update: UpdateRecord,
  selection: UpdateSelection,
): Schemas['Update'] | null {
  if (update.kind === 'transaction') {
    if (!selection.transactions) return null;
    const { filter, shape } = selection.transactions;
    const transaction = toJsTransaction(update, filter, shape);
    return transaction && { Transaction: { value: transaction } };
  }
  if (update.kind === 'reassignment') {
    if (!selection.reassignments) return null;
    const reassignment = toJsReassignment(update, selection.reassignments);
    return reassignment && { Reassignment: { value: reassignment } };
  }
  if (!selection.topologyParties) return null;
  const topology = toJsTopologyTransaction(update, selection.topologyParties);
  return topology && { TopologyTransaction: { value: topology } };
}

/**
 * One update as `/v2/updates/trees` prints it: the JSON layer turns each transaction into a tree,
 * passes reassignments through and drops topology transactions, for which the legacy shape has
 * no case (JsUpdateService).
 */
function renderUpdateTree(
  update: UpdateRecord,
  selection: UpdateSelection,
): Schemas['Update1'] | null {
  if (update.kind === 'reassignment') {
    if (!selection.reassignments) return null;
    const reassignment = toJsReassignment(update, selection.reassignments);
    return reassignment && { Reassignment: { value: reassignment } };
  }
  if (update.kind !== 'transaction' || !selection.transactions) return null;
  const { filter, shape } = selection.transactions;
  const tree = toJsTransactionTree(update, filter, shape);
  return tree && { TransactionTree: { value: tree } };
}

// ── Waiting for the ledger ──

/**
 * Remembers whether anything was committed since the last `reset`, so that an update committed
 * between reading the store and starting to wait is never missed.
 */
function watchLedger(state: LedgerState) {
  let dirty = false;
  let wake: (() => void) | undefined;
  const unsubscribe = state.ledger.subscribe(() => {
    dirty = true;
    wake?.();
  });
  return {
    reset() {
      dirty = false;
    },
    /** True when something was committed; false when the time ran out or the stream was stopped. */
    wait(timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<boolean> {
      if (dirty) return Promise.resolve(true);
      if (signal?.aborted) return Promise.resolve(false);
      return new Promise((resolve) => {
        const finish = (committed: boolean) => {
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          wake = undefined;
          resolve(committed);
        };
        const onAbort = () => {
          finish(false);
        };
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                finish(false);
              }, timeoutMs);
        wake = () => {
          finish(true);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close: unsubscribe,
  };
}

/** Time since the last element: pekko's `idleTimeout` on the list endpoints' element stream. */
function idleClock() {
  let last = Date.now();
  return {
    touch() {
      last = Date.now();
    },
    remaining(timeoutMs: number | undefined) {
      return timeoutMs === undefined ? undefined : timeoutMs - (Date.now() - last);
    },
  };
}

type IdleClock = ReturnType<typeof idleClock>;

const READ_BATCH = 500;

/** What `follow` yields: rows, and the marks offset checkpoints are placed by. */
type Followed<Row> =
  | { kind: 'row'; row: Row }
  | { kind: 'rangeBegin'; offset: number }
  | { kind: 'rangeEnd'; offset: number }
  | { kind: 'timeout' };

/**
 * Rows with offsets in `(after, end]`, ascending; with `end` null it follows the ledger end and
 * waits for new commits until the idle time runs out or the signal aborts. Each read up to the
 * then ledger end is a range, marked at its start and end; while it waits, a `timeout` mark
 * comes after each quiet `checkpointIdleMs` (the participant's keep-alive for checkpoints).
 */
async function* follow<Row extends { offset: number }>(
  state: LedgerState,
  read: (after: number, upTo: number, limit: number) => Row[],
  after: number,
  end: number | null,
  options: StreamOptions,
  idle: IdleClock,
): AsyncGenerator<Followed<Row>> {
  // Subscribe before the first read, so nothing committed in between is missed.
  const watcher = end === null ? watchLedger(state) : undefined;
  const checkpointIdleMs = state.offsetCheckpoints.config.idleTimeoutMs;
  try {
    let cursor = after;
    let quietSince = Date.now();
    for (;;) {
      if (options.signal?.aborted) return;
      watcher?.reset();
      const upTo = end ?? state.history.ledgerEnd();
      if (cursor < upTo) {
        yield { kind: 'rangeBegin', offset: cursor + 1 };
        for (let from = cursor; ;) {
          const rows = read(from, upTo, READ_BATCH);
          for (const row of rows) {
            from = row.offset;
            yield { kind: 'row', row };
            if (options.signal?.aborted) return;
          }
          if (rows.length < READ_BATCH) break;
        }
        cursor = upTo;
        yield { kind: 'rangeEnd', offset: upTo };
        quietSince = Date.now();
      }
      if (!watcher) return;
      const budget = idle.remaining(options.idleTimeoutMs);
      if (budget !== undefined && budget <= 0) return;
      const untilTimeout = Math.max(0, checkpointIdleMs - (Date.now() - quietSince));
      const waitMs = budget === undefined ? untilTimeout : Math.min(budget, untilTimeout);
      if (await watcher.wait(waitMs, options.signal)) continue;
      if (options.signal?.aborted) return;
      if (Date.now() - quietSince >= checkpointIdleMs) {
        quietSince = Date.now();
        yield { kind: 'timeout' };
      }
    }
  } finally {
    watcher?.close();
  }
}

/**
 * The wire elements of a followed stream: each row rendered (null when the reader sees none of
 * it) and, for a tailing stream (`injector` given), the offset checkpoints placed among them.
 */
async function* renderFollowed<Row extends { offset: number }, T>(
  followed: AsyncIterable<Followed<Row>> | Iterable<Followed<Row>>,
  render: (row: Row) => T | null,
  injector: CheckpointInjector | undefined,
  checkpoint: (checkpoint: OffsetCheckpoint) => T,
  idle: IdleClock,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  for await (const item of followed) {
    if (signal?.aborted) return;
    const rendered = item.kind === 'row' ? render(item.row) : null;
    if (item.kind === 'row' && rendered === null) continue;
    const mark = item.kind === 'row' ? { kind: 'element' as const, offset: item.row.offset } : item;
    for (const due of injector?.mark(mark) ?? []) {
      idle.touch();
      yield checkpoint(due);
    }
    if (rendered !== null) {
      idle.touch();
      yield rendered;
    }
  }
}

// ── Updates ──

export type UpdatesEndpoint = 'updates' | 'flats' | 'trees';

export type UpdatesStreamRequest = {
  /** `/v2/updates` and `/flats` give ACS deltas by default, `/trees` gives transaction trees. */
  endpoint: UpdatesEndpoint;
  body: GetUpdatesRequest;
  caller: Caller;
};

export type UpdatesStreamElement =
  Schemas['JsGetUpdatesResponse'] | Schemas['JsGetUpdateTreesResponse'];

const BOTH_FORMATS = (what: string) =>
  `Both update_format and ${what} are set. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.`;

/** Trees see everything a party sees: the legacy conversion adds a wildcard to each filter. */
function withWildcard(filters: Filters): Filters {
  const hasWildcard = filters.cumulative.some(
    ({ identifierFilter }) => !!identifierFilter && 'WildcardFilter' in identifierFilter,
  );
  if (hasWildcard) return filters;
  return {
    cumulative: [
      ...filters.cumulative,
      { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
    ],
  };
}

/**
 * The JSON layer's conversion of the legacy request (JsUpdateService.toGetUpdatesRequest): it
 * runs before the gRPC call, so before authorization. A legacy filter asks for transactions
 * and reassignments, never for topology events.
 */
function updateFormatOf(body: GetUpdatesRequest, forTrees: boolean): UpdateFormat {
  const { updateFormat, filter, verbose } = body;
  if (updateFormat && filter) throw invalidArgument(BOTH_FORMATS('filter'));
  if (updateFormat && verbose) throw invalidArgument(BOTH_FORMATS('verbose'));
  if (updateFormat) return updateFormat;
  if (!filter) {
    throw invalidArgument(
      'Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.',
    );
  }
  const convert = (filters: Filters) => (forTrees ? withWildcard(filters) : filters);
  const eventFormat: EventFormat = {
    filtersByParty: Object.fromEntries(
      Object.entries(filter.filtersByParty).map(([party, filters]) => [party, convert(filters)]),
    ),
    filtersForAnyParty: filter.filtersForAnyParty ? convert(filter.filtersForAnyParty) : null,
    verbose,
  };
  return {
    includeTransactions: {
      eventFormat,
      transactionShape: forTrees
        ? 'TRANSACTION_SHAPE_LEDGER_EFFECTS'
        : 'TRANSACTION_SHAPE_ACS_DELTA',
    },
    includeReassignments: eventFormat,
    includeTopologyEvents: null,
  };
}

type UpdatesPlan = {
  after: number;
  end: number | null;
  descending: boolean;
  selection: UpdateSelection;
  trees: boolean;
};

/** JSON-layer conversion, then authorization, then UpdateServiceRequestValidator.validate. */
function planUpdates(state: LedgerState, request: UpdatesStreamRequest): UpdatesPlan {
  const { body } = request;
  const trees = request.endpoint === 'trees';
  const format = updateFormatOf(body, trees);
  const claims = requireAuthenticated(request.caller);
  requireReadForUpdateFormat(claims, format);
  if (body.beginExclusive < 0) throw negativeOffset('begin_exclusive', body.beginExclusive);
  const end = body.endInclusive ?? null;
  if (body.descendingOrder && end === null) {
    // DescendingOrderMissingEnd; its code and text are not in the reference (inferred).
    throw invalidArgument('end_inclusive must be set when descending_order is requested');
  }
  if (end !== null && end <= 0) {
    throw nonPositiveOffset('end_inclusive', end, !body.descendingOrder);
  }
  const ledgerEnd = state.history.ledgerEnd();
  requireNotAfterLedgerEnd('Begin', body.beginExclusive, ledgerEnd);
  if (end !== null) requireNotAfterLedgerEnd('End', end, ledgerEnd);
  return {
    after: body.beginExclusive,
    end,
    descending: body.descendingOrder,
    selection: toUpdateSelection(state, format),
    trees,
  };
}

function* rowsOf<Row>(rows: Iterable<Row>): Generator<Followed<Row>> {
  for (const row of rows) yield { kind: 'row', row };
}

/** Closed ranges newest first, read in batches from the end. */
function* descendingUpdates(state: LedgerState, after: number, end: number) {
  let upTo = end;
  while (upTo > after) {
    const batch = state.history.updates(after, upTo, READ_BATCH, true);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < READ_BATCH) return;
    upTo = last.offset - 1;
  }
}

/**
 * `/v2/updates`, `/v2/updates/flats` and `/v2/updates/trees`: the updates after `beginExclusive`
 * the format selects, each as `{"update": …}`. A closed range ends at `endInclusive`; an open
 * one follows the ledger end (see `StreamOptions`) and gets offset checkpoints, as a tailing
 * stream does on the participant.
 */
export async function* streamUpdates(
  state: LedgerState,
  request: UpdatesStreamRequest,
  options: StreamOptions = {},
): AsyncGenerator<UpdatesStreamElement> {
  const plan = planUpdates(state, request);
  const idle = idleClock();
  const tailing = !plan.descending && plan.end === null;
  const updates = plan.descending
    ? rowsOf(descendingUpdates(state, plan.after, plan.end ?? 0))
    : follow(
        state,
        (after, upTo, limit) => state.history.updates(after, upTo, limit),
        plan.after,
        plan.end,
        options,
        idle,
      );
  yield* renderFollowed(
    updates,
    (update): UpdatesStreamElement | null => {
      const rendered = plan.trees
        ? renderUpdateTree(update, plan.selection)
        : renderUpdate(update, plan.selection);
      return rendered && ({ update: rendered } as UpdatesStreamElement);
    },
    tailing ? checkpointInjector(() => state.offsetCheckpoints.fetch()) : undefined,
    (checkpoint) => ({ update: { OffsetCheckpoint: { value: checkpoint } } }),
    idle,
    options.signal,
  );
}

// ── Active contracts ──

export type ActiveContractsStreamRequest = {
  body: GetActiveContractsRequest;
  caller: Caller;
};

const BOTH_ACS_FORMATS =
  'Both filter/verbose and event_format is specified. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.';

/** A contract active at an offset, with what the requesting parties see of it. */
export type VisibleContract = { contract: ContractRecord; seen: Visibility };

/** Active contracts at `offset` the filter's parties are stakeholders of, in creation order. */
export function* visibleActiveContracts(
  state: LedgerState,
  filter: EventFilter,
  offset: number,
): Generator<VisibleContract> {
  if (offset === 0) return;
  for (const contract of state.history.activeAt(offset)) {
    const { node } = contract;
    const seen = visibility(filter, node, [...node.signatories, ...node.observers]);
    if (seen) yield { contract, seen };
  }
}

/** Workflow ids of creating transactions and reassignments, looked up once per offset. */
export function workflowIds(state: LedgerState) {
  const cache = new Map<number, string>();
  return (offset: number) => {
    let workflowId = cache.get(offset);
    if (workflowId === undefined) {
      const update = state.history.updateByOffset(offset);
      workflowId =
        update?.kind === 'transaction' || update?.kind === 'reassignment' ? update.workflowId : '';
      cache.set(offset, workflowId);
    }
    return workflowId;
  };
}

/**
 * A `JsGetActiveContractsResponse` for a contract of the snapshot (ACS-delta presentation): a
 * `JsActiveContract` on the synchronizer it is assigned to, its created event as of the update
 * that last activated it there, or a `JsIncompleteUnassigned` while it is in flight. The
 * workflow id is that of the activating update (of the unassignment, in flight).
 */
export function toActiveContractResponse(
  state: LedgerState,
  { contract, seen }: VisibleContract,
  workflowIdOf: (offset: number) => string,
  streamContinuationToken: string,
): Schemas['JsGetActiveContractsResponse'] {
  const { location } = contract;
  const activated = createdEvent(
    { ...contract.node, nodeId: location.activatedAt.nodeId },
    location.activatedAt.offset,
    contract.createdAt,
    seen,
    true,
  );
  if (location.status === 'assigned') {
    return {
      workflowId: workflowIdOf(location.activatedAt.offset),
      contractEntry: {
        JsActiveContract: {
          createdEvent: activated,
          synchronizerId: location.synchronizerId,
          reassignmentCounter: location.reassignmentCounter,
        },
      },
      streamContinuationToken,
    };
  }
  const unassignment = state.history.updateByOffset(location.unassignedAt.offset);
  if (unassignment?.kind !== 'reassignment') {
    throw new Error(`no unassignment at offset ${String(location.unassignedAt.offset)}`);
  }
  return {
    workflowId: unassignment.workflowId,
    contractEntry: {
      JsIncompleteUnassigned: {
        createdEvent: activated,
        unassignedEvent: unassignedEvent(unassignment, location.unassignedAt.nodeId, seen),
      },
    },
    streamContinuationToken,
  };
}

/** Where a contract sits in a snapshot: creation offset, then node id. */
export type SnapshotPosition = { offset: number; nodeId: number };

export const positionOf = (contract: ContractRecord): SnapshotPosition => ({
  offset: contract.createdOffset,
  nodeId: contract.node.nodeId,
});

export const isAfter = (contract: ContractRecord, position: SnapshotPosition) =>
  contract.createdOffset > position.offset ||
  (contract.createdOffset === position.offset && contract.node.nodeId > position.nodeId);

/** The event format of an ACS request: either the legacy filter/verbose or `eventFormat`. */
function acsEventFormatOf(
  body: Partial<Pick<GetActiveContractsRequest, 'filter' | 'verbose' | 'eventFormat'>>,
): EventFormat {
  const { filter, eventFormat } = body;
  const verbose = body.verbose ?? false;
  if (filter && eventFormat) throw invalidArgument(BOTH_ACS_FORMATS);
  if (eventFormat && verbose) throw invalidArgument(BOTH_ACS_FORMATS);
  if (eventFormat) return eventFormat;
  if (!filter) {
    throw invalidArgument(
      'Either filter/verbose or event_format is required. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.',
    );
  }
  return {
    filtersByParty: filter.filtersByParty,
    filtersForAnyParty: filter.filtersForAnyParty,
    verbose,
  };
}

/**
 * `/v2/state/active-contracts`: the contracts active at `activeAtOffset` whose stakeholders
 * include a requesting party, as `JsActiveContract` entries in creation order. Each carries a
 * continuation token; a request with one resumes after that entry.
 */
export async function* streamActiveContracts(
  state: LedgerState,
  request: ActiveContractsStreamRequest,
  options: StreamOptions = {},
): AsyncGenerator<Schemas['JsGetActiveContractsResponse']> {
  const { body } = request;
  const claims = requireAuthenticated(request.caller);
  if (body.eventFormat) requireReadForEventFormat(claims, body.eventFormat);
  if (body.filter) requireReadForEventFormat(claims, body.filter);
  const filter = toEventFilter(state, acsEventFormatOf(body));
  const activeAt = body.activeAtOffset;
  if (activeAt < 0) throw negativeOffset('active_at_offset', activeAt);
  requireNotAfterLedgerEnd('active_at_offset', activeAt, state.history.ledgerEnd());
  const resumeAfter = continuationPosition(body.streamContinuationToken, activeAt);
  const workflowIdOf = workflowIds(state);
  // The snapshot is read synchronously; this stays an async generator like the other streams,
  // so the list and websocket code can drive all of them alike.
  await Promise.resolve();
  for (const visible of visibleActiveContracts(state, filter, activeAt)) {
    if (options.signal?.aborted) return;
    if (resumeAfter && !isAfter(visible.contract, resumeAfter)) continue;
    const token = encodeToken({ kind: 'acs', activeAt, ...positionOf(visible.contract) });
    yield toActiveContractResponse(state, visible, workflowIdOf, token);
  }
}

function continuationPosition(token: string, activeAt: number): SnapshotPosition | undefined {
  if (token === '') return undefined;
  const payload = decodeToken(token);
  if (
    payload?.kind !== 'acs' ||
    payload.activeAt !== activeAt ||
    typeof payload.offset !== 'number' ||
    typeof payload.nodeId !== 'number'
  ) {
    // The real error for a foreign token is not in the reference (inferred).
    throw invalidField(
      'stream_continuation_token',
      'the token is not one of this participant, or was issued for another active_at_offset',
    );
  }
  return { offset: payload.offset, nodeId: payload.nodeId };
}

// ── Completions ──

export type CompletionsStreamRequest =
  /** `/v2/commands/completions`: one user's completions for some of its actAs parties. */
  | { endpoint: 'completions'; body: CompletionStreamRequest; caller: Caller }
  /** `/v2/commands/command-completions`: every user's; no parties means any party. */
  | { endpoint: 'command-completions'; body: GetCompletionsRequest; caller: Caller };

type CompletionsPlan = {
  after: number;
  /** Only this user's completions; undefined for all users. */
  userId: string | undefined;
  parties: ReadonlySet<string> | 'all';
};

function checkParties(parties: readonly string[]) {
  for (const party of parties) {
    const problem = partyProblem(party);
    if (problem) throw invalidArgument(problem);
  }
}

/** CommandCompletionServiceAuthorization, then CompletionServiceRequestValidator. */
function planCompletions(state: LedgerState, request: CompletionsStreamRequest): CompletionsPlan {
  const claims = requireAuthenticated(request.caller);
  const ledgerEnd = state.history.ledgerEnd();
  if (request.endpoint === 'command-completions') {
    const { parties, beginExclusive } = request.body;
    requireReadFor(claims, claimsOf(parties, parties.length === 0));
    checkParties(parties);
    if (beginExclusive < 0) throw negativeOffset('begin_exclusive', beginExclusive);
    requireNotAfterLedgerEnd('Begin', beginExclusive, ledgerEnd);
    return {
      after: beginExclusive,
      userId: undefined,
      parties: parties.length === 0 ? 'all' : new Set(parties),
    };
  }
  const { parties, beginExclusive } = request.body;
  // MatchUserId: the token's user stands in for an empty userId (Authorizer.defaultUserId).
  const userId = defaultUserId(claims, request.body.userId);
  if (!claims.readAsAnyParty && claims.userId !== undefined && claims.userId !== userId) {
    throw permissionDenied(`Claims are only valid for userId '${claims.userId}'`);
  }
  requireReadFor(claims, claimsOf(parties, false));
  if (!isValidUserId(userId)) throw invalidField('user_id', userIdRegexMessage(userId));
  checkParties(parties);
  if (beginExclusive < 0) throw negativeOffset('begin_exclusive', beginExclusive);
  requireNotAfterLedgerEnd('Begin', beginExclusive, ledgerEnd);
  if (parties.length === 0) throw missingField('parties');
  return { after: beginExclusive, userId, parties: new Set(parties) };
}

/** A successful command's completion (`Completion1`), actAs narrowed to the requested parties. */
function toCompletionResponse(
  completion: CompletionRecord,
  actAs: string[],
): Schemas['CompletionStreamResponse'] {
  const value = {
    commandId: completion.commandId,
    status: { code: 0, message: '', details: [] },
    updateId: completion.updateId,
    userId: completion.userId,
    actAs,
    submissionId: completion.submissionId,
    deduplicationPeriod: completion.deduplicationPeriod,
    traceContext: { traceparent: completion.traceparent, tracestate: null },
    offset: completion.offset,
    synchronizerTime: {
      synchronizerId: completion.synchronizerId,
      recordTime: completion.recordTime,
    },
    paidTrafficCost: completion.paidTrafficCost ?? null,
    transactionHash: null,
  };
  return {
    completionResponse: { Completion: { value } },
  } as unknown as Schemas['CompletionStreamResponse'];
}

/**
 * `/v2/commands/completions` and `/v2/commands/command-completions`: completions after
 * `beginExclusive`, then new ones as commands succeed. Completion streams are always
 * open-ended, so they get offset checkpoints. Only successful commands complete here: failed
 * submissions are rejected synchronously and leave no completion.
 */
export async function* streamCompletions(
  state: LedgerState,
  request: CompletionsStreamRequest,
  options: StreamOptions = {},
): AsyncGenerator<Schemas['CompletionStreamResponse']> {
  const plan = planCompletions(state, request);
  const idle = idleClock();
  const completions = follow(
    state,
    (after, upTo, limit) => state.history.completions(after, upTo).slice(0, limit),
    plan.after,
    null,
    options,
    idle,
  );
  const { parties } = plan;
  yield* renderFollowed(
    completions,
    (completion) => {
      if (plan.userId !== undefined && completion.userId !== plan.userId) return null;
      const actAs =
        parties === 'all'
          ? completion.actAs
          : completion.actAs.filter((party) => parties.has(party));
      return actAs.length === 0 ? null : toCompletionResponse(completion, actAs);
    },
    checkpointInjector(() => state.offsetCheckpoints.fetch()),
    (checkpoint) => ({
      completionResponse: { OffsetCheckpoint: { value: checkpoint } },
    }),
    idle,
    options.signal,
  );
}

// ── HTTP list endpoints ──

/**
 * Collects a stream for a list endpoint as `Endpoints.asList` does: it takes at most
 * min(limit, 200 + 1) elements, and more than 200 is a 413 — so a `limit` above 200 does not
 * lift the cap. A `limit` of zero or less answers an empty list without running the stream.
 */
export async function collectList<T>(
  stream: AsyncGenerator<T>,
  limit: number | undefined,
): Promise<T[]> {
  const take = Math.min(limit ?? HTTP_LIST_MAX_ELEMENTS + 1, HTTP_LIST_MAX_ELEMENTS + 1);
  const elements: T[] = [];
  if (take <= 0) return elements;
  try {
    for await (const element of stream) {
      elements.push(element);
      if (elements.length >= take) break;
    }
  } finally {
    await stream.return(undefined);
  }
  if (elements.length > HTTP_LIST_MAX_ELEMENTS) {
    throw new SandboxError(
      'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
      `The number of matching elements (${String(elements.length)}) is greater than the node limit (${String(HTTP_LIST_MAX_ELEMENTS)}).`,
      { origin: 'json', httpStatus: 413 },
    );
  }
  return elements;
}

// ── Opaque tokens (page tokens, continuation tokens) ──

type TokenPayload = Record<string, unknown> & { kind: string };

const TOKEN_PREFIX = 'lcs1:';

/** Standard Base64 (protobuf bytes on the wire) of a versioned JSON payload. */
export function encodeToken(payload: TokenPayload): string {
  return Buffer.from(`${TOKEN_PREFIX}${JSON.stringify(payload)}`).toString('base64');
}

export function decodeToken(token: string): TokenPayload | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  if (!text.startsWith(TOKEN_PREFIX)) return undefined;
  try {
    const payload: unknown = JSON.parse(text.slice(TOKEN_PREFIX.length));
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    const kind = (payload as { kind?: unknown }).kind;
    return typeof kind === 'string' ? (payload as TokenPayload) : undefined;
  } catch {
    return undefined;
  }
}

/** A short digest of a request's format, so a page token only works with the same format. */
export function formatDigest(format: unknown): string {
  return createHash('sha256').update(JSON.stringify(format)).digest('hex').slice(0, 16);
}

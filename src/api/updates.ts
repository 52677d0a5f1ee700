import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Caller } from '@/lib/access/access-rights';
import {
  summarizeReassignment,
  summarizeTopology,
  summarizeTransaction,
  type ReassignmentFacts,
  type TopologyFacts,
  type UpdateSummary,
} from '@/lib/transaction-tree/update-summary';
import { api, unwrap, type ApiClient } from './client';
import type { Schemas } from './schema';
import { eventsOfTransaction, type WireTransaction } from './transaction-tree-adapter';

/**
 * Whose events the caller may read, and so which filter its update requests carry: the participant
 * refuses a filter naming a party the caller cannot read (ledger-api-behaviour.md §4.6).
 */
export type ReadScope =
  /** `filtersForAnyParty`: CanReadAsAnyParty, or a caller without a user (no auth, admin token). */
  | { kind: 'any-party' }
  /** `filtersByParty` for these parties (CanReadAs and CanActAs rights); may be empty. */
  | { kind: 'parties'; parties: readonly string[] };

export function readScopeOf(caller: Caller): ReadScope {
  if (caller.kind === 'unidentified') return { kind: 'any-party' };
  if (caller.rights.some((right) => right.kind === 'CanReadAsAnyParty')) {
    return { kind: 'any-party' };
  }
  const parties = new Set<string>();
  for (const right of caller.rights) {
    if (right.kind === 'CanReadAs' || right.kind === 'CanActAs') parties.add(right.party);
  }
  return { kind: 'parties', parties: [...parties].sort() };
}

/** True when the scope reads nothing: every update request would be refused or empty. */
export function isEmptyScope(scope: ReadScope): boolean {
  return scope.kind === 'parties' && scope.parties.length === 0;
}

const WILDCARD = {
  cumulative: [
    { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
  ],
} satisfies Schemas['Filters'];

/**
 * Every event the scope's parties may see, no created-event blobs; `verbose` (labelled records)
 * unless only the shape of the events is wanted, as in the recent list.
 */
export function eventFormatFor(
  scope: ReadScope,
  { verbose = true }: { verbose?: boolean } = {},
): Schemas['EventFormat'] {
  if (scope.kind === 'any-party') return { filtersForAnyParty: WILDCARD, verbose };
  return {
    filtersByParty: Object.fromEntries(scope.parties.map((party) => [party, WILDCARD])),
    verbose,
  };
}

/** Transactions only, in the LEDGER_EFFECTS shape: the whole visible tree, exercises included. */
export function updateFormatFor(
  scope: ReadScope,
  options: { verbose?: boolean } = {},
): Schemas['UpdateFormat'] {
  return {
    includeTransactions: {
      eventFormat: eventFormatFor(scope, options),
      transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    },
  };
}

// ── requests ───────────────────────────────────────────────────────────────────

/** The participant authorization events of the scope's parties (every party's, for any-party readers). */
export function topologyFormatFor(scope: ReadScope): Schemas['TopologyFormat'] {
  return {
    includeParticipantAuthorizationEvents: {
      parties: scope.kind === 'parties' ? [...scope.parties] : [],
    },
  };
}

export async function getLedgerEnd(signal?: AbortSignal, client: ApiClient = api): Promise<number> {
  const { offset } = unwrap(await client.GET('/v2/state/ledger-end', signal ? { signal } : {}));
  // Optional in the OpenAPI document; an empty ledger's end is 0 (§7.4).
  return offset ?? 0;
}

// ── update summaries ───────────────────────────────────────────────────────────

export type { UpdateSummary } from '@/lib/transaction-tree/update-summary';

type WireReassignmentEvent = {
  source: string;
  target: string;
  submitter?: string | null;
  createdEvent?: { contractId: string; templateId: string; witnessParties: readonly string[] };
  contractId?: string;
  templateId?: string;
  witnessParties?: readonly string[];
};

/** `JsReassignment`: its assign events come bare, its unassign events under `value`. */
type WireReassignment = {
  updateId: string;
  offset: number;
  recordTime?: string | null;
  commandId?: string | null;
  workflowId?: string | null;
  events: readonly (
    | { JsAssignmentEvent: WireReassignmentEvent | { value: WireReassignmentEvent } }
    | { JsUnassignedEvent: { value: WireReassignmentEvent } }
  )[];
};

type WireAuthorization = { partyId: string; participantId: string; participantPermission?: string };

type WireTopologyTransaction = {
  updateId: string;
  offset: number;
  recordTime?: string | null;
  synchronizerId?: string | null;
  events: readonly { event?: Record<string, { value: WireAuthorization } | undefined> }[];
};

type WireCheckpoint = {
  offset: number;
  synchronizerTimes?: readonly { synchronizerId: string; recordTime?: string | null }[] | null;
};

/**
 * One element of `/v2/updates` (a list item or a stream message): how far it takes the reader
 * (every element has an offset, offset checkpoints included) and, for an update, its summary.
 */
export type UpdateElement = {
  offset: number;
  /** Null for offset checkpoints (and kinds this console does not know). */
  summary: UpdateSummary | null;
  /** The update's record time, or a checkpoint's latest synchronizer time. */
  recordTime: string | undefined;
};

const TOPOLOGY_KINDS = {
  ParticipantAuthorizationAdded: 'added',
  ParticipantAuthorizationChanged: 'changed',
  ParticipantAuthorizationOnboarding: 'onboarding',
  ParticipantAuthorizationRevoked: 'revoked',
} as const;

function reassignmentFacts(wire: WireReassignment): ReassignmentFacts {
  const events = wire.events.map((entry) => {
    const assigned = 'JsAssignmentEvent' in entry;
    const raw = assigned ? entry.JsAssignmentEvent : entry.JsUnassignedEvent;
    const event: WireReassignmentEvent = 'value' in raw ? raw.value : raw;
    return {
      kind: assigned ? ('assigned' as const) : ('unassigned' as const),
      source: event.source,
      target: event.target,
      templateId: event.createdEvent?.templateId ?? event.templateId ?? '',
      contractId: event.createdEvent?.contractId ?? event.contractId ?? '',
      submitter: event.submitter ?? '',
      witnessParties: event.createdEvent?.witnessParties ?? event.witnessParties ?? [],
    };
  });
  return {
    updateId: wire.updateId,
    offset: wire.offset,
    ...optional('recordTime', wire.recordTime),
    ...optional('commandId', wire.commandId),
    ...optional('workflowId', wire.workflowId),
    events,
  };
}

function topologyFacts(wire: WireTopologyTransaction): TopologyFacts {
  const events: TopologyFacts['events'][number][] = [];
  for (const { event } of wire.events) {
    for (const [name, kind] of Object.entries(TOPOLOGY_KINDS)) {
      const value = event?.[name]?.value;
      if (!value) continue;
      events.push({
        kind,
        partyId: value.partyId,
        participantId: value.participantId,
        ...optional('permission', value.participantPermission),
      });
    }
  }
  return {
    updateId: wire.updateId,
    offset: wire.offset,
    ...optional('recordTime', wire.recordTime),
    ...optional('synchronizerId', wire.synchronizerId),
    events,
  };
}

/** `{ key: value }` when the value is there, `{}` otherwise (exactOptionalPropertyTypes). */
function optional<K extends string>(key: K, value: string | null | undefined) {
  const present = nonEmpty(value);
  return (present === undefined ? {} : { [key]: present }) as Partial<Record<K, string>>;
}

/**
 * An ISO date-time in microseconds since the epoch, the precision of record times (`Date.parse`
 * keeps milliseconds only, and two updates often share one); NaN when it is not one.
 */
export function timeInMicros(time: string): number {
  const match = /^([^.]*?)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/i.exec(time.trim());
  if (!match) return Number.NaN;
  const [, whole = '', fraction = '', zone = ''] = match;
  const wholeMs = Date.parse(`${whole}${zone}`);
  return wholeMs * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

const latest = (times: readonly (string | null | undefined)[]) =>
  times.reduce<string | undefined>((found, time) => {
    if (!time) return found;
    return found === undefined || timeInMicros(time) > timeInMicros(found) ? time : found;
  }, undefined);

/** The `update` of a `/v2/updates` item or stream message, read; null when it has no offset. */
export function readUpdateElement(update: unknown): UpdateElement | null {
  if (typeof update !== 'object' || update === null) return null;
  const wire = update as {
    Transaction?: { value: WireTransaction };
    Reassignment?: { value: WireReassignment };
    TopologyTransaction?: { value: WireTopologyTransaction };
    OffsetCheckpoint?: { value: WireCheckpoint };
  };
  let summary: UpdateSummary | null = null;
  if (wire.Transaction) summary = summarizeTransaction(eventsOfTransaction(wire.Transaction.value));
  else if (wire.Reassignment) {
    summary = summarizeReassignment(reassignmentFacts(wire.Reassignment.value));
  } else if (wire.TopologyTransaction) {
    summary = summarizeTopology(topologyFacts(wire.TopologyTransaction.value));
  }
  if (summary) return { offset: summary.offset, summary, recordTime: summary.recordTime };
  const checkpoint = wire.OffsetCheckpoint?.value;
  if (checkpoint && typeof checkpoint.offset === 'number') {
    const times = (checkpoint.synchronizerTimes ?? []).map((time) => time.recordTime);
    return { offset: checkpoint.offset, summary: null, recordTime: latest(times) };
  }
  const offset = offsetOfElement(update);
  return offset === undefined ? null : { offset, summary: null, recordTime: undefined };
}

// ── the transactions history ───────────────────────────────────────────────────

/**
 * The list endpoints answer 413 above 200 elements unless `limit` is given (§10); with it, a real
 * participant stops at `limit` elements without saying so. A range of at most this many offsets
 * holds at most this many updates, but offset checkpoints (§9) come on top, so a full answer may
 * still be cut short and is read on from where it stopped.
 */
export const UPDATES_LIST_LIMIT = 200;

export type RecentUpdatesPage = {
  /** Newest first. */
  updates: UpdateSummary[];
  /** The offset to continue below (the next page's `endInclusive`); null at the ledger's start. */
  olderThan: number | null;
  /** `participantPrunedUpToInclusive`: 0 when never pruned (or unknown). */
  prunedUpTo: number;
};

export type NewerUpdatesPage = {
  /** Oldest first. */
  updates: UpdateSummary[];
  /**
   * Where the next page begins (its `beginExclusive`): the ledger end once it was reached, since
   * the ledger grows and a later page may find more.
   */
  newerThan: number;
  /** The page read up to the ledger end (as it was then). */
  reachedEnd: boolean;
  /** The ledger end when this page was read. */
  ledgerEnd: number;
  /** `participantPrunedUpToInclusive`: the page began here when asked to begin below it. */
  prunedUpTo: number;
};

/** Ranges scanned per page at most: sparse ledgers (party allocations) may hold few transactions. */
const MAX_RANGES_PER_PAGE = 5;

/**
 * The participant refuses a `beginExclusive` below its pruning offset (GetUpdatesRequest in the
 * OpenAPI document): nothing at or below it can be read any more.
 */
export function clampToPruned(beginExclusive: number, prunedUpToInclusive: number): number {
  return Math.max(beginExclusive, prunedUpToInclusive, 0);
}

/** `participantPrunedUpToInclusive`: 0 (optional in the document) when never pruned. */
export async function getPrunedOffset(signal?: AbortSignal): Promise<number> {
  const { participantPrunedUpToInclusive } = unwrap(
    await api.GET('/v2/state/latest-pruned-offsets', signal ? { signal } : {}),
  );
  return participantPrunedUpToInclusive ?? 0;
}

/** Every element of an update list carries its offset: transactions, checkpoints and the rest. */
function offsetOfElement(update: unknown): number | undefined {
  if (typeof update !== 'object' || update === null) return undefined;
  for (const entry of Object.values(update)) {
    const value = (entry as { value?: { offset?: unknown } } | null)?.value;
    if (typeof value?.offset === 'number') return value.offset;
  }
  return undefined;
}

type Direction = 'newest-first' | 'oldest-first';

async function postUpdates(
  body: Schemas['GetUpdatesRequest'],
  limit: number,
  signal: AbortSignal | undefined,
) {
  return unwrap(
    await api.POST('/v2/updates', {
      params: { query: { limit } },
      body,
      ...(signal ? { signal } : {}),
    }),
  );
}

/**
 * The updates in (`begin`, `end`], read in `direction` with `limit`. A full answer may have been
 * cut: the rest is read from where it stopped, in whichever order the participant answered (a
 * release before 3.5 ignores `descendingOrder` and answers oldest first).
 */
async function readRange(
  begin: number,
  end: number,
  updateFormat: Schemas['UpdateFormat'],
  direction: Direction,
  signal?: AbortSignal,
): Promise<UpdateSummary[]> {
  const found: UpdateSummary[] = [];
  let low = begin;
  let high = end;
  const descendingOrder = direction === 'newest-first';
  while (high > low) {
    const items = await postUpdates(
      { beginExclusive: low, endInclusive: high, updateFormat, descendingOrder },
      UPDATES_LIST_LIMIT,
      signal,
    );
    const offsets: number[] = [];
    for (const item of items) {
      const element = readUpdateElement(item.update);
      if (!element) continue;
      offsets.push(element.offset);
      if (element.summary) found.push(element.summary);
    }
    const first = offsets[0];
    const last = offsets.at(-1);
    if (items.length < UPDATES_LIST_LIMIT || first === undefined || last === undefined) break;
    // Read on from the last offset itself: a checkpoint there may have taken its update's place.
    if (first > last || (first === last && descendingOrder)) high = last < high ? last : last - 1;
    else low = last - 1 > low ? last - 1 : last;
  }
  // Each offset once (a re-read range starts at the cut), in the order asked for.
  const byOffset = new Map(found.map((summary) => [summary.offset, summary]));
  const sign = descendingOrder ? -1 : 1;
  return [...byOffset.values()].sort((a, b) => sign * (a.offset - b.offset));
}

/**
 * The history's format: transactions with their events, records labelled (verbose), since a row
 * names a few argument fields by their names (`amount 100 · currency USD`); and the topology
 * transactions of the scope's parties.
 */
const historyFormat = (scope: ReadScope): Schemas['UpdateFormat'] => ({
  ...updateFormatFor(scope, { verbose: true }),
  // Hosting changes of the scope's parties belong to the history too, in plain words.
  includeTopologyEvents: topologyFormatFor(scope),
});

/**
 * Transactions at offsets ≤ `endInclusive` (the ledger end when undefined), newest first, read in
 * ranges of `UPDATES_LIST_LIMIT` offsets (`beginExclusive`, `endInclusive`) walking back until at
 * least `minimum` are found, a few ranges have been read, or the ledger's start (or its pruning
 * offset) is reached. Only summaries are shown, so records come unlabelled.
 */
export async function listRecentUpdates(
  scope: ReadScope,
  { endInclusive, minimum = 20 }: { endInclusive?: number; minimum?: number } = {},
  signal?: AbortSignal,
): Promise<RecentUpdatesPage> {
  const [ledgerEnd, pruned] = await Promise.all([
    endInclusive === undefined ? getLedgerEnd(signal) : Promise.resolve(endInclusive),
    // Without the pruning offset the list still works; only "load older" may then reach a
    // pruned range and show that error.
    getPrunedOffset(signal).catch(() => 0),
  ]);
  const { updates, olderThan } = await readBackwards(
    historyFormat(scope),
    { end: ledgerEnd, pruned, minimum },
    signal,
  );
  return { updates, olderThan, prunedUpTo: pruned };
}

/**
 * Updates at offsets ≤ `end` and above `pruned`, newest first, in ranges of `UPDATES_LIST_LIMIT`
 * offsets walking back until at least `minimum` are found, {@link MAX_RANGES_PER_PAGE} ranges were
 * read, or `pruned` (the ledger's start, or its pruning offset) is reached. The history's pages
 * and what /live starts with (update-stream.ts) read back this way.
 */
export async function readBackwards(
  updateFormat: Schemas['UpdateFormat'],
  { end: ledgerEnd, pruned, minimum }: { end: number; pruned: number; minimum: number },
  signal: AbortSignal | undefined,
): Promise<{ updates: UpdateSummary[]; olderThan: number | null }> {
  let end = ledgerEnd;
  const updates: UpdateSummary[] = [];
  for (let ranges = 0; end > pruned && ranges < MAX_RANGES_PER_PAGE; ranges++) {
    const begin = clampToPruned(end - UPDATES_LIST_LIMIT, pruned);
    updates.push(...(await readRange(begin, end, updateFormat, 'newest-first', signal)));
    end = begin;
    if (updates.length >= minimum) break;
  }
  return { updates, olderThan: end > pruned ? end : null };
}

/**
 * Transactions after `beginExclusive` (raised to the pruning offset), oldest first, read forwards
 * in ranges of `UPDATES_LIST_LIMIT` offsets until at least `minimum` are found, a few ranges have
 * been read, or the ledger end is reached.
 */
export async function listNewerUpdates(
  scope: ReadScope,
  { beginExclusive, minimum = 20 }: { beginExclusive: number; minimum?: number },
  signal?: AbortSignal,
): Promise<NewerUpdatesPage> {
  const [ledgerEnd, pruned] = await Promise.all([
    getLedgerEnd(signal),
    getPrunedOffset(signal).catch(() => 0),
  ]);
  let begin = clampToPruned(beginExclusive, pruned);
  const updates: UpdateSummary[] = [];
  const updateFormat = historyFormat(scope);
  for (let ranges = 0; begin < ledgerEnd && ranges < MAX_RANGES_PER_PAGE; ranges++) {
    const end = Math.min(begin + UPDATES_LIST_LIMIT, ledgerEnd);
    updates.push(...(await readRange(begin, end, updateFormat, 'oldest-first', signal)));
    begin = end;
    if (updates.length >= minimum) break;
  }
  return {
    updates,
    newerThan: begin,
    reachedEnd: begin >= ledgerEnd,
    ledgerEnd,
    prunedUpTo: pruned,
  };
}

/** Probes of a seek by time at most: a binary search over 2^40 offsets needs fewer. */
const MAX_SEEK_PROBES = 48;

/**
 * Where reading forwards finds the first update recorded at or after `time` (an ISO date-time):
 * the `beginExclusive` to page from. A binary search over offsets, since record times grow with
 * offsets: each probe reads the first element at or after an offset (topology transactions and
 * offset checkpoints too, which carry times where the caller sees no transaction), so it takes
 * about log2(ledger end) requests. Never below the pruning offset; the ledger end when nothing is
 * that recent.
 */
export async function findOffsetAtTime(
  scope: ReadScope,
  time: string,
  signal?: AbortSignal,
): Promise<{ beginExclusive: number; prunedUpTo: number; requests: number }> {
  const target = timeInMicros(time);
  if (Number.isNaN(target)) throw new RangeError(`Not a date-time: ${time}`);
  const [ledgerEnd, pruned] = await Promise.all([
    getLedgerEnd(signal),
    getPrunedOffset(signal).catch(() => 0),
  ]);
  const updateFormat = historyFormat(scope);
  // The answer lies in [low, high]; high = ledgerEnd + 1 means "after everything".
  let low = pruned + 1;
  let high = ledgerEnd + 1;
  let requests = 0;
  while (low < high && requests < MAX_SEEK_PROBES) {
    const middle = Math.floor((low + high) / 2);
    requests += 1;
    const items = await postUpdates(
      { beginExclusive: middle - 1, endInclusive: ledgerEnd, updateFormat, descendingOrder: false },
      // A few, in case the first are checkpoints without times.
      4,
      signal,
    );
    const timed = items
      .map((item) => readUpdateElement(item.update))
      .find((element) => element?.recordTime !== undefined);
    if (!timed?.recordTime || timeInMicros(timed.recordTime) >= target) high = middle;
    else low = Math.max(timed.offset + 1, middle + 1);
  }
  return { beginExclusive: clampToPruned(low - 1, pruned), prunedUpTo: pruned, requests };
}

const nonEmpty = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? undefined : value;

// ── cache ──────────────────────────────────────────────────────────────────────

/** The part of a query key that says whose events were read. */
export const readScopeKey = (scope: ReadScope) =>
  scope.kind === 'any-party' ? ['any-party'] : ['parties', ...scope.parties];

export const updateQueries = {
  all: () => ['updates'] as const,
  recent: (scope: ReadScope) =>
    infiniteQueryOptions({
      queryKey: [...updateQueries.all(), 'recent', ...readScopeKey(scope)],
      queryFn: ({ pageParam, signal }) =>
        listRecentUpdates(
          scope,
          pageParam === undefined ? {} : { endInclusive: pageParam },
          signal,
        ),
      initialPageParam: undefined as number | undefined,
      getNextPageParam: (page) => page.olderThan ?? undefined,
    }),
  /** Forwards from an offset (a seek): "Load newer" reads the next ranges up. */
  newer: (scope: ReadScope, beginExclusive: number) =>
    infiniteQueryOptions({
      queryKey: [...updateQueries.all(), 'newer', beginExclusive, ...readScopeKey(scope)],
      queryFn: ({ pageParam, signal }) =>
        listNewerUpdates(scope, { beginExclusive: pageParam }, signal),
      initialPageParam: beginExclusive,
      // Always one more: the ledger end moves, and "Load newer" there reads what came since.
      getNextPageParam: (page) => page.newerThan,
    }),
  /** Where a seek by time begins; fixed once found (the ledger before the end does not change). */
  offsetAtTime: (scope: ReadScope, time: string) =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'offset-at-time', time, ...readScopeKey(scope)],
      queryFn: ({ signal }) => findOffsetAtTime(scope, time, signal),
      staleTime: Infinity,
    }),
  ledgerEnd: () =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'ledger-end'],
      queryFn: ({ signal }) => getLedgerEnd(signal),
    }),
};

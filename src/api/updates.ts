import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { DescribedError, isEndpointMissing } from '@/lib/api-error';
import type { Caller } from '@/lib/access-rights';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { api, unwrap } from './client';
import { listParties } from './parties';
import type { Schemas } from './schema';
import {
  fromTransactionTree,
  fromUpdate,
  type WireTransaction,
  type WireUpdate,
} from './transaction-tree-adapter';

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

/** Where an update is looked up: by its id, or by its offset. */
export type UpdateRef = { updateId: string } | { offset: number };

/** The update is not a transaction (a reassignment or topology transaction): no tree to show. */
export class NotATransactionError extends DescribedError {
  override readonly name = 'NotATransactionError';
  readonly title = 'Not a transaction';
  constructor(readonly ref: UpdateRef) {
    super(
      'updateId' in ref
        ? `Update ${ref.updateId} is not a transaction.`
        : `The update at offset ${String(ref.offset)} is not a transaction.`,
    );
  }
}

// ── requests ───────────────────────────────────────────────────────────────────

async function getUpdateWire(ref: UpdateRef, scope: ReadScope, signal?: AbortSignal) {
  const updateFormat = updateFormatFor(scope);
  const init = signal ? { signal } : {};
  const { update } =
    'updateId' in ref
      ? unwrap(
          await api.POST('/v2/updates/update-by-id', {
            body: { updateId: ref.updateId, updateFormat },
            ...init,
          }),
        )
      : unwrap(
          await api.POST('/v2/updates/update-by-offset', {
            body: { offset: ref.offset, updateFormat },
            ...init,
          }),
        );
  return update;
}

/**
 * How long the `parties=` query of a deprecated tree lookup may grow. Request lines beyond a few
 * KiB are refused by HTTP servers (pekko-http's default `max-uri-length` is 2 KiB), so an
 * any-party caller on a participant with thousands of parties cannot name them all.
 */
export const TREE_LOOKUP_QUERY_BUDGET = 1800;

/**
 * The parties of a tree lookup's query, in order, while `parties=<encoded>&…` fits `budget`
 * characters (at least one party, so that a lone long id is still asked for).
 */
export function partiesWithinQueryBudget(
  parties: readonly string[],
  budget: number = TREE_LOOKUP_QUERY_BUDGET,
): string[] {
  const taken: string[] = [];
  let length = 0;
  for (const party of parties) {
    const added = 'parties='.length + encodeURIComponent(party).length + (taken.length ? 1 : 0);
    if (taken.length > 0 && length + added > budget) break;
    taken.push(party);
    length += added;
  }
  return taken;
}

/**
 * The parties the deprecated tree lookups are asked for. They take parties only, in a GET query,
 * so a caller that reads as any party asks for the parties hosted on this participant (every
 * event it holds has a local witness), as many as fit in a request line: on a participant hosting
 * more, a node seen only by the parties left out is missing from the tree. Listing parties needs
 * an administrator; such a caller is usually one.
 */
async function treeLookupParties(scope: ReadScope, signal?: AbortSignal): Promise<string[]> {
  if (scope.kind === 'parties') return partiesWithinQueryBudget(scope.parties);
  const { partyDetails } = await listParties(
    { pageSize: 10_000, pageToken: '', identityProviderId: '', filterParty: '' },
    signal,
  );
  const local = partyDetails.filter((details) => details.isLocal);
  return partiesWithinQueryBudget(local.map((details) => details.party));
}

async function getTransactionTreeWire(ref: UpdateRef, scope: ReadScope, signal?: AbortSignal) {
  const parties = await treeLookupParties(scope, signal);
  const init = signal ? { signal } : {};
  const { transaction } =
    'updateId' in ref
      ? unwrap(
          await api.GET('/v2/updates/transaction-tree-by-id/{update-id}', {
            params: { path: { 'update-id': ref.updateId }, query: { parties } },
            ...init,
          }),
        )
      : unwrap(
          await api.GET('/v2/updates/transaction-tree-by-offset/{offset}', {
            params: { path: { offset: ref.offset }, query: { parties } },
            ...init,
          }),
        );
  return transaction;
}

/**
 * One update as a transaction tree: `update-by-id`/`update-by-offset` in the LEDGER_EFFECTS shape,
 * or, where the participant no longer (or not yet) offers those, the deprecated tree lookups. Both
 * give the same tree (transaction-tree-adapter.ts, src/lib/transaction-tree).
 */
export async function getTransactionTree(
  ref: UpdateRef,
  scope: ReadScope,
  signal?: AbortSignal,
): Promise<TransactionTree> {
  let update;
  try {
    update = await getUpdateWire(ref, scope, signal);
  } catch (error) {
    if (!isEndpointMissing(error)) throw error;
    return fromTransactionTree(await getTransactionTreeWire(ref, scope, signal));
  }
  const tree = update ? fromUpdate(update) : null;
  if (!tree) throw new NotATransactionError(ref);
  return tree;
}

export async function getLedgerEnd(signal?: AbortSignal): Promise<number> {
  const { offset } = unwrap(await api.GET('/v2/state/ledger-end', signal ? { signal } : {}));
  // Optional in the OpenAPI document; an empty ledger's end is 0 (§7.4).
  return offset ?? 0;
}

/** A line of the recent updates list. */
export type UpdateSummary = {
  updateId: string;
  offset: number;
  recordTime: string | undefined;
  effectiveAt: string | undefined;
  /** Empty for anyone but the submitter. */
  commandId: string | undefined;
  workflowId: string | undefined;
  eventCount: number;
};

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

/**
 * The transactions in (`begin`, `end`], read newest first (`descendingOrder`) with `limit`. A
 * full answer may have been cut: the rest is read from where it stopped, downwards, or upwards
 * where the participant ignored `descendingOrder` (releases before 3.5 do not know it).
 */
async function readRange(
  begin: number,
  end: number,
  updateFormat: Schemas['UpdateFormat'],
  signal?: AbortSignal,
): Promise<UpdateSummary[]> {
  const found: UpdateSummary[] = [];
  let low = begin;
  let high = end;
  while (high > low) {
    const items = unwrap(
      await api.POST('/v2/updates', {
        params: { query: { limit: UPDATES_LIST_LIMIT } },
        body: { beginExclusive: low, endInclusive: high, updateFormat, descendingOrder: true },
        ...(signal ? { signal } : {}),
      }),
    );
    const offsets: number[] = [];
    for (const item of items) {
      const offset = offsetOfElement(item.update);
      if (offset !== undefined) offsets.push(offset);
      const transaction = (item.update as WireUpdate | undefined)?.Transaction?.value;
      if (transaction) found.push(summaryOf(transaction));
    }
    const first = offsets[0];
    const last = offsets.at(-1);
    if (items.length < UPDATES_LIST_LIMIT || first === undefined || last === undefined) break;
    // Read on from the last offset itself: a checkpoint there may have taken its update's place.
    if (first >= last) high = last < high ? last : last - 1;
    else low = last - 1 > low ? last - 1 : last;
  }
  // Each offset once (a re-read range starts at the cut), newest first.
  const byOffset = new Map(found.map((summary) => [summary.offset, summary]));
  return [...byOffset.values()].sort((a, b) => b.offset - a.offset);
}

function summaryOf(transaction: WireTransaction): UpdateSummary {
  return {
    updateId: transaction.updateId,
    offset: transaction.offset,
    recordTime: transaction.recordTime ?? undefined,
    effectiveAt: transaction.effectiveAt ?? undefined,
    commandId: nonEmpty(transaction.commandId),
    workflowId: nonEmpty(transaction.workflowId),
    eventCount: transaction.events.length,
  };
}

/**
 * Transactions at offsets ≤ `endInclusive` (the ledger end when undefined), newest first, read in
 * ranges of `UPDATES_LIST_LIMIT` offsets (`beginExclusive`, `endInclusive`) walking back until at
 * least `minimum` are found, a few ranges have been read, or the ledger's start (or its pruning
 * offset) is reached. Only counts and headers are shown, so records come unlabelled.
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
  let end = ledgerEnd;
  const updates: UpdateSummary[] = [];
  const updateFormat = updateFormatFor(scope, { verbose: false });
  for (let ranges = 0; end > pruned && ranges < MAX_RANGES_PER_PAGE; ranges++) {
    const begin = clampToPruned(end - UPDATES_LIST_LIMIT, pruned);
    updates.push(...(await readRange(begin, end, updateFormat, signal)));
    end = begin;
    if (updates.length >= minimum) break;
  }
  return { updates, olderThan: end > pruned ? end : null };
}

const nonEmpty = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? undefined : value;

// ── cache ──────────────────────────────────────────────────────────────────────

/** The part of a query key that says whose events were read. */
export const readScopeKey = (scope: ReadScope) =>
  scope.kind === 'any-party' ? ['any-party'] : ['parties', ...scope.parties];

export const updateQueries = {
  all: () => ['updates'] as const,
  /** A committed transaction never changes, so its tree is cached for the session. */
  tree: (ref: UpdateRef, scope: ReadScope) =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'tree', ref, ...readScopeKey(scope)],
      queryFn: ({ signal }) => getTransactionTree(ref, scope, signal),
      staleTime: Infinity,
    }),
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
  ledgerEnd: () =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'ledger-end'],
      queryFn: ({ signal }) => getLedgerEnd(signal),
    }),
};

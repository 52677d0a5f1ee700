import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-error';
import type { Caller } from '@/lib/access-rights';
import { fromTransactionTree, fromUpdate } from '@/lib/transaction-tree/build-tree';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { WireUpdate } from '@/lib/transaction-tree/wire-types';
import { api, unwrap } from './client';
import { listParties } from './parties';
import type { Schemas } from './schema';

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

/** Every event the scope's parties may see, verbose (labelled records), no created-event blobs. */
export function eventFormatFor(scope: ReadScope): Schemas['EventFormat'] {
  if (scope.kind === 'any-party') return { filtersForAnyParty: WILDCARD, verbose: true };
  return {
    filtersByParty: Object.fromEntries(scope.parties.map((party) => [party, WILDCARD])),
    verbose: true,
  };
}

/** Transactions only, in the LEDGER_EFFECTS shape: the whole visible tree, exercises included. */
export function updateFormatFor(scope: ReadScope): Schemas['UpdateFormat'] {
  return {
    includeTransactions: {
      eventFormat: eventFormatFor(scope),
      transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    },
  };
}

/**
 * The participant does not offer the endpoint (an older or newer release): 405/501, or a 404 with
 * the legacy unknown-path body (no Canton error code, §1.10). A 404 with a code, such as
 * `UPDATE_NOT_FOUND`, is a real answer and no reason to try another endpoint.
 */
export function isEndpointMissing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && error.code === `HTTP_404`;
}

/** Where an update is looked up: by its id, or by its offset. */
export type UpdateRef = { updateId: string } | { offset: number };

/** The update is not a transaction (a reassignment or topology transaction): no tree to show. */
export class NotATransactionError extends Error {
  override readonly name = 'NotATransactionError';
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
 * The parties the deprecated tree lookups are asked for. They take parties only, so a caller that
 * reads as any party asks for every party the participant knows (one page of the list, which only
 * an administrator may read; such a caller is one).
 */
async function treeLookupParties(scope: ReadScope, signal?: AbortSignal): Promise<string[]> {
  if (scope.kind === 'parties') return [...scope.parties];
  const { partyDetails } = await listParties(
    { pageSize: 10_000, pageToken: '', identityProviderId: '', filterParty: '' },
    signal,
  );
  return partyDetails.map((details) => details.party);
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
 * give the same tree (src/lib/transaction-tree).
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
 * The list endpoints answer 413 above 200 elements unless `limit` is given (§10); a range of at
 * most this many offsets can hold no more, since every update takes its own offset.
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
 * Transactions at offsets ≤ `endInclusive` (the ledger end when undefined), newest first, read in
 * ranges of `UPDATES_LIST_LIMIT` offsets (`beginExclusive`, `endInclusive`) walking back until at
 * least `minimum` are found, a few ranges have been read, or the ledger's start is reached.
 */
export async function listRecentUpdates(
  scope: ReadScope,
  { endInclusive, minimum = 20 }: { endInclusive?: number; minimum?: number } = {},
  signal?: AbortSignal,
): Promise<RecentUpdatesPage> {
  let end = endInclusive ?? (await getLedgerEnd(signal));
  const updates: UpdateSummary[] = [];
  const updateFormat = updateFormatFor(scope);
  for (let ranges = 0; end > 0 && ranges < MAX_RANGES_PER_PAGE; ranges++) {
    const begin = Math.max(0, end - UPDATES_LIST_LIMIT);
    const items = unwrap(
      await api.POST('/v2/updates', {
        params: { query: { limit: UPDATES_LIST_LIMIT } },
        body: { beginExclusive: begin, endInclusive: end, updateFormat },
        ...(signal ? { signal } : {}),
      }),
    );
    const found: UpdateSummary[] = [];
    for (const item of items) {
      const update = item.update as WireUpdate | undefined;
      const transaction = update?.Transaction?.value;
      if (!transaction) continue;
      found.push({
        updateId: transaction.updateId,
        offset: transaction.offset,
        recordTime: transaction.recordTime ?? undefined,
        effectiveAt: transaction.effectiveAt ?? undefined,
        commandId: nonEmpty(transaction.commandId),
        workflowId: nonEmpty(transaction.workflowId),
        eventCount: transaction.events.length,
      });
    }
    updates.push(...found.reverse());
    end = begin;
    if (updates.length >= minimum) break;
  }
  return { updates, olderThan: end > 0 ? end : null };
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

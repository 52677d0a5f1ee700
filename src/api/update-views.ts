import { queryOptions } from '@tanstack/react-query';
import { DescribedError, isEndpointMissing } from '@/lib/errors/api-error';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { TopologySummary } from '@/lib/transaction-tree/update-summary';
import { api, unwrap, type ApiClient } from './client';
import { listParties } from './parties';
import { fromTransactionTree, fromUpdate } from './transaction-tree-builder';
import {
  readScopeKey,
  readUpdateElement,
  topologyFormatFor,
  updateFormatFor,
  updateQueries,
  type ReadScope,
} from './updates';

/*
 * One update by its id or offset, as the transaction page shows it: `update-by-id`,
 * `update-by-offset`, and the deprecated tree lookups where a participant lacks those. Apart from
 * the update lists (updates.ts), so that a page listing updates loads no tree building.
 */

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

async function getUpdateWire(
  ref: UpdateRef,
  scope: ReadScope,
  signal: AbortSignal | undefined,
  client: ApiClient,
) {
  // Topology transactions too: an update link may name one (the live list, a party's timeline).
  const updateFormat = {
    ...updateFormatFor(scope),
    includeTopologyEvents: topologyFormatFor(scope),
  };
  const init = signal ? { signal } : {};
  const { update } =
    'updateId' in ref
      ? unwrap(
          await client.POST('/v2/updates/update-by-id', {
            body: { updateId: ref.updateId, updateFormat },
            ...init,
          }),
        )
      : unwrap(
          await client.POST('/v2/updates/update-by-offset', {
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

/** An update as its page shows it: a transaction's tree, or a topology transaction's events. */
export type UpdateView =
  | { kind: 'transaction'; updateId: string; tree: TransactionTree }
  | { kind: 'topology'; updateId: string; summary: TopologySummary };

/**
 * One update: a transaction as a tree (`update-by-id`/`update-by-offset` in the LEDGER_EFFECTS
 * shape, or, where the participant no longer (or not yet) offers those, the deprecated tree
 * lookups, which give the same tree: transaction-tree-adapter.ts, src/lib/transaction-tree), or a
 * topology transaction summarized. A reassignment has no view here (NotATransactionError).
 */
export async function getUpdateView(
  ref: UpdateRef,
  scope: ReadScope,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<UpdateView> {
  let update;
  try {
    update = await getUpdateWire(ref, scope, signal, client);
  } catch (error) {
    // The deprecated tree lookups are the page's own participant's only (a fallback for old ones).
    if (!isEndpointMissing(error) || client !== api) throw error;
    const tree = fromTransactionTree(await getTransactionTreeWire(ref, scope, signal));
    return { kind: 'transaction', updateId: tree.updateId, tree };
  }
  const summary = readUpdateElement(update)?.summary;
  if (summary?.kind === 'topology')
    return { kind: 'topology', updateId: summary.updateId, summary };
  const tree = update ? fromUpdate(update) : null;
  if (!tree) throw new NotATransactionError(ref);
  return { kind: 'transaction', updateId: tree.updateId, tree };
}

/** One update as a transaction tree (see getUpdateView); anything else is NotATransactionError. */
export async function getTransactionTree(
  ref: UpdateRef,
  scope: ReadScope,
  signal?: AbortSignal,
): Promise<TransactionTree> {
  const view = await getUpdateView(ref, scope, signal);
  if (view.kind !== 'transaction') throw new NotATransactionError(ref);
  return view.tree;
}

// ── cache ──────────────────────────────────────────────────────────────────────

/** Under `updateQueries.all()`, so whatever refreshes the updates refreshes these too. */
export const updateViewQueries = {
  /** A committed transaction never changes, so its tree is cached for the session. */
  tree: (ref: UpdateRef, scope: ReadScope) =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'tree', ref, ...readScopeKey(scope)],
      queryFn: ({ signal }) => getTransactionTree(ref, scope, signal),
      staleTime: Infinity,
    }),
  /** A committed update never changes either: its view is cached for the session. */
  view: (ref: UpdateRef, scope: ReadScope) =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'view', ref, ...readScopeKey(scope)],
      queryFn: ({ signal }) => getUpdateView(ref, scope, signal),
      staleTime: Infinity,
    }),
};

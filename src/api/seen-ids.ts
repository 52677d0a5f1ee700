import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { UpdateSummary } from '@/lib/transaction-tree/update-summary';
import { api, unwrap } from './client';
import { contractQueries } from './contracts';
import { eventsOfTransaction, type WireTransaction } from './transaction-tree-adapter';
import {
  clampToPruned,
  getLedgerEnd,
  getPrunedOffset,
  readScopeKey,
  updateQueries,
  updateFormatFor,
  type ReadScope,
} from './updates';

/**
 * The update and contract ids the console has seen, for finding one by the start of its id: the
 * JSON Ledger API looks ids up whole only. Two sources: the updates and contracts already in the
 * query cache (read this session), and one bounded read of the latest updates.
 */

export type SeenTransaction = {
  updateId: string;
  offset: number;
  contracts: { contractId: string; templateId: string }[];
};

/** The offsets below the ledger end one scan reads: one request, as `/v2/updates` caps lists. */
export const LATEST_SCAN_OFFSETS = 200;

/**
 * The transactions among the latest {@link LATEST_SCAN_OFFSETS} offsets the scope may read,
 * newest first, with the contracts their events name. One request of at most that many elements.
 */
export async function scanLatestTransactions(
  scope: ReadScope,
  signal?: AbortSignal,
): Promise<SeenTransaction[]> {
  const [ledgerEnd, pruned] = await Promise.all([
    getLedgerEnd(signal),
    getPrunedOffset(signal).catch(() => 0),
  ]);
  const beginExclusive = clampToPruned(ledgerEnd - LATEST_SCAN_OFFSETS, pruned);
  if (ledgerEnd <= beginExclusive) return [];
  const items = unwrap(
    await api.POST('/v2/updates', {
      params: { query: { limit: LATEST_SCAN_OFFSETS } },
      body: {
        beginExclusive,
        endInclusive: ledgerEnd,
        updateFormat: updateFormatFor(scope, { verbose: false }),
        descendingOrder: true,
      },
      ...(signal ? { signal } : {}),
    }),
  );
  const seen: SeenTransaction[] = [];
  for (const { update } of items) {
    const wire = (update as { Transaction?: { value: WireTransaction } } | undefined)?.Transaction;
    if (!wire) continue;
    const { updateId, offset, events } = eventsOfTransaction(wire.value);
    seen.push({ updateId, offset, contracts: events.map(contractOf) });
  }
  // A release before 3.5 ignores descendingOrder.
  return seen.sort((a, b) => b.offset - a.offset);
}

const contractOf = ({ contractId, templateId }: { contractId: string; templateId: string }) => ({
  contractId,
  templateId,
});

export const seenIdQueries = {
  /** Fresh for a while: the row says what was scanned, and a palette reopened soon reuses it. */
  latest: (scope: ReadScope) =>
    queryOptions({
      queryKey: [...updateQueries.all(), 'latest-ids', ...readScopeKey(scope)],
      queryFn: ({ signal }) => scanLatestTransactions(scope, signal),
      staleTime: 15_000,
    }),
};

export type CachedIds = {
  updates: { updateId: string; offset: number | undefined }[];
  contracts: { contractId: string; templateId: string | undefined; offset: number | undefined }[];
};

/**
 * The update and contract ids in the query cache: the transactions history's pages, the trees
 * viewed, and the contracts looked up. Read by shape, since a cache entry may be of any version.
 */
export function cachedIds(queryClient: QueryClient): CachedIds {
  const found: CachedIds = { updates: [], contracts: [] };
  for (const [, data] of queryClient.getQueriesData({ queryKey: updateQueries.all() })) {
    for (const summary of summariesIn(data)) {
      found.updates.push({ updateId: summary.updateId, offset: summary.offset });
    }
    if (isTree(data)) {
      found.updates.push({ updateId: data.updateId, offset: data.offset });
      for (const node of data.nodes.values()) {
        found.contracts.push({
          contractId: node.contractId,
          templateId: node.templateId,
          offset: data.offset,
        });
      }
    }
  }
  for (const [key, data] of queryClient.getQueriesData({
    queryKey: [...contractQueries.all(), 'lookup'],
  })) {
    const contractId = key[2];
    if (typeof contractId !== 'string' || !isRecord(data) || data.status === 'missing') continue;
    const templateId = typeof data.templateId === 'string' ? data.templateId : undefined;
    found.contracts.push({ contractId, templateId, offset: undefined });
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The summaries of an infinite list of updates (`{ pages: [{ updates }] }`). */
function summariesIn(data: unknown): UpdateSummary[] {
  if (!isRecord(data) || !Array.isArray(data.pages)) return [];
  return (data.pages as unknown[]).flatMap((page) =>
    isRecord(page) && Array.isArray(page.updates)
      ? (page.updates as unknown[]).filter(
          (summary): summary is UpdateSummary =>
            isRecord(summary) &&
            typeof summary.updateId === 'string' &&
            typeof summary.offset === 'number',
        )
      : [],
  );
}

function isTree(data: unknown): data is TransactionTree {
  return (
    isRecord(data) &&
    typeof data.updateId === 'string' &&
    typeof data.offset === 'number' &&
    data.nodes instanceof Map
  );
}

import { queryOptions } from '@tanstack/react-query';
import type { HostingChange } from '@/lib/transaction-tree/party-hosting';
import { api, unwrap } from './client';
import type { ConnectedSynchronizer } from './synchronizers';
import { getLedgerEnd, getPrunedOffset, readUpdateElement } from './updates';

export type PartyHostingRef = { party: string; identityProviderId: string };

// ── requests ───────────────────────────────────────────────────────────────────

/**
 * The connected synchronizers on which this participant hosts `party`, each with the
 * participant's permission for it; empty when it hosts the party on none. Needs an admin of the
 * party's IdP, or a right for the party (ledger-api-behaviour.md §4.6, §8).
 */
export async function listPartySynchronizers(
  { party, identityProviderId }: PartyHostingRef,
  signal?: AbortSignal,
): Promise<ConnectedSynchronizer[]> {
  const { connectedSynchronizers } = unwrap(
    await api.GET('/v2/state/connected-synchronizers', {
      params: {
        query: { party, ...(identityProviderId ? { identityProviderId } : {}) },
      },
      ...(signal ? { signal } : {}),
    }),
  );
  return connectedSynchronizers ?? [];
}

/** Elements one read of a party's hosting changes asks for (the list endpoint's `limit`). */
export const HOSTING_READ_LIMIT = 200;
/** Reads of a party's hosting changes at most: a party with more changes is cut, and says so. */
export const HOSTING_MAX_READS = 5;
/** How long reading a party's hosting changes may take in all before it stops and says so. */
export const HOSTING_READ_MS = 10_000;

export type HostingHistory = {
  /** The party's topology transactions, oldest first, with only its own events. */
  changes: HostingChange[];
  /** Changes at or below this offset are pruned: the participant no longer serves them. */
  prunedUpTo: number;
  /** Where reading stopped before the ledger end, and why; null when it read up to the end. */
  cut: { readUpTo: number; reason: 'count' | 'time' } | null;
};

/**
 * The participant authorization events of `party` (topology transactions in the update stream,
 * OpenAPI `TopologyFormat`), from the pruning offset to the ledger end, oldest first. Bounded:
 * at most {@link HOSTING_MAX_READS} list reads of {@link HOSTING_READ_LIMIT} elements within
 * {@link HOSTING_READ_MS}; a read cut short says where it stopped. Needs a read right for the
 * party (or ReadAsAnyParty, or an admin), as any update read does (§4.6).
 */
export async function listHostingChanges(
  party: string,
  signal?: AbortSignal,
): Promise<HostingHistory> {
  const [ledgerEnd, prunedUpTo] = await Promise.all([
    getLedgerEnd(signal),
    getPrunedOffset(signal).catch(() => 0),
  ]);
  // One controller for the caller's abort and the time bound (AbortSignal.any is not everywhere).
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, HOSTING_READ_MS);
  const abort = () => {
    controller.abort();
  };
  signal?.addEventListener('abort', abort);
  const changes: HostingChange[] = [];
  let begin = prunedUpTo;
  try {
    for (let reads = 0; begin < ledgerEnd; reads++) {
      if (reads === HOSTING_MAX_READS) {
        return { changes, prunedUpTo, cut: { readUpTo: begin, reason: 'count' } };
      }
      let items;
      try {
        items = unwrap(
          await api.POST('/v2/updates', {
            params: { query: { limit: HOSTING_READ_LIMIT } },
            body: {
              beginExclusive: begin,
              endInclusive: ledgerEnd,
              updateFormat: {
                includeTopologyEvents: {
                  includeParticipantAuthorizationEvents: { parties: [party] },
                },
              },
            },
            signal: controller.signal,
          }),
        );
      } catch (error) {
        if (controller.signal.aborted && signal?.aborted !== true) {
          return { changes, prunedUpTo, cut: { readUpTo: begin, reason: 'time' } };
        }
        throw error;
      }
      let last = begin;
      for (const item of items) {
        const element = readUpdateElement(item.update);
        if (!element) continue;
        last = Math.max(last, element.offset);
        const summary = element.summary;
        if (summary?.kind !== 'topology') continue;
        const events = summary.events.filter((event) => event.partyId === party);
        if (events.length === 0) continue;
        changes.push({
          updateId: summary.updateId,
          offset: summary.offset,
          recordTime: summary.recordTime,
          synchronizerId: summary.synchronizerId,
          events,
        });
      }
      // A short answer, or one that did not move on, has read everything up to the end.
      if (items.length < HOSTING_READ_LIMIT || last === begin) break;
      // Read on from the last offset itself: a checkpoint there may have taken its update's place
      // in a full answer (repeats are dropped below).
      begin = last - 1 > begin ? last - 1 : last;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
  const seen = new Set<number>();
  const unique = changes.filter((change) => !seen.has(change.offset) && seen.add(change.offset));
  return { changes: unique, prunedUpTo, cut: null };
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const partyHostingQueries = {
  all: () => ['party-hosting'] as const,
  synchronizers: ({ party, identityProviderId }: PartyHostingRef) =>
    queryOptions({
      queryKey: [...partyHostingQueries.all(), identityProviderId, party],
      queryFn: ({ signal }) => listPartySynchronizers({ party, identityProviderId }, signal),
    }),
  /** The party's hosting changes from the update stream (bounded, see listHostingChanges). */
  changes: (party: string) =>
    queryOptions({
      queryKey: [...partyHostingQueries.all(), 'changes', party],
      queryFn: ({ signal }) => listHostingChanges(party, signal),
    }),
};

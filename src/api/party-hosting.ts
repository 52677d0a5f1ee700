import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { ConnectedSynchronizer } from './synchronizers';

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

// ── cache ──────────────────────────────────────────────────────────────────────

export const partyHostingQueries = {
  all: () => ['party-hosting'] as const,
  synchronizers: ({ party, identityProviderId }: PartyHostingRef) =>
    queryOptions({
      queryKey: [...partyHostingQueries.all(), identityProviderId, party],
      queryFn: ({ signal }) => listPartySynchronizers({ party, identityProviderId }, signal),
    }),
};

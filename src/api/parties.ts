import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { Schemas } from './schema';

export type PartyDetails = Schemas['PartyDetails'];

export type PartyPageParams = {
  pageSize: number;
  pageToken: string;
  /** `''` is the default IdP; for a participant admin that means all parties. */
  identityProviderId: string;
  /** Prefix match on the full party id. */
  filterParty?: string;
};

// A picker offers at most this many parties; the list endpoint's own cap is far higher.
const PICKER_PAGE_SIZE = 1000;

// ── requests ───────────────────────────────────────────────────────────────────

export async function listParties(
  { pageSize, pageToken, identityProviderId, filterParty }: PartyPageParams,
  signal?: AbortSignal,
) {
  return unwrap(
    await api.GET('/v2/parties', {
      params: {
        query: {
          pageSize,
          ...(pageToken ? { pageToken } : {}),
          ...(identityProviderId ? { 'identity-provider-id': identityProviderId } : {}),
          ...(filterParty ? { 'filter-party': filterParty } : {}),
        },
      },
      ...(signal ? { signal } : {}),
    }),
  );
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const partyQueries = {
  all: () => ['parties'] as const,
  lists: () => [...partyQueries.all(), 'list'] as const,
  list: (page: PartyPageParams) =>
    queryOptions({
      queryKey: [...partyQueries.lists(), page],
      queryFn: ({ signal }) => listParties(page, signal),
    }),
  /** What a party picker offers: the first page of parties, optionally of one IdP. */
  options: (identityProviderId: string) =>
    queryOptions({
      queryKey: [...partyQueries.lists(), 'options', identityProviderId],
      queryFn: async ({ signal }) => {
        const { partyDetails, nextPageToken } = await listParties(
          { pageSize: PICKER_PAGE_SIZE, pageToken: '', identityProviderId },
          signal,
        );
        return { parties: partyDetails, isComplete: !nextPageToken };
      },
    }),
};

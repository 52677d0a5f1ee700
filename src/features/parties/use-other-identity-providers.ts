import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import { identityProviderQueries } from '@/api/identity-providers';
import { partyQueries } from '@/api/parties';

type PartyOptions = { parties: { party: string; isLocal?: boolean }[] };

const inline = { errorDisplay: 'inline' } as const;
const NONE: ReadonlyMap<string, string> = new Map();

/**
 * Which parties are hosted here in an IdP other than `viewIdentityProviderId`, by party id: the
 * listed view blinds them to "not local" (ledger-api-behaviour.md §4.7), but a participant admin
 * may list each IdP's own parties (the pickers' first page, at most 16 IdPs, §3.2) and say where
 * they belong. Empty for other callers, and while (or if) the lists do not load.
 */
export function useOtherIdentityProviders(
  viewIdentityProviderId: string,
  isParticipantAdmin: boolean,
): ReadonlyMap<string, string> {
  const identityProviders = useQuery({
    ...identityProviderQueries.list(),
    enabled: isParticipantAdmin,
    meta: inline,
  });
  const others = isParticipantAdmin
    ? ['', ...(identityProviders.data ?? []).map((idp) => idp.identityProviderId)].filter(
        (id) => id !== viewIdentityProviderId,
      )
    : [];
  // The IdPs asked, in order, decide the answer; as one string, so the callback stays stable.
  const asked = others.join('\n');
  const combine = useCallback(
    (results: UseQueryResult<PartyOptions>[]) => {
      const ids = asked.split('\n');
      const byParty = new Map<string, string>();
      results.forEach((result, index) => {
        const id = ids[index];
        if (id === undefined) return;
        for (const party of result.data?.parties ?? []) {
          if (party.isLocal === true) byParty.set(party.party, id);
        }
      });
      return byParty.size === 0 ? NONE : byParty;
    },
    [asked],
  );
  return useQueries({
    queries: others.map((id) => ({ ...partyQueries.options(id), meta: inline })),
    combine,
  });
}

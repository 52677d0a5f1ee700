import { queryOptions } from '@tanstack/react-query';
import { partyQueries } from '@/api/parties';

// The parties endpoint's largest page (§5.2): one request counts all but the largest participants.
const PARTIES_PAGE_SIZE = 10_000;

/**
 * The parties of one IdP. Listing with `identity-provider-id` returns every party the
 * participant knows, with those of other IdPs blinded to no IdP (§4.7, §5.2), so the IdP's own
 * are the ones that carry its id. `isComplete` is false when more pages exist than were read.
 */
export function identityProviderPartiesQuery(identityProviderId: string) {
  return queryOptions({
    ...partyQueries.list({ identityProviderId, pageSize: PARTIES_PAGE_SIZE, pageToken: '' }),
    select: (page) => ({
      parties: page.partyDetails.filter((party) => party.identityProviderId === identityProviderId),
      isComplete: !page.nextPageToken,
    }),
  });
}

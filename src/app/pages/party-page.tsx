import { partyHint } from '@ledger-console/participant/unique-identifier';
import { Box } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { partyQueries, type PartyRef } from '@/api/parties';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { RecentActivity } from '@/features/activity/recent-activity';
import { PartyDetail, type PartyDetailLinks } from '@/features/parties/party-detail';
import { idFromRouteSegment, paths } from '@/app/paths';
import { auditMentionsSearch } from '@/lib/activity/audit-log';

const links: PartyDetailLinks = {
  parties: paths.parties.to(),
  user: paths.user.to,
  newExternalParty: paths.newExternalParty.to,
  update: (updateId: string) => paths.transactions.to(updateId),
};

/** A party is seen through an IdP (`''` = default); the IdP travels as a search param. */
function partyRefOf(party: string | undefined, search: URLSearchParams): PartyRef {
  return { party: idFromRouteSegment(party), identityProviderId: search.get('idp') ?? '' };
}

/** Starts loading the caller and the party; does not wait. */
export function partyPageLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const partyRef = partyRefOf(params.party, new URL(request.url).searchParams);
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, partyQueries.detail(partyRef));
    return null;
  };
}

export function PartyPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const partyRef = partyRefOf(params.party, search);
  const { party, identityProviderId } = partyRef;
  const hint = partyHint(party);

  return (
    <>
      <PageHeader
        back={{ to: paths.parties.to(), label: 'parties' }}
        title={hint ?? party}
        description={
          identityProviderId === ''
            ? 'Party'
            : `Party, as identity provider ${identityProviderId} sees it`
        }
      />
      {/* Another party, or the same one through another IdP, starts with fresh forms. */}
      <QueryBoundary
        key={`${identityProviderId}/${party}`}
        notFound={{
          what: 'party',
          id: party,
          ...(identityProviderId === ''
            ? {}
            : { scope: `in identity provider ${identityProviderId}` }),
          back: { to: paths.parties.to(), label: 'parties' },
        }}
      >
        <PartyDetail
          partyRef={partyRef}
          onIdentityProviderFound={(found) => {
            void navigate(paths.party.to(party, found), { replace: true });
          }}
          links={links}
        />
      </QueryBoundary>
      <Box mt="lg">
        <QueryBoundary key={`activity/${party}`}>
          <RecentActivity
            subject={{ kind: 'party', party }}
            activityHref={`${paths.activity.to()}${auditMentionsSearch(party)}`}
          />
        </QueryBoundary>
      </Box>
    </>
  );
}

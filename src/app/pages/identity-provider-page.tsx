import type { QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import { identityProviderQueries } from '@/api/identity-providers';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import type { IdentityProviderLinks } from '@/features/identity-providers/identity-provider-links';
import { IdentityProviderDetails } from '@/features/identity-providers/identity-provider-details';
import { IdentityProviderPageHeader } from '@/features/identity-providers/identity-provider-page-header';
import { identityProviderPartiesQuery } from '@/features/identity-providers/identity-provider-parties-query';
import { idFromRouteSegment, paths } from '@/app/paths';

const identityProviderLinks: IdentityProviderLinks = {
  identityProviders: paths.identityProviders.to(),
  newIdentityProvider: paths.newIdentityProvider.to(),
  identityProvider: paths.identityProvider.to,
  user: paths.user.to,
};

const back = { to: paths.identityProviders.to(), label: 'identity providers' };

export function identityProviderPageLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const identityProviderId = idFromRouteSegment(params.identityProviderId);
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, identityProviderQueries.detail(identityProviderId));
    void prefetch(queryClient, identityProviderPartiesQuery(identityProviderId));
    return null;
  };
}

export function IdentityProviderPage() {
  const identityProviderId = idFromRouteSegment(useParams().identityProviderId);
  const navigate = useNavigate();
  return (
    <>
      <IdentityProviderPageHeader
        identityProviderId={identityProviderId}
        back={back}
        onDeleted={() => {
          void navigate(paths.identityProviders.to());
        }}
      />
      <QueryBoundary
        key={identityProviderId}
        notFound={{ what: 'identity provider', id: identityProviderId, back }}
        need="Participant admin"
      >
        <IdentityProviderDetails
          identityProviderId={identityProviderId}
          links={identityProviderLinks}
        />
      </QueryBoundary>
    </>
  );
}

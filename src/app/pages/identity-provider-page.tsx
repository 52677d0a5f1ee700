import { Anchor } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import { identityProviderQueries } from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import type { IdentityProviderLinks } from '@/features/identity-providers/identity-provider-links';
import { IdentityProviderDetails } from '@/features/identity-providers/identity-provider-details';
import { identityProviderPartiesQuery } from '@/features/identity-providers/identity-provider-parties-query';
import { idFromRouteSegment, paths } from '@/app/paths';

// A failed prefetch is not lost: the query keeps its error and the section's boundary shows it.
const ignore = () => undefined;

const identityProviderLinks: IdentityProviderLinks = {
  identityProviders: paths.identityProviders.to(),
  newIdentityProvider: paths.newIdentityProvider.to(),
  identityProvider: paths.identityProvider.to,
  user: paths.user.to,
};

export function identityProviderPageLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const identityProviderId = idFromRouteSegment(params.identityProviderId);
    void queryClient.query(sessionQueries.caller()).catch(ignore);
    void queryClient.query(identityProviderQueries.detail(identityProviderId)).catch(ignore);
    void queryClient.query(identityProviderPartiesQuery(identityProviderId)).catch(ignore);
    return null;
  };
}

export function IdentityProviderPage() {
  const identityProviderId = idFromRouteSegment(useParams().identityProviderId);
  const navigate = useNavigate();
  return (
    <>
      <Anchor component={Link} to={paths.identityProviders.to()} size="sm" mb="xs" display="block">
        ← Identity providers
      </Anchor>
      <PageHeader title={identityProviderId} description="Identity provider" />
      <QueryBoundary>
        <IdentityProviderDetails
          identityProviderId={identityProviderId}
          links={identityProviderLinks}
          onDeleted={() => {
            void navigate(paths.identityProviders.to());
          }}
        />
      </QueryBoundary>
    </>
  );
}

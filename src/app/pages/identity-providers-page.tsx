import type { QueryClient } from '@tanstack/react-query';
import { identityProviderQueries } from '@/api/identity-providers';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import type { IdentityProviderLinks } from '@/features/identity-providers/identity-provider-links';
import {
  CreateIdentityProviderAction,
  IdentityProvidersList,
} from '@/features/identity-providers/identity-providers-list';
import { paths } from '@/app/paths';

const identityProviderLinks: IdentityProviderLinks = {
  identityProviders: paths.identityProviders.to(),
  newIdentityProvider: paths.newIdentityProvider.to(),
  identityProvider: paths.identityProvider.to,
  user: paths.user.to,
};

export function identityProvidersPageLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, identityProviderQueries.list());
    return null;
  };
}

export function IdentityProvidersPage() {
  return (
    <>
      <PageHeader
        title="Identity providers"
        description="Token issuers besides the participant's default one, each with its own users and parties."
        actions={<CreateIdentityProviderAction href={identityProviderLinks.newIdentityProvider} />}
      />
      <QueryBoundary>
        <IdentityProvidersList links={identityProviderLinks} />
      </QueryBoundary>
    </>
  );
}

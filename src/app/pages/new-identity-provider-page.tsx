import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { DelegateIdentityProvider } from '@/features/identity-providers/delegate-identity-provider';
import { paths } from '@/app/paths';

const links = { identityProvider: paths.identityProvider.to, user: paths.user.to };

export function NewIdentityProviderPage() {
  return (
    <>
      <Anchor component={Link} to={paths.identityProviders.to()} size="sm" mb="xs" display="block">
        ← Identity providers
      </Anchor>
      <PageHeader
        title="Create identity provider"
        description="Lets the participant accept tokens from another issuer, for users and parties of their own: fill it from the issuer, create its first IdP admin, and hand it over."
      />
      <DelegateIdentityProvider links={links} />
    </>
  );
}

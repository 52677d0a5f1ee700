import { PageHeader } from '@/components/page-header';
import { DelegateIdentityProvider } from '@/features/identity-providers/delegate-identity-provider';
import { paths } from '@/app/paths';

const links = {
  identityProviders: paths.identityProviders.to(),
  identityProvider: paths.identityProvider.to,
  user: paths.user.to,
  newUser: paths.newUser.to,
};

export function NewIdentityProviderPage() {
  return (
    <>
      <PageHeader
        title="Create identity provider"
        back={{ to: paths.identityProviders.to(), label: 'identity providers' }}
        description="Lets the participant accept tokens from another issuer, for users and parties of their own: fill it from the issuer, create its first IdP admin, and hand it over."
      />
      <DelegateIdentityProvider links={links} />
    </>
  );
}

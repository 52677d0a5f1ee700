import { Anchor } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CreateIdentityProviderForm } from '@/features/identity-providers/create-identity-provider-form';
import { paths } from '@/app/paths';

export function NewIdentityProviderPage() {
  const navigate = useNavigate();
  return (
    <>
      <Anchor component={Link} to={paths.identityProviders.to()} size="sm" mb="xs" display="block">
        ← Identity providers
      </Anchor>
      <PageHeader
        title="Create identity provider"
        description="Lets the participant accept tokens from another issuer, for users and parties of their own."
      />
      <CreateIdentityProviderForm
        onCreated={(config) => {
          void navigate(paths.identityProvider.to(config.identityProviderId));
        }}
      />
    </>
  );
}

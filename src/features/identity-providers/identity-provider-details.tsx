import { Alert, Stack, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { identityProviderQueries } from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access-rights';
import { EditIdentityProviderForm } from './edit-identity-provider-form';
import { IdentityProviderActions } from './identity-provider-actions';
import type { IdentityProviderLinks } from './identity-provider-links';
import { IdentityProviderParties } from './identity-provider-parties';
import { IdentityProviderStatusBadge } from './identity-provider-status-badge';
import { IdentityProviderUsers } from './identity-provider-users';

export type IdentityProviderDetailsProps = {
  identityProviderId: string;
  links: IdentityProviderLinks;
  onDeleted: () => void;
};

/**
 * One IdP: its settings (participant admins only, like every /v2/idps endpoint), and its users
 * as far as the caller may see them. An IdP's own admin gets its users without the settings.
 */
export function IdentityProviderDetails(props: IdentityProviderDetailsProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  if (access.isParticipantAdmin) return <AdminView {...props} />;
  if (access.administeredIdentityProviderId === props.identityProviderId) {
    return (
      <Stack gap="lg">
        <Alert color="blue" variant="light" title="Your identity provider">
          Its settings can be read and changed only by a participant admin.
        </Alert>
        <SectionCard title="Users">
          <IdentityProviderUsers
            identityProviderId={props.identityProviderId}
            userHref={props.links.user}
          />
        </SectionCard>
      </Stack>
    );
  }
  return (
    <Alert color="yellow" title="Only participant admins manage identity providers">
      Identity provider configurations can be read only with the ParticipantAdmin right, which you
      do not have.
    </Alert>
  );
}

function AdminView({ identityProviderId, links, onDeleted }: IdentityProviderDetailsProps) {
  const { data: config } = useSuspenseQuery(identityProviderQueries.detail(identityProviderId));
  return (
    <Stack gap="lg">
      <SectionCard title="Settings">
        <Stack gap="md">
          <PropertyList
            items={[
              {
                label: 'Identity provider id',
                value: (
                  <Identifier
                    value={config.identityProviderId}
                    label="identity provider id"
                    isShortened={false}
                  />
                ),
              },
              { label: 'Issuer', value: <Value text={config.issuer} /> },
              { label: 'JWKS URL', value: <Value text={config.jwksUrl} /> },
              { label: 'Audience', value: <Value text={config.audience ?? ''} /> },
              {
                label: 'Status',
                value: (
                  <IdentityProviderStatusBadge isDeactivated={config.isDeactivated ?? false} />
                ),
              },
            ]}
          />
          <IdentityProviderActions config={config} onDeleted={onDeleted} />
        </Stack>
      </SectionCard>
      <SectionCard title="Edit settings">
        <EditIdentityProviderForm config={config} />
      </SectionCard>
      <SectionCard title="Users">
        <QueryBoundary>
          <IdentityProviderUsers identityProviderId={identityProviderId} userHref={links.user} />
        </QueryBoundary>
      </SectionCard>
      <SectionCard title="Parties">
        <QueryBoundary>
          <IdentityProviderParties identityProviderId={identityProviderId} />
        </QueryBoundary>
      </SectionCard>
    </Stack>
  );
}

function Value({ text }: { text: string }) {
  return text ? (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      none
    </Text>
  );
}

import { Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { identityProviderQueries, type IdentityProviderConfig } from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { ForbiddenState } from '@/components/feedback/page-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { EditIdentityProviderForm } from './edit-identity-provider-form';
import { deactivatedIdentityProvider } from './identity-provider-error-fixes';
import { IdentityProviderFailureNote } from './identity-provider-failure-note';
import type { IdentityProviderLinks } from './identity-provider-links';
import { IdentityProviderParties } from './identity-provider-parties';
import { IdentityProviderUsers } from './identity-provider-users';

export type IdentityProviderDetailsProps = {
  identityProviderId: string;
  links: IdentityProviderLinks;
};

/**
 * One IdP: its settings (participant admins only, like every /v2/idps endpoint), and its users
 * as far as the caller may see them. An IdP's own admin gets its users without the settings.
 * Status, activate/deactivate and delete are in the page header (IdentityProviderPageHeader).
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
    <ForbiddenState
      title="Only participant admins manage identity providers"
      {...forbiddenDetails(caller, ['ParticipantAdmin'])}
    />
  );
}

function AdminView({ identityProviderId, links }: IdentityProviderDetailsProps) {
  const { data: config } = useSuspenseQuery(identityProviderQueries.detail(identityProviderId));
  const blocked = deactivatedIdentityProvider(config, true);
  return (
    <Stack gap="lg">
      {blocked !== undefined && (
        <IdentityProviderFailureNote
          failure={blocked}
          identityProviderHref={links.identityProvider}
          color="yellow"
        />
      )}
      {/* A new config (another IdP after a link) starts in the read-only view. */}
      <Settings key={identityProviderId} config={config} links={links} />
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

/**
 * The settings once: read-only, with Edit swapping them for the form in place (Save / Cancel),
 * which is calmer than a page of always-open inputs and never shows a value twice.
 */
function Settings({
  config,
  links,
}: {
  config: IdentityProviderConfig;
  links: IdentityProviderLinks;
}) {
  const [isEditing, setIsEditing] = useState(false);
  return (
    <SectionCard title="Settings">
      {isEditing ? (
        <EditIdentityProviderForm
          config={config}
          identityProviderHref={links.identityProvider}
          onDone={() => {
            setIsEditing(false);
          }}
        />
      ) : (
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Box style={{ minWidth: 0, flex: '1 1 20rem' }}>
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
              ]}
            />
          </Box>
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => {
              setIsEditing(true);
            }}
          >
            Edit settings
          </Button>
        </Group>
      )}
    </SectionCard>
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

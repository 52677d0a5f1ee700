import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { IdentityProviderConfig } from '@/api/identity-providers';
import { participantQueries } from '@/api/participant';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionCard } from '@/components/section-card';
import { CreateIdentityProviderForm } from './create-identity-provider-form';
import { FirstIdentityProviderAdminForm } from './first-identity-provider-admin-form';
import { ActivateIdentityProviderButton } from './identity-provider-failure-note';
import { IdentityProviderHandOff } from './identity-provider-hand-off';
import type { IdentityProviderLinks } from './identity-provider-links';
import type { AdminFixLinks } from '@/blocks/admin-fix-actions';

export type DelegateIdentityProviderProps = {
  links: Pick<IdentityProviderLinks, 'identityProviders' | 'identityProvider' | 'user'> &
    AdminFixLinks;
};

/**
 * A participant admin delegates an identity provider in three steps on one page: the IdP
 * configuration (filled from the issuer's discovery), its first IdP admin, and the hand-off sheet.
 * Nothing is stored between steps but in this page: a reload starts again, and what was already
 * created is on the IdP's own page.
 */
export function DelegateIdentityProvider({ links }: DelegateIdentityProviderProps) {
  const [config, setConfig] = useState<IdentityProviderConfig>();
  const [adminUserId, setAdminUserId] = useState<string>();
  const participantId = useQuery({
    ...participantQueries.participantId(),
    enabled: adminUserId !== undefined,
    meta: { errorDisplay: 'inline' },
  });

  if (!config) {
    return (
      <CreateIdentityProviderForm
        fillFromIssuer
        onCreated={setConfig}
        cancelHref={links.identityProviders}
        identityProviderHref={links.identityProvider}
      />
    );
  }

  // Inside tinted alerts: the alert's own (contrast-checked) text colour, underlined as a link.
  const idpLink = (
    <Anchor
      component={Link}
      to={links.identityProvider(config.identityProviderId)}
      c="inherit"
      underline="always"
    >
      {config.identityProviderId}
    </Anchor>
  );

  return (
    <Stack gap="lg" maw={860}>
      <Alert color="teal" variant="light" title="Identity provider created">
        <Stack gap="xs">
          <Text size="sm">
            {idpLink} accepts tokens from <code>{config.issuer}</code>
            {config.isDeactivated
              ? ' once it is activated: until then none of its users, the first IdP admin included, can sign in'
              : ''}
            .
          </Text>
          {config.isDeactivated === true && (
            <Group>
              <ActivateIdentityProviderButton
                identityProviderId={config.identityProviderId}
                onActivated={() => {
                  setConfig({ ...config, isDeactivated: false });
                }}
              />
            </Group>
          )}
        </Stack>
      </Alert>
      {adminUserId === undefined ? (
        <SectionCard title="First IdP admin">
          <Stack gap="sm">
            <FirstIdentityProviderAdminForm
              identityProviderId={config.identityProviderId}
              issuer={config.issuer}
              links={links}
              onCreated={(user) => {
                setAdminUserId(user.id);
              }}
            />
            <Group>
              <Button
                component={Link}
                to={links.identityProvider(config.identityProviderId)}
                variant="subtle"
              >
                Skip: open {config.identityProviderId}
              </Button>
            </Group>
          </Stack>
        </SectionCard>
      ) : (
        <>
          <Alert color="teal" variant="light" title="First IdP admin created">
            <Text size="sm">
              <Anchor
                component={Link}
                to={links.user(adminUserId, config.identityProviderId)}
                c="inherit"
                underline="always"
              >
                {adminUserId}
              </Anchor>{' '}
              administers {config.identityProviderId}.
            </Text>
          </Alert>
          {participantId.error ? (
            <ErrorAlert error={participantId.error} onRetry={() => void participantId.refetch()} />
          ) : participantId.data === undefined ? (
            <Text size="sm">Reading the participant id…</Text>
          ) : (
            <IdentityProviderHandOff
              handOff={{ participantId: participantId.data, config, adminUserId }}
            />
          )}
        </>
      )}
    </Stack>
  );
}

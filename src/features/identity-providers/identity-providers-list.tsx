import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  identityProviderQueries,
  MAX_IDENTITY_PROVIDERS,
  type IdentityProviderConfig,
} from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { EmptyState } from '@/components/feedback/empty-state';
import { ForbiddenState } from '@/components/feedback/page-state';
import { accessOf } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import type { IdentityProviderLinks } from './identity-provider-links';
import { IdentityProviderStatusBadge } from './identity-provider-status-badge';

export type IdentityProvidersListProps = { links: IdentityProviderLinks };

/** The participant's IdP configs; only a participant admin may read them (§3.1). */
export function IdentityProvidersList({ links }: IdentityProvidersListProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  if (!accessOf(caller).canManageIdentityProviders) {
    return (
      <ForbiddenState
        title="Only participant admins manage identity providers"
        {...forbiddenDetails(caller, ['ParticipantAdmin'])}
      />
    );
  }
  return <IdentityProvidersTable links={links} />;
}

function IdentityProvidersTable({ links }: IdentityProvidersListProps) {
  const { data: configs, isFetching } = useSuspenseQuery(identityProviderQueries.list());
  const isFull = configs.length >= MAX_IDENTITY_PROVIDERS;

  if (configs.length === 0) {
    return (
      <EmptyState
        title="No identity providers yet"
        description={`Users sign in through the participant's default identity provider only. Add one so that users whose tokens another issuer signs (e.g. Keycloak, Auth0) can sign in; a participant holds at most ${String(MAX_IDENTITY_PROVIDERS)}.`}
        action={
          <Button component={Link} to={links.newIdentityProvider}>
            Create identity provider
          </Button>
        }
      />
    );
  }

  const columns: DataTableColumn<IdentityProviderConfig>[] = [
    {
      key: 'id',
      header: 'Id',
      width: '20%',
      cell: (config) => (
        <Anchor
          component={Link}
          to={links.identityProvider(config.identityProviderId)}
          size="sm"
          title={config.identityProviderId}
        >
          {config.identityProviderId}
        </Anchor>
      ),
    },
    { key: 'issuer', header: 'Issuer', width: '27%', cell: (config) => textCell(config.issuer) },
    {
      key: 'jwksUrl',
      header: 'JWKS URL',
      width: '27%',
      cell: (config) => textCell(config.jwksUrl),
    },
    {
      key: 'audience',
      header: 'Audience',
      width: '14%',
      cell: (config) => (config.audience ? textCell(config.audience) : dimmed('none')),
    },
    {
      key: 'status',
      header: 'Status',
      width: '12%',
      cell: (config) => (
        <IdentityProviderStatusBadge isDeactivated={config.isDeactivated ?? false} />
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {configs.length} of {MAX_IDENTITY_PROVIDERS} identity providers configured
        {isFull ? ': the participant holds no more; delete one to add another.' : '.'}
      </Text>
      <DataTable
        label="Identity providers"
        columns={columns}
        rows={configs}
        rowKey={(config) => config.identityProviderId}
        isBusy={isFetching}
        caption="The default identity provider is built into the participant and never listed."
      />
    </Stack>
  );
}

function textCell(value: string) {
  return (
    <Text span size="sm" title={value}>
      {value}
    </Text>
  );
}

function dimmed(value: string) {
  return (
    <Text span size="sm" c="dimmed">
      {value}
    </Text>
  );
}

/**
 * "Create identity provider" for the page header: a participant admin's only, disabled when the
 * participant holds the most it can, and absent while the list is empty (its empty state offers
 * it). Not suspending, so the header never waits for the list.
 */
export function CreateIdentityProviderAction({ href }: { href: string }) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const mayManage = caller.data !== undefined && accessOf(caller.data).canManageIdentityProviders;
  const list = useQuery({
    ...identityProviderQueries.list(),
    enabled: mayManage,
    meta: { errorDisplay: 'inline' },
  });
  if (!mayManage || list.data === undefined || list.data.length === 0) return null;
  return list.data.length >= MAX_IDENTITY_PROVIDERS ? (
    // A disabled link is not a thing; a disabled button says the same and cannot be followed.
    <Button disabled>Create identity provider</Button>
  ) : (
    <Button component={Link} to={href}>
      Create identity provider
    </Button>
  );
}

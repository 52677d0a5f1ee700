import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { identityProviderQueries } from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { PageHeader } from '@/components/page-header';
import { accessOf } from '@/lib/access/access-rights';
import { IdentityProviderActions } from './identity-provider-actions';
import { IdentityProviderStatusBadge } from './identity-provider-status-badge';

export type IdentityProviderPageHeaderProps = {
  identityProviderId: string;
  back: { to: string; label: string };
  onDeleted: () => void;
};

/**
 * The IdP page's header: its id, and for a participant admin (the only caller who may read the
 * config) its status beside the title and activate/deactivate and delete at the right, once the
 * config is loaded. Not suspending: the title shows at once, and a missing IdP leaves the
 * not-found state below to the page's boundary.
 */
export function IdentityProviderPageHeader({
  identityProviderId,
  back,
  onDeleted,
}: IdentityProviderPageHeaderProps) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const isAdmin = caller.data !== undefined && accessOf(caller.data).isParticipantAdmin;
  const detail = useQuery({
    ...identityProviderQueries.detail(identityProviderId),
    enabled: isAdmin,
    meta: { errorDisplay: 'inline' },
  });
  const config = isAdmin ? detail.data : undefined;
  return (
    <PageHeader
      title={identityProviderId}
      back={back}
      description="Identity provider"
      {...(config === undefined
        ? {}
        : {
            badges: (
              <Box component="span" role="group" aria-label="Status">
                <IdentityProviderStatusBadge isDeactivated={config.isDeactivated ?? false} />
              </Box>
            ),
            actions: <IdentityProviderActions config={config} onDeleted={onDeleted} />,
          })}
    />
  );
}

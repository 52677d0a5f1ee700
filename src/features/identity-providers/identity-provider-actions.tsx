import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  identityProviderMutations,
  identityProviderQueries,
  type IdentityProviderConfig,
} from '@/api/identity-providers';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { formatCount } from '@/lib/text/format';
import {
  deleteIdentityProviderCopyAs,
  updateIdentityProviderCopyAs,
} from './identity-provider-copy-as';
import { toStatusUpdateRequest } from './identity-provider-form-schema';
import { identityProviderPartiesQuery } from './identity-provider-parties-query';
import { buttonBusy } from '@/components/form/button-busy';

export type IdentityProviderActionsProps = {
  config: IdentityProviderConfig;
  onDeleted: () => void;
};

/**
 * Activate/deactivate and delete: one-click actions with a confirm step, whose dialog offers
 * "Copy as…" for the exact request its button sends; failures are toasts.
 */
export function IdentityProviderActions({ config, onDeleted }: IdentityProviderActionsProps) {
  const queryClient = useQueryClient();
  const id = config.identityProviderId;
  const isDeactivated = config.isDeactivated ?? false;
  const parties = useQuery(identityProviderPartiesQuery(id));
  const updateStatus = useMutation(identityProviderMutations.update());
  const remove = useMutation({
    ...identityProviderMutations.delete(),
    // Not the deleted IdP's own detail: refetching it now would only fail with "not found".
    meta: {
      ...identityProviderMutations.delete().meta,
      invalidates: [identityProviderQueries.list().queryKey],
    },
  });

  const handleStatus = () => {
    const request = toStatusUpdateRequest(config, !isDeactivated);
    const copyAs = <CopyAsMenu commands={() => updateIdentityProviderCopyAs(request)} />;
    confirmDanger(
      isDeactivated
        ? {
            title: `Activate identity provider ${id}?`,
            body: (
              <Stack gap="xs">
                <Text size="sm">
                  Tokens from its issuer are accepted again, for its users and parties as they are.
                </Text>
                <Group justify="flex-end">{copyAs}</Group>
              </Stack>
            ),
            confirmLabel: 'Activate',
            color: 'blue',
            onConfirm: () => {
              updateStatus.mutate(request, {
                onSuccess: () => {
                  notify.success(`Identity provider ${id} activated`);
                },
              });
            },
          }
        : {
            title: `Deactivate identity provider ${id}?`,
            body: (
              <Stack gap="xs">
                <Text size="sm">
                  The participant then rejects every token from its issuer, so its users cannot sign
                  in and their open streams end. Its users and parties stay; activating it again
                  restores access.
                </Text>
                <Group justify="flex-end">{copyAs}</Group>
              </Stack>
            ),
            confirmLabel: 'Deactivate',
            onConfirm: () => {
              updateStatus.mutate(request, {
                onSuccess: () => {
                  notify.success(`Identity provider ${id} deactivated`);
                },
              });
            },
          },
    );
  };

  const handleDelete = () => {
    const partyCount = parties.data
      ? `${parties.data.isComplete ? '' : 'at least '}${formatCount(parties.data.parties.length, 'party', 'parties')}`
      : undefined;
    confirmDanger({
      title: `Delete identity provider ${id}?`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            {partyCount === undefined
              ? 'How many parties it has could not be read.'
              : `It has ${partyCount}.`}
          </Text>
          <Text size="sm">
            How many users it has cannot be known here: the JSON API lists an identity
            provider&apos;s users only to its own admins.
          </Text>
          <Text size="sm">
            The participant refuses to delete an identity provider that users or parties still
            belong to; move or delete them first. Deleting cannot be undone.
          </Text>
          <Group justify="flex-end">
            <CopyAsMenu commands={() => deleteIdentityProviderCopyAs(id)} />
          </Group>
        </Stack>
      ),
      confirmLabel: 'Delete identity provider',
      onConfirm: () => {
        remove.mutate(id, {
          onSuccess: () => {
            // Marked stale without a refetch, so coming back shows that it is gone.
            void queryClient.invalidateQueries({
              queryKey: identityProviderQueries.detail(id).queryKey,
              refetchType: 'none',
            });
            notify.success(`Identity provider ${id} deleted`);
            onDeleted();
          },
        });
      },
    });
  };

  return (
    <Group gap="xs">
      <Button variant="default" onClick={handleStatus} loading={buttonBusy(updateStatus.isPending)}>
        {isDeactivated ? 'Activate' : 'Deactivate'}
      </Button>
      <Button
        color="red"
        variant="light"
        onClick={handleDelete}
        loading={buttonBusy(remove.isPending)}
      >
        Delete
      </Button>
    </Group>
  );
}

import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { identityProviderMutations, identityProviderQueries } from '@/api/identity-providers';
import { notify } from '@/components/feedback/notify';
import { isApiError } from '@/lib/errors/api-error';
import {
  identityProviderFailure,
  type IdentityProviderFailure,
  type SubmissionFacts,
} from './identity-provider-error-fixes';
import { toStatusUpdateRequest } from './identity-provider-form-schema';
import { buttonBusy } from '@/components/form/button-busy';

export type IdentityProviderFailureNoteProps = {
  failure: IdentityProviderFailure;
  identityProviderHref: (identityProviderId: string) => string;
  /** A yellow note for a state (deactivated), a red one for a failed submission. */
  color?: 'red' | 'yellow';
};

/** The cause in the user's terms and the one action that fixes it, as a link or a button. */
export function IdentityProviderFailureNote({
  failure,
  identityProviderHref,
  color = 'red',
}: IdentityProviderFailureNoteProps) {
  const { fix } = failure;
  return (
    <Alert color={color} variant="light">
      <Stack gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {failure.cause}
        </Text>
        {fix !== undefined && (
          <Group gap="xs">
            {fix.kind === 'openIdentityProvider' ? (
              <Button
                component={Link}
                to={identityProviderHref(fix.identityProviderId)}
                size="xs"
                variant="default"
              >
                Open {fix.identityProviderId}
              </Button>
            ) : (
              <ActivateIdentityProviderButton identityProviderId={fix.identityProviderId} />
            )}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** Activates at once: the fix of a deactivated IdP, reversible from its page. */
export function ActivateIdentityProviderButton({
  identityProviderId,
  onActivated,
}: {
  identityProviderId: string;
  onActivated?: () => void;
}) {
  const activate = useMutation(identityProviderMutations.update());
  return (
    <Button
      size="xs"
      loading={buttonBusy(activate.isPending)}
      onClick={() => {
        activate.mutate(
          toStatusUpdateRequest({ identityProviderId, issuer: '', jwksUrl: '' }, false),
          {
            onSuccess: () => {
              notify.success(`Identity provider ${identityProviderId} activated`);
              onActivated?.();
            },
          },
        );
      }}
    >
      Activate {identityProviderId}
    </Button>
  );
}

export type SubmissionFailureFixProps = {
  error: unknown;
  facts: Omit<SubmissionFacts, 'configs'>;
  identityProviderHref: (identityProviderId: string) => string;
};

/**
 * Inside a create or edit form's error area: what a failed submission means and its fix. For an
 * issuer conflict it reads the IdP list (a participant admin's, like the form) to name the owner.
 */
export function SubmissionFailureFix({
  error,
  facts,
  identityProviderHref,
}: SubmissionFailureFixProps) {
  const isIssuerConflict = isApiError(error) && error.code === 'IDP_CONFIG_ISSUER_ALREADY_EXISTS';
  const configs = useQuery({
    ...identityProviderQueries.list(),
    enabled: isIssuerConflict,
    meta: { errorDisplay: 'inline' },
  });
  if (isIssuerConflict && configs.isPending && configs.fetchStatus === 'fetching') return null;
  const failure = identityProviderFailure(error, {
    ...facts,
    ...(configs.data === undefined ? {} : { configs: configs.data }),
  });
  if (failure === undefined) return null;
  return (
    <IdentityProviderFailureNote failure={failure} identityProviderHref={identityProviderHref} />
  );
}

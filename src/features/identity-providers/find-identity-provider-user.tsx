import { Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { userQueries } from '@/api/users';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { describeError } from '@/lib/errors/api-error';

export type FindIdentityProviderUserProps = {
  identityProviderId: string;
  userHref: (userId: string, identityProviderId: string) => string;
};

/**
 * Looks a user up by id within the IdP (GET /v2/users/{id}?identity-provider-id=…), the one way a
 * participant admin can reach an IdP's users through the JSON API.
 */
export function FindIdentityProviderUser({
  identityProviderId,
  userHref,
}: FindIdentityProviderUserProps) {
  const [draft, setDraft] = useState('');
  const [userId, setUserId] = useState('');
  const lookup = useQuery({
    ...userQueries.detail({ userId, identityProviderId }),
    enabled: userId !== '',
    // The answer is shown inline; not-found is an answer here, not a failure to report.
    meta: { errorDisplay: 'inline' },
  });
  const status = lookup.isError ? describeError(lookup.error).status : undefined;

  return (
    <Stack gap="sm">
      <form
        role="search"
        aria-label="Find a user of this IdP"
        onSubmit={(event) => {
          event.preventDefault();
          setUserId(draft.trim());
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label="User id"
            value={draft}
            onChange={(event) => {
              setDraft(event.currentTarget.value);
            }}
            autoComplete="off"
            spellCheck={false}
            w={280}
          />
          <Button type="submit" variant="default" disabled={draft.trim() === ''}>
            Find user
          </Button>
        </Group>
      </form>
      {userId !== '' && (
        <div aria-live="polite">
          {lookup.isFetching ? (
            <Loader size="xs" role="status" aria-label="Looking up the user" />
          ) : lookup.data ? (
            <Text size="sm">
              Found:{' '}
              <Anchor component={Link} to={userHref(lookup.data.id, identityProviderId)}>
                {lookup.data.id}
              </Anchor>
              {lookup.data.isDeactivated ? ' (deactivated)' : ''}
            </Text>
          ) : status === 404 ? (
            <Text size="sm">No user “{userId}” exists on this participant.</Text>
          ) : status === 403 ? (
            // Redacted, but for a participant admin the participant refuses only this (§2.4).
            <Text size="sm">
              User “{userId}” is not in this identity provider: the participant refuses to show it
              here, as it does for a user of another identity provider.
            </Text>
          ) : lookup.error ? (
            <ErrorAlert
              error={lookup.error}
              onRetry={() => {
                void lookup.refetch();
              }}
            />
          ) : null}
        </div>
      )}
    </Stack>
  );
}

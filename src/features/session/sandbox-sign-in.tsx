import { Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sessionMutations, sessionQueries, type SandboxUser } from '@/api/session';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { useSignIn } from './use-sign-in';
import { buttonBusy } from '@/components/form/button-busy';

export type SandboxSignInProps = { onSignedIn: () => void };

/**
 * Sandbox-only convenience: the embedded sandbox mints a token for any of its users, so every role
 * (participant admin, IdP admin, plain user) can be tried. A real participant has nothing like it.
 */
export function SandboxSignIn({ onSignedIn }: SandboxSignInProps) {
  const users = useQuery(sessionQueries.sandboxUsers());
  const mint = useMutation({
    ...sessionMutations.mintSandboxToken(),
    meta: { errorDisplay: 'inline' },
  });
  const signIn = useSignIn();
  const [userId, setUserId] = useState<string | null>(null);
  const error = mint.error ?? signIn.error;

  const handleSignIn = () => {
    if (!userId) return;
    mint.mutate(userId, {
      onSuccess: ({ token }) => {
        signIn.mutate({ token, remember: false }, { onSuccess: onSignedIn });
      },
    });
  };

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Badge color="grape" variant="light">
          Sandbox only
        </Badge>
        <Text size="sm" c="dimmed">
          The embedded sandbox signs a token for any of its users. A real participant never does
          this.
        </Text>
      </Group>
      {users.isError && <ErrorAlert error={users.error} onRetry={() => void users.refetch()} />}
      <Select
        label="Sandbox user"
        placeholder={users.isPending ? 'Loading users…' : 'Pick a user'}
        searchable
        disabled={users.isPending}
        data={groupByIdentityProvider(users.data ?? [])}
        value={userId}
        onChange={setUserId}
        nothingFoundMessage="No such user"
      />
      {error && <ErrorAlert error={error} />}
      <div>
        <Button
          onClick={handleSignIn}
          disabled={!userId}
          loading={buttonBusy(mint.isPending || signIn.isPending)}
          variant="light"
          color="grape"
        >
          Sign in as this user
        </Button>
      </div>
      {users.data?.length === 0 && (
        <Alert color="gray" variant="light">
          The sandbox has no users yet.
        </Alert>
      )}
    </Stack>
  );
}

const ROLE_LABELS: Record<string, string> = {
  ParticipantAdmin: 'participant admin',
  IdentityProviderAdmin: 'IdP admin',
  CanActAsAnyParty: 'acts as any party',
  CanReadAsAnyParty: 'reads as any party',
};

function describeUser(user: SandboxUser): string {
  const roles = user.rightKinds.map((kind) => ROLE_LABELS[kind]).filter(Boolean);
  const parts = [...roles, ...(user.isDeactivated ? ['deactivated'] : [])];
  return parts.length > 0 ? `${user.id} (${parts.join(', ')})` : user.id;
}

function groupByIdentityProvider(users: readonly SandboxUser[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const user of users) {
    const group = user.identityProviderId ? `IdP ${user.identityProviderId}` : 'Default IdP';
    const items = groups.get(group) ?? [];
    // The value must be unique across groups; user ids are unique per participant.
    items.push({ value: user.id, label: describeUser(user) });
    groups.set(group, items);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}

import { Badge, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { readAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { PropertyList } from '@/components/property-list';
import { describeError } from '@/lib/errors/api-error';
import { accessOf, type Caller } from '@/lib/access/access-rights';

/** Who the participant currently takes this browser for; shown where the user can change it. */
export function CurrentIdentity() {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  if (caller.isPending) return <Text size="sm">Checking the current token…</Text>;
  if (caller.isError) {
    const { title, message, status } = describeError(caller.error);
    // No token, so nothing was refused: the participant only needs someone to sign in.
    if (status === 401 && readAccessToken() === undefined) {
      return (
        <Text size="sm">
          Not signed in. This participant shows its data to signed-in users only: choose a way to
          sign in below.
        </Text>
      );
    }
    return (
      <Text size="sm" c="red.9">
        {title}: {message}
      </Text>
    );
  }
  return <CallerSummary caller={caller.data} />;
}

export function CallerSummary({ caller }: { caller: Caller }) {
  if (caller.kind === 'unidentified') {
    return (
      <Text size="sm">
        No user: the participant accepts these requests without naming a user (it runs without
        authentication, or the token is a privileged one). Everything is allowed until the
        participant says otherwise.
      </Text>
    );
  }
  return (
    <PropertyList
      items={[
        { label: 'Signed in as', value: <Text ff="monospace">{caller.userId}</Text> },
        {
          label: 'Identity provider',
          value: <Text size="sm">{caller.identityProviderId || 'Default IdP'}</Text>,
        },
        { label: 'Role', value: <RoleBadges caller={caller} /> },
      ]}
    />
  );
}

function RoleBadges({ caller }: { caller: Caller }) {
  const access = accessOf(caller);
  const role = access.isParticipantAdmin
    ? 'Participant admin'
    : access.administeredIdentityProviderId !== undefined
      ? 'IdP admin'
      : 'User (read-only console)';
  return (
    <Group gap="xs">
      <Badge variant="light">{role}</Badge>
    </Group>
  );
}

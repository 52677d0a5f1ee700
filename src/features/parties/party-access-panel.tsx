import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { CancellableProgress } from '@/components/feedback/cancellable-progress';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { accessOf, type Access, type Caller } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import { formatCount } from '@/lib/text/format';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';
import {
  partyAccess,
  type PartyAdministratorRow,
  type PartyAccessRow,
  type PartyCapability,
} from './party-access';
import {
  usePartyAccessScan,
  type PartyAccessScanState,
  type UnreadableUser,
} from './use-party-access-scan';

export type PartyAccessPanelProps = {
  party: string;
  /** The IdP the party belongs to (`''`: the default IdP, or unknown for a party not local). */
  partyIdentityProviderId: string;
  /** The link to a user's page. */
  userHref: (userId: string, identityProviderId: string) => string;
};

/**
 * Who can act, read and execute as the party, from the rights of every user the caller may list,
 * each with the rights that let it; and the administrators who could grant themselves these rights.
 */
export function PartyAccessPanel({
  party,
  partyIdentityProviderId,
  userHref,
}: PartyAccessPanelProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  if (caller.kind === 'user' && !access.canManageUsers) {
    return (
      <OwnAccess
        caller={caller}
        party={party}
        partyIdentityProviderId={partyIdentityProviderId}
        userHref={userHref}
      />
    );
  }
  return (
    <Stack gap="md">
      <ScopeNote access={access} partyIdentityProviderId={partyIdentityProviderId} />
      <PartyAccessScan
        party={party}
        partyIdentityProviderId={partyIdentityProviderId}
        userHref={userHref}
      />
    </Stack>
  );
}

function ScopeNote({
  access,
  partyIdentityProviderId,
}: {
  access: Access;
  partyIdentityProviderId: string;
}) {
  if (access.administeredIdentityProviderId !== undefined) {
    return (
      <Text size="sm" c="dimmed">
        Only the users of your identity provider,{' '}
        {access.administeredIdentityProviderId || 'the default one'}, are checked: an IdP admin
        cannot list the users of other identity providers.
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      Only the users of the default identity provider are checked: the JSON API lists only those to
      a participant admin (its user list takes no identity provider).{' '}
      {partyIdentityProviderId === ''
        ? 'Users of other identity providers may hold rights for this party too.'
        : `This party belongs to ${partyIdentityProviderId}: its users may hold rights for it too; sign in as an admin of ${partyIdentityProviderId} to check them.`}
    </Text>
  );
}

/** A user who is no admin cannot list users; it sees what its own rights give it. */
function OwnAccess({
  caller,
  party,
  partyIdentityProviderId,
  userHref,
}: {
  caller: Extract<Caller, { kind: 'user' }>;
  party: string;
  partyIdentityProviderId: string;
  userHref: (userId: string, identityProviderId: string) => string;
}) {
  const { holders } = partyAccess(party, partyIdentityProviderId, [
    {
      userId: caller.userId,
      identityProviderId: caller.identityProviderId,
      isDeactivated: false,
      rights: caller.rights,
    },
  ]);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Listing users needs the Participant admin or Identity provider admin right, so only your own
        rights are shown.
      </Text>
      <HoldersTable rows={holders} userHref={userHref} />
    </Stack>
  );
}

function PartyAccessScan({ party, partyIdentityProviderId, userHref }: PartyAccessPanelProps) {
  const { state, start, cancel } = usePartyAccessScan(party, partyIdentityProviderId);
  const isRunning = state.status === 'listing' || state.status === 'reading';
  return (
    <Stack gap="md">
      <ScanProgress state={state} onCancel={cancel} onRestart={start} />
      {state.status === 'failed' && <ErrorAlert error={state.error} onRetry={start} />}
      {state.status === 'done' && state.unreadable.length > 0 && (
        <UnreadableUsers users={state.unreadable} />
      )}
      {state.status !== 'failed' && state.status !== 'listing' && (
        <>
          <HoldersTable rows={state.holders} userHref={userHref} isPartial={isRunning} />
          <AdministratorsTable rows={state.administrators} userHref={userHref} />
        </>
      )}
    </Stack>
  );
}

// Enough names to recognise a pattern; the count says how many there are.
const SHOWN_UNREADABLE = 10;

function UnreadableUsers({ users }: { users: readonly UnreadableUser[] }) {
  const names = users.slice(0, SHOWN_UNREADABLE).map((user) => user.userId);
  const more = users.length - names.length;
  return (
    <Alert color="yellow" title={`${formatCount(users.length, 'user', 'users')} not checked`}>
      The rights of {names.join(', ')}
      {more > 0 ? ` and ${String(more)} more` : ''} could not be read (
      {describeError(users[0]?.error).message}). They are left out below.
    </Alert>
  );
}

function ScanProgress({
  state,
  onCancel,
  onRestart,
}: {
  state: PartyAccessScanState;
  onCancel: () => void;
  onRestart: () => void;
}) {
  switch (state.status) {
    case 'listing':
      return (
        <CancellableProgress
          label="Listing users"
          status={`Listing users: ${formatCount(state.listed, 'user', 'users')} so far…`}
          onCancel={onCancel}
        />
      );
    case 'reading':
      return (
        <CancellableProgress
          label="Reading users' rights"
          value={state.listed === 0 ? 100 : (100 * state.checked) / state.listed}
          status={`Reading rights: ${String(state.checked)} of ${formatCount(state.listed, 'user', 'users')}…`}
          onCancel={onCancel}
        />
      );
    case 'cancelled':
      return (
        <Group gap="sm">
          <Text size="sm" role="status">
            {state.isListingDone
              ? `Stopped after checking ${String(state.checked)} of ${formatCount(state.listed, 'user', 'users')}: the tables show only those.`
              : `Stopped while listing users (${String(state.listed)} so far): no rights were checked.`}
          </Text>
          <Button size="xs" variant="default" onClick={onRestart}>
            Check again
          </Button>
        </Group>
      );
    case 'done':
      return (
        <Group gap="sm">
          <Text size="sm" role="status">
            Checked the rights of {formatCount(state.listed, 'user', 'users')}.
          </Text>
          <Button size="xs" variant="default" onClick={onRestart}>
            Check again
          </Button>
        </Group>
      );
    case 'failed':
      return null;
  }
}

const CAPABILITY_HEADERS: Record<PartyCapability, string> = {
  act: 'Act as',
  read: 'Read as',
  execute: 'Execute as',
};

function UserCell({
  row,
  userHref,
}: {
  row: { userId: string; identityProviderId: string; isDeactivated: boolean };
  userHref: (userId: string, identityProviderId: string) => string;
}) {
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component={Link} to={userHref(row.userId, row.identityProviderId)} size="sm">
        {row.userId}
      </Anchor>
      {row.isDeactivated && (
        <Badge size="xs" color="gray" variant="light" title="Its tokens are refused">
          Deactivated
        </Badge>
      )}
    </Group>
  );
}

function HoldersTable({
  rows,
  userHref,
  isPartial = false,
}: {
  rows: readonly PartyAccessRow[];
  userHref: (userId: string, identityProviderId: string) => string;
  isPartial?: boolean;
}) {
  const columns = useMemo(
    (): DataTableColumn<PartyAccessRow>[] => [
      {
        key: 'user',
        header: 'User',
        width: '31%',
        cell: (row) => <UserCell row={row} userHref={userHref} />,
      },
      ...(['act', 'read', 'execute'] as const).map(
        (capability): DataTableColumn<PartyAccessRow> => ({
          key: capability,
          header: CAPABILITY_HEADERS[capability],
          width: '23%',
          cell: (row) => {
            const rights = row.grantedBy[capability]
              .map((kind) => RIGHT_KIND_INFO[kind].label)
              .join(', ');
            return rights === '' ? (
              <Text span size="sm" c="dimmed">
                No
              </Text>
            ) : (
              <Text span size="sm" title={rights}>
                {rights}
              </Text>
            );
          },
        }),
      ),
    ],
    [userHref],
  );
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Users who can act, read or execute as this party
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {isPartial
            ? 'None found so far.'
            : 'None: no user checked holds a right that lets it act, read or execute as this party.'}
        </Text>
      ) : (
        <DataTable
          label="Users who can act, read or execute as this party"
          caption="Each cell names the rights that give the user this ability: Act as also lets a user read and execute as the party, and the “any party” rights cover every party."
          columns={columns}
          rows={rows}
          rowKey={(row) => `${row.identityProviderId}/${row.userId}`}
          maxHeight="50vh"
        />
      )}
    </Stack>
  );
}

/** The right an administrator would grant itself to gain what it lacks. */
function rightToGrant(row: PartyAdministratorRow): string {
  if (row.couldGain.includes('act')) return 'Act as (act, read and execute)';
  return row.couldGain
    .map((capability) => (capability === 'read' ? 'Read as' : 'Execute as'))
    .join(', ');
}

function AdministratorsTable({
  rows,
  userHref,
}: {
  rows: readonly PartyAdministratorRow[];
  userHref: (userId: string, identityProviderId: string) => string;
}) {
  const columns = useMemo(
    (): DataTableColumn<PartyAdministratorRow>[] => [
      {
        key: 'user',
        header: 'User',
        width: '31%',
        cell: (row) => <UserCell row={row} userHref={userHref} />,
      },
      {
        key: 'via',
        header: 'Right',
        width: '29%',
        cell: (row) => (
          <Text span size="sm">
            {row.via === 'ParticipantAdmin'
              ? RIGHT_KIND_INFO.ParticipantAdmin.label
              : `${RIGHT_KIND_INFO.IdentityProviderAdmin.label} (${row.identityProviderId || 'default'})`}
          </Text>
        ),
      },
      {
        key: 'couldGrant',
        header: 'Could grant itself',
        width: '40%',
        cell: (row) => {
          const right = rightToGrant(row);
          return (
            <Text span size="sm" title={right}>
              {right}
            </Text>
          );
        },
      },
    ],
    [userHref],
  );
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Administrators who could grant themselves access
      </Title>
      <Text size="sm" c="dimmed">
        Participant admin does not let a user act or read as a party, but such a user may grant
        itself any right; an Identity provider admin may do so for the parties of its own identity
        provider.
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None beyond the users above.
        </Text>
      ) : (
        <DataTable
          label="Administrators who could grant themselves access"
          columns={columns}
          rows={rows}
          rowKey={(row) => `${row.identityProviderId}/${row.userId}`}
          maxHeight="40vh"
        />
      )}
    </Stack>
  );
}

import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { participantQueries } from '@/api/participant';
import {
  HOSTING_MAX_READS,
  HOSTING_READ_LIMIT,
  HOSTING_READ_MS,
  partyHostingQueries,
  type HostingHistory,
} from '@/api/party-hosting';
import { synchronizerQueries } from '@/api/synchronizers';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import cellClasses from '@/components/data-table/data-table-cells.module.css';
import { Identifier } from '@/components/identifier';
import { RelativeTime } from '@/components/relative-time';
import {
  hostingEventText,
  hostingOf,
  knownConfirmationThreshold,
  permissionOf,
  type Hosting,
  type HostingChange,
} from '@/lib/transaction-tree/party-hosting';
import { idHint } from '@/lib/transaction-tree/update-summary';
import { formatCount, shortenIdentifier } from '@/lib/text/format';

export type PartyHostingPanelProps = {
  party: string;
  /** The party's IdP, for this participant's own view of it (connected-synchronizers). */
  identityProviderId: string;
  /** Whether this participant hosts the party in the IdP the page reads it through. */
  isLocal: boolean;
  /** The update page of a topology transaction. */
  updateHref: (updateId: string) => string;
};

/** A hosting row: from the topology events, or only from this participant's own answer. */
type HostingRow = Hosting & { readonly isThisParticipant: boolean; readonly isFromState: boolean };

/**
 * Where the party is hosted — each participant with its permission and whether it is still
 * onboarding, per synchronizer, with the confirmation threshold where the hosting determines it —
 * and the timeline of its hosting changes, both from the participant authorization events of the
 * update stream (bounded reads); this participant's own hosting also from connected-synchronizers.
 */
export function PartyHostingPanel({
  party,
  identityProviderId,
  isLocal,
  updateHref,
}: PartyHostingPanelProps) {
  const { data: history } = useSuspenseQuery(partyHostingQueries.changes(party));
  const { data: participantId } = useQuery(participantQueries.participantId());
  const connected = useQuery(synchronizerQueries.connected());
  const local = useQuery({
    ...partyHostingQueries.synchronizers({ party, identityProviderId }),
    enabled: isLocal,
  });
  const aliasOf = (synchronizerId: string) =>
    connected.data?.find((synchronizer) => synchronizer.synchronizerId === synchronizerId)
      ?.synchronizerAlias;
  const rows = hostingRows(history, participantId, isLocal ? (local.data ?? []) : []);
  const participantName = (id: string) =>
    id === participantId ? `${idHint(id)} (this participant)` : idHint(id);

  const synchronizerCell = (synchronizerId: string) => {
    if (synchronizerId === '') return <span className={cellClasses.dimmed}>Not reported</span>;
    const alias = aliasOf(synchronizerId);
    return (
      <span className={cellClasses.text} title={synchronizerId}>
        {alias
          ? `${alias} (${shortenIdentifier(synchronizerId)})`
          : shortenIdentifier(synchronizerId)}
      </span>
    );
  };

  const hostingColumns: DataTableColumn<HostingRow>[] = [
    {
      key: 'participant',
      header: 'Participant',
      width: '34%',
      cell: (row) => (
        <Group gap={6} wrap="nowrap">
          <Identifier value={row.participantId} label="participant id" />
          {row.isThisParticipant && (
            <Badge size="sm" variant="light" color="green">
              This participant
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'synchronizer',
      header: 'Synchronizer',
      width: '26%',
      cell: (row) => synchronizerCell(row.synchronizerId),
    },
    {
      key: 'permission',
      header: 'Permission',
      width: '16%',
      cell: (row) => row.permission ?? <span className={cellClasses.dimmed}>Unspecified</span>,
    },
    {
      key: 'status',
      header: 'Status',
      width: '24%',
      cell: (row) =>
        row.isOnboarding ? (
          <Badge
            size="sm"
            variant="light"
            color="yellow"
            title="The party's contracts are still being replicated to this participant: it does not confirm for the party yet"
          >
            Onboarding
          </Badge>
        ) : (
          <span className={cellClasses.text}>
            {row.isFromState ? 'Hosted (this participant reports it)' : 'Hosted'}
          </span>
        ),
    },
  ];

  const timelineColumns: DataTableColumn<HostingChange>[] = [
    {
      key: 'time',
      header: 'Record time',
      width: '16%',
      cell: (change) =>
        change.recordTime ? (
          <RelativeTime value={change.recordTime} />
        ) : (
          <span className={cellClasses.dimmed}>—</span>
        ),
    },
    {
      key: 'offset',
      header: 'Offset',
      width: '10%',
      cell: (change) => (
        <Anchor
          component={Link}
          to={updateHref(change.updateId)}
          size="sm"
          aria-label={`Open the topology transaction at offset ${String(change.offset)}`}
        >
          {change.offset}
        </Anchor>
      ),
    },
    {
      key: 'synchronizer',
      header: 'Synchronizer',
      width: '20%',
      cell: (change) => synchronizerCell(change.synchronizerId),
    },
    {
      key: 'what',
      header: 'What changed',
      width: '54%',
      cell: (change) => {
        const text = change.events
          .map((event) => hostingEventText(event, { participant: participantName }))
          .join('; ');
        return (
          <span className={cellClasses.text} title={text}>
            {text}
          </span>
        );
      },
    },
  ];

  const synchronizers = [...new Set(rows.map((row) => row.synchronizerId))];
  return (
    <Stack gap="md">
      <Text size="sm" fw={600} component="h3">
        Where it is hosted
      </Text>
      {rows.length === 0 ? (
        <Text size="sm">
          No participant hosts this party according to the topology events you can read
          {history.prunedUpTo > 0 ? ' (earlier ones are pruned)' : ''}.
        </Text>
      ) : (
        <>
          <DataTable
            label="Hosting participants"
            columns={hostingColumns}
            rows={rows}
            rowKey={(row) => `${row.synchronizerId}/${row.participantId}`}
          />
          <Stack gap={2} aria-label="Confirmation thresholds" role="list">
            {synchronizers.map((synchronizerId) => (
              <Text size="sm" key={synchronizerId} role="listitem">
                {thresholdText(
                  rows.filter((row) => row.synchronizerId === synchronizerId),
                  aliasOf(synchronizerId) ?? shortenIdentifier(synchronizerId),
                  synchronizers.length > 1,
                )}
              </Text>
            ))}
          </Stack>
        </>
      )}
      <Text size="sm" fw={600} component="h3">
        Hosting timeline
      </Text>
      {history.changes.length === 0 ? (
        <Text size="sm">No hosting changes in the update stream you can read.</Text>
      ) : (
        <DataTable
          label="Hosting timeline"
          caption="Newest first. Each change is a topology transaction of the update stream."
          columns={timelineColumns}
          rows={[...history.changes].reverse()}
          rowKey={(change) => change.updateId}
        />
      )}
      <ReadNotes history={history} />
    </Stack>
  );
}

/**
 * The hosting the events leave, this participant's rows marked; where this participant reports
 * hosting the events do not show (pruned, or cut off), its own answer adds the row.
 */
function hostingRows(
  history: HostingHistory,
  participantId: string | undefined,
  localSynchronizers: readonly { synchronizerId: string; permission?: string | null }[],
): HostingRow[] {
  const rows: HostingRow[] = hostingOf(history.changes).map((hosting) => ({
    ...hosting,
    isThisParticipant: hosting.participantId === participantId,
    isFromState: false,
  }));
  if (participantId === undefined) return rows;
  for (const { synchronizerId, permission } of localSynchronizers) {
    const known = rows.some(
      (row) => row.synchronizerId === synchronizerId && row.participantId === participantId,
    );
    if (known) continue;
    rows.push({
      synchronizerId,
      participantId,
      permission: permissionOf(permission ?? undefined),
      isOnboarding: false,
      sinceOffset: 0,
      isThisParticipant: true,
      isFromState: true,
    });
  }
  return rows;
}

function thresholdText(rows: readonly HostingRow[], synchronizer: string, isNamed: boolean) {
  const on = isNamed ? ` on ${synchronizer}` : '';
  const threshold = knownConfirmationThreshold(rows);
  if (threshold !== undefined) {
    return `Confirmation threshold${on}: ${String(threshold)} (one participant confirms for the party).`;
  }
  const confirmers = rows.filter(
    (row) =>
      !row.isOnboarding && (row.permission === 'submission' || row.permission === 'confirmation'),
  ).length;
  if (confirmers === 0)
    return `Confirmation threshold${on}: no participant confirms for the party.`;
  return `Confirmation threshold${on}: not reported by the Ledger API (${formatCount(confirmers, 'participant confirms', 'participants confirm')}; the threshold is in the party's PartyToParticipant topology mapping).`;
}

/** What the read could not cover: pruned offsets, and a read cut by its bounds. */
function ReadNotes({ history }: { history: HostingHistory }) {
  const notes: string[] = [];
  if (history.prunedUpTo > 0) {
    notes.push(
      `Changes at or before offset ${String(history.prunedUpTo)} are pruned and not shown; hosting set up before then may be missing.`,
    );
  }
  if (history.cut) {
    const bound =
      history.cut.reason === 'count'
        ? `${String(HOSTING_MAX_READS)} reads of ${String(HOSTING_READ_LIMIT)} updates`
        : `${String(HOSTING_READ_MS / 1000)} s`;
    notes.push(
      `Reading stopped at offset ${String(history.cut.readUpTo)} after ${bound}: later hosting changes are not shown.`,
    );
  }
  if (notes.length === 0) return null;
  return (
    <Stack gap={2} role="status">
      {notes.map((note) => (
        <Text size="sm" c="dimmed" key={note}>
          {note}
        </Text>
      ))}
    </Stack>
  );
}

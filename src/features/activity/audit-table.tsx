import type { AuditEntry } from '@ledger-console/edge/console-api';
import { Badge, Code, Group, Stack, Text } from '@mantine/core';
import { RelativeTime } from '@/components/relative-time';
import type { ActivityEntry } from '@/lib/activity/activity-log';
import { auditActorLabel, auditResultLabel, isAuditSuccess } from '@/lib/activity/audit-log';
import { EntryTable, type EntryColumn } from './entry-table';
import { SnapshotView } from './snapshot-view';

export type AuditTableProps = {
  /** The table's accessible name. */
  label: string;
  entries: readonly AuditEntry[];
  /** This browser's own record of some of the calls, by audit entry id: their before → after. */
  browserEntries: ReadonlyMap<string, ActivityEntry>;
};

function ResultBadge({ entry }: { entry: AuditEntry }) {
  const isOk = isAuditSuccess(entry);
  return (
    <Badge color={isOk ? 'green' : 'red'} variant="light" style={{ textTransform: 'none' }}>
      {auditResultLabel(entry)}
    </Badge>
  );
}

function Fact({ name, children }: { name: string; children: string }) {
  return (
    <Text size="xs" style={{ wordBreak: 'break-all' }}>
      <Text span size="xs" fw={600}>
        {name}:
      </Text>{' '}
      {children}
    </Text>
  );
}

const BREAK_ANYWHERE = { wordBreak: 'break-all' } as const;

const AUDIT_COLUMNS: readonly EntryColumn<AuditEntry>[] = [
  {
    header: 'When',
    cell: (entry) => <RelativeTime value={entry.at} />,
    style: { whiteSpace: 'nowrap' },
  },
  { header: 'Who', cell: (entry) => auditActorLabel(entry.actor), style: BREAK_ANYWHERE },
  { header: 'Action', cell: (entry) => <Code>{entry.action}</Code>, isCardTitle: true },
  { header: 'Resource', cell: (entry) => entry.resource ?? '—', style: BREAK_ANYWHERE },
  { header: 'Result', cell: (entry) => <ResultBadge entry={entry} /> },
];

function EntryDetails({
  entry,
  browser,
}: {
  entry: AuditEntry;
  browser: ActivityEntry | undefined;
}) {
  const { actor } = entry;
  return (
    <Stack gap={4}>
      <Text size="xs">
        <Code style={BREAK_ANYWHERE}>
          {entry.method} {entry.path}
        </Code>
      </Text>
      <Fact name="At">{entry.at}</Fact>
      {entry.summary !== '' && <Fact name="Summary">{entry.summary}</Fact>}
      <Fact name="Answer">
        {`${entry.status === 0 ? 'none' : `HTTP ${entry.status}`}${
          entry.errorCode ? ` ${entry.errorCode}` : ''
        } after ${entry.durationMs} ms`}
      </Fact>
      <Fact name="Participant">{entry.participant}</Fact>
      <Fact name="User">
        {actor.userId === null
          ? 'none known'
          : `${actor.userId}${actor.identityProviderId ? ` in identity provider ${actor.identityProviderId}` : ' in the default identity provider'}`}
      </Fact>
      {actor.subject !== null && (
        <Fact name="Token">{`subject ${actor.subject}${actor.issuer ? ` from ${actor.issuer}` : ''}`}</Fact>
      )}
      {browser ? (
        <Stack gap={4} mt={4}>
          <Text size="xs" c="dimmed">
            This browser made this call and recorded the state around it:
          </Text>
          <Group grow align="flex-start">
            <SnapshotView title="Before" snapshot={browser.before} />
            <SnapshotView title="After" snapshot={browser.after} />
          </Group>
        </Stack>
      ) : (
        <Text size="xs" c="dimmed">
          Before and after are known only to the browser that made a call; this one did not.
        </Text>
      )}
    </Stack>
  );
}

/** Shared audit entries newest first; each opens to its call, answer and actor. All as text. */
export function AuditTable({ label, entries, browserEntries }: AuditTableProps) {
  return (
    <EntryTable
      label={label}
      entries={entries}
      keyOf={(entry) => entry.id}
      columns={AUDIT_COLUMNS}
      details={(entry) => <EntryDetails entry={entry} browser={browserEntries.get(entry.id)} />}
    />
  );
}

import { Badge, Code, Group, Stack, Text } from '@mantine/core';
import { RelativeTime } from '@/components/relative-time';
import { EntryTable, type EntryColumn } from './entry-table';
import { SnapshotView } from './snapshot-view';
import { actorLabel, subjectLabel, type ActivityEntry } from '@/lib/activity/activity-log';

export type ActivityTableProps = {
  /** The table's accessible name. */
  label: string;
  entries: readonly ActivityEntry[];
  /** Leave out the actor column where every entry is the same identity's (compact views). */
  isCompact?: boolean;
};

function ResultBadge({ entry }: { entry: ActivityEntry }) {
  const { result } = entry;
  return result.kind === 'ok' ? (
    <Badge color="green" variant="light">
      ok
    </Badge>
  ) : (
    <Badge color="red" variant="light" style={{ textTransform: 'none' }}>
      {result.code}
    </Badge>
  );
}

const WHEN: EntryColumn<ActivityEntry> = {
  header: 'When',
  cell: (entry) => <RelativeTime value={entry.at} />,
  style: { whiteSpace: 'nowrap' },
};
const WHO: EntryColumn<ActivityEntry> = { header: 'Who', cell: (entry) => actorLabel(entry.actor) };
const WHAT: readonly EntryColumn<ActivityEntry>[] = [
  { header: 'Action', cell: (entry) => <Code>{entry.action}</Code>, isCardTitle: true },
  {
    header: 'Subjects',
    cell: (entry) => entry.subjects.map(subjectLabel).join(', ') || '—',
    style: { wordBreak: 'break-all' },
  },
  { header: 'Result', cell: (entry) => <ResultBadge entry={entry} /> },
];
const FULL_COLUMNS = [WHEN, WHO, ...WHAT];
const COMPACT_COLUMNS = [WHEN, ...WHAT];

function EntryDetails({ entry }: { entry: ActivityEntry }) {
  return (
    <Stack gap="xs">
      <Text size="xs">
        <Code>
          {entry.call.method} {entry.call.path}
        </Code>{' '}
        by {actorLabel(entry.actor)}
      </Text>
      {entry.result.kind === 'error' && (
        <Text size="xs" c="red">
          {entry.result.code} (HTTP {entry.result.status}): {entry.result.message}
          {entry.result.correlationId ? ` · correlation id ${entry.result.correlationId}` : ''}
        </Text>
      )}
      <Group grow align="flex-start">
        <SnapshotView title="Before" snapshot={entry.before} />
        <SnapshotView title="After" snapshot={entry.after} />
      </Group>
    </Stack>
  );
}

/** Entries newest first; each opens to its call, before and after. Every value shown as text. */
export function ActivityTable({ label, entries, isCompact = false }: ActivityTableProps) {
  return (
    <EntryTable
      label={label}
      entries={entries}
      keyOf={(entry) => entry.id}
      columns={isCompact ? COMPACT_COLUMNS : FULL_COLUMNS}
      details={(entry) => <EntryDetails entry={entry} />}
    />
  );
}

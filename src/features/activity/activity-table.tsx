import { Badge, Box, Button, Code, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useId, useState } from 'react';
import tableClasses from '@/components/data-table/data-table.module.css';
import { RelativeTime } from '@/components/relative-time';
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

function EntryRow({ entry, isCompact }: { entry: ActivityEntry; isCompact: boolean }) {
  const [isOpen, setOpen] = useState(false);
  const detailsId = useId();
  const columns = isCompact ? 5 : 6;
  return (
    <Fragment>
      {/* Roles and data-label: on phones the row is a card (data-table.module.css). */}
      <Table.Tr role="row" className={tableClasses.row}>
        <Table.Td role="cell" data-label="When" style={{ whiteSpace: 'nowrap' }}>
          <RelativeTime value={entry.at} />
        </Table.Td>
        {!isCompact && (
          <Table.Td role="cell" data-label="Who">
            {actorLabel(entry.actor)}
          </Table.Td>
        )}
        <Table.Td role="cell" data-label="Action" data-card="title">
          <Code>{entry.action}</Code>
        </Table.Td>
        <Table.Td role="cell" data-label="Subjects" style={{ wordBreak: 'break-all' }}>
          {entry.subjects.map(subjectLabel).join(', ') || '—'}
        </Table.Td>
        <Table.Td role="cell" data-label="Result">
          <ResultBadge entry={entry} />
        </Table.Td>
        <Table.Td role="cell" data-card="actions">
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={isOpen}
            aria-controls={detailsId}
            onClick={() => {
              setOpen((open) => !open);
            }}
          >
            {isOpen ? 'Hide details' : 'Details'}
          </Button>
        </Table.Td>
      </Table.Tr>
      {isOpen && (
        <Table.Tr role="row" id={detailsId} data-card-details>
          <Table.Td role="cell" colSpan={columns}>
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
                  {entry.result.correlationId
                    ? ` · correlation id ${entry.result.correlationId}`
                    : ''}
                </Text>
              )}
              <Group grow align="flex-start">
                <SnapshotView title="Before" snapshot={entry.before} />
                <SnapshotView title="After" snapshot={entry.after} />
              </Group>
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

/** Entries newest first; each opens to its call, before and after. Every value shown as text. */
export function ActivityTable({ label, entries, isCompact = false }: ActivityTableProps) {
  return (
    <Box className={tableClasses.wideScroll}>
      <Table className={tableClasses.table} role="table" aria-label={label} verticalSpacing="xs">
        <Table.Thead role="rowgroup">
          <Table.Tr role="row">
            <Table.Th role="columnheader">When</Table.Th>
            {!isCompact && <Table.Th role="columnheader">Who</Table.Th>}
            <Table.Th role="columnheader">Action</Table.Th>
            <Table.Th role="columnheader">Subjects</Table.Th>
            <Table.Th role="columnheader">Result</Table.Th>
            <Table.Th role="columnheader">
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody role="rowgroup">
          {entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} isCompact={isCompact} />
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

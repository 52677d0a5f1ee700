import type { AuditEntry } from '@ledger-console/edge/console-api';
import { Badge, Box, Button, Code, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useId, useState } from 'react';
import tableClasses from '@/components/data-table/data-table.module.css';
import { RelativeTime } from '@/components/relative-time';
import type { ActivityEntry } from '@/lib/activity/activity-log';
import { auditActorLabel, auditResultLabel, isAuditSuccess } from '@/lib/activity/audit-log';
import { SnapshotView } from './snapshot-view';

export type AuditTableProps = {
  /** The table's accessible name. */
  label: string;
  entries: readonly AuditEntry[];
  /** This browser's own record of some of the calls, by audit entry id: their before → after. */
  browserEntries: ReadonlyMap<string, ActivityEntry>;
};

const COLUMNS = 6;

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

function EntryRow({ entry, browser }: { entry: AuditEntry; browser: ActivityEntry | undefined }) {
  const [isOpen, setOpen] = useState(false);
  const detailsId = useId();
  const { actor } = entry;
  return (
    <Fragment>
      {/* Roles and data-label: on phones the row is a card (data-table.module.css). */}
      <Table.Tr role="row" className={tableClasses.row}>
        <Table.Td role="cell" data-label="When" style={{ whiteSpace: 'nowrap' }}>
          <RelativeTime value={entry.at} />
        </Table.Td>
        <Table.Td role="cell" data-label="Who" style={{ wordBreak: 'break-all' }}>
          {auditActorLabel(actor)}
        </Table.Td>
        <Table.Td role="cell" data-label="Action" data-card="title">
          <Code>{entry.action}</Code>
        </Table.Td>
        <Table.Td role="cell" data-label="Resource" style={{ wordBreak: 'break-all' }}>
          {entry.resource ?? '—'}
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
          <Table.Td role="cell" colSpan={COLUMNS}>
            <Stack gap={4}>
              <Text size="xs">
                <Code style={{ wordBreak: 'break-all' }}>
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
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

/** Shared audit entries newest first; each opens to its call, answer and actor. All as text. */
export function AuditTable({ label, entries, browserEntries }: AuditTableProps) {
  return (
    <Box className={tableClasses.wideScroll}>
      <Table className={tableClasses.table} role="table" aria-label={label} verticalSpacing="xs">
        <Table.Thead role="rowgroup">
          <Table.Tr role="row">
            <Table.Th role="columnheader">When</Table.Th>
            <Table.Th role="columnheader">Who</Table.Th>
            <Table.Th role="columnheader">Action</Table.Th>
            <Table.Th role="columnheader">Resource</Table.Th>
            <Table.Th role="columnheader">Result</Table.Th>
            <Table.Th role="columnheader">
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody role="rowgroup">
          {entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} browser={browserEntries.get(entry.id)} />
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

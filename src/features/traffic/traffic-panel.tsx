import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useMemo, useOptimistic, useTransition, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  MAX_JOIN_PAGES,
  MAX_TRAFFIC_COMPLETIONS,
  MAX_TRAFFIC_PARTIES,
  MAX_TRAFFIC_USERS,
  TRAFFIC_PAGE_LIMIT,
  TRAFFIC_WINDOWS,
  isTrafficWindow,
  trafficQueries,
  type TrafficReport,
  type TrafficWindow,
} from '@/api/traffic';
import type { ReadScope } from '@/api/updates';
import { Identifier } from '@/components/identifier';
import type { Caller } from '@/lib/access/access-rights';
import { formatCount, formatTrafficCost } from '@/lib/text/format';
import { templateLabel } from '@/lib/transaction-tree/update-summary';
import { downloadTraffic } from './traffic-export';
import {
  aggregateTraffic,
  costliest,
  FAILED,
  NOT_READ,
  reportsNoCost,
  type TrafficAggregate,
  type TrafficRow,
} from './traffic-aggregation';
import { buttonBusy } from '@/components/form/button-busy';

/** Rows each table shows; the export has them all. */
export const TRAFFIC_TABLE_ROWS = 50;

const EXPORT_FORMATS = ['csv', 'json'] as const;

const WINDOW_OPTIONS = Object.entries(TRAFFIC_WINDOWS).map(([value, { label }]) => ({
  value,
  label,
}));

export type TrafficPanelProps = {
  /** Where a command's transaction opens (the app's route; features know no paths). */
  updateHref: (updateId: string) => string;
  window: TrafficWindow;
  onWindowChange: (window: TrafficWindow) => void;
  scope: ReadScope;
  caller: Caller;
  canListUsers: boolean;
};

/** The window picker, the totals, the four tables and the export. */
export function TrafficPanel({
  updateHref,
  window,
  onWindowChange,
  scope,
  caller,
  canListUsers,
}: TrafficPanelProps) {
  const query = useSuspenseQuery(trafficQueries.report({ window, scope, caller, canListUsers }));
  const report = query.data;
  const aggregate = useMemo(() => aggregateTraffic(report.completions), [report]);
  // A new window's report suspends inside the navigation's transition, so the last window's
  // report stays on screen meanwhile: the picker shows the window asked for, and the export waits
  // until the report shown is that window's, so a pick is never answered with the last one's file.
  const [switching, startSwitch] = useTransition();
  const [picked, setPicked] = useOptimistic(window);
  return (
    <Stack gap="lg" aria-busy={switching}>
      <Group align="end" justify="space-between">
        <Group align="end">
          <Select
            label="Window"
            data={WINDOW_OPTIONS}
            value={picked}
            allowDeselect={false}
            onChange={(value) => {
              if (isTrafficWindow(value)) {
                startSwitch(() => {
                  setPicked(value);
                  onWindowChange(value);
                });
              }
            }}
            w={220}
          />
          <Button
            variant="default"
            loading={buttonBusy(query.isFetching || switching)}
            onClick={() => {
              void query.refetch();
            }}
          >
            Refresh
          </Button>
        </Group>
        <Group gap="xs">
          {EXPORT_FORMATS.map((format) => (
            <Button
              key={format}
              size="xs"
              variant="default"
              disabled={switching || report.completions.length === 0}
              onClick={() => {
                downloadTraffic(format, report, aggregate);
              }}
            >
              Export {format.toUpperCase()}
            </Button>
          ))}
        </Group>
      </Group>
      <Summary report={report} aggregate={aggregate} />
      <Caps report={report} />
      {report.completions.length > 0 && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <RowsTable
            title="By user"
            rows={aggregate.byUser}
            total={aggregate.totals.cost}
            name={(row) => <Text size="sm">{row.key}</Text>}
          />
          <RowsTable
            title="By party"
            note="A command acting for several parties counts for each."
            rows={aggregate.byParty}
            total={aggregate.totals.cost}
            name={(row) => <Identifier value={row.key} label="party id" kind="party" />}
          />
          <RowsTable
            title="By template"
            rows={aggregate.byTemplate}
            total={aggregate.totals.cost}
            name={(row) => <TemplateName templateId={row.key} />}
          />
          <RowsTable
            title="By choice"
            note="Create is a create command; a command doing several things counts for each."
            rows={aggregate.byChoice}
            total={aggregate.totals.cost}
            name={(row) =>
              row.templateId === undefined ? (
                <TemplateName templateId={row.key} />
              ) : (
                <Stack gap={0}>
                  <Text size="sm" fw={500}>
                    {row.choice}
                  </Text>
                  <TemplateName templateId={row.templateId} />
                </Stack>
              )
            }
          />
        </SimpleGrid>
      )}
      {aggregate.totals.count > aggregate.totals.withoutCost && (
        <CostliestCommands completions={report.completions} updateHref={updateHref} />
      )}
    </Stack>
  );
}

/** Rows of the costliest-commands table. */
export const COSTLIEST_ROWS = 20;

/** The commands that paid most, each with its completion's facts and a link to its transaction. */
function CostliestCommands({
  completions,
  updateHref,
}: {
  completions: TrafficReport['completions'];
  updateHref: (updateId: string) => string;
}) {
  const titleId = useId();
  const rows = useMemo(() => costliest(completions, COSTLIEST_ROWS), [completions]);
  return (
    <section aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h5" id={titleId}>
          Costliest commands
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table aria-labelledby={titleId} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Offset</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Command</Table.Th>
                <Table.Th ta="right">Traffic paid</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((completion) => (
                <Table.Tr key={`${String(completion.offset)} ${completion.userId}`}>
                  <Table.Td>
                    {completion.updateId === '' ? (
                      completion.offset
                    ) : (
                      <Anchor component={Link} to={updateHref(completion.updateId)} size="sm">
                        {completion.offset}
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{completion.userId}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {(completion.actions ?? [])
                        .map((action) => `${templateLabel(action.templateId)} ${action.choice}`)
                        .join(', ') || (completion.succeeded ? NOT_READ : FAILED)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {formatTrafficCost(completion.paidTrafficCost ?? 0)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </section>
  );
}

function TemplateName({ templateId }: { templateId: string }) {
  if (templateId === NOT_READ || templateId === FAILED) {
    return (
      <Text size="sm" c="dimmed">
        {templateId}
      </Text>
    );
  }
  return <Identifier value={templateId} label="template id" shape="qualified-name" />;
}

function Summary({ report, aggregate }: { report: TrafficReport; aggregate: TrafficAggregate }) {
  const { totals } = aggregate;
  const range = `offsets ${String(report.beginExclusive + 1)}–${String(report.endInclusive)}`;
  if (totals.count === 0) {
    return (
      <Alert color="gray" variant="light" title="No commands completed in this window">
        <Text size="sm">
          Nothing that {formatCount(report.userIds.length, 'user', 'users')} submitted completed in{' '}
          {TRAFFIC_WINDOWS[report.window].label.toLowerCase()} ({range}). Pick a longer window, or
          submit some commands.
        </Text>
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure label="Traffic paid">{formatTrafficCost(totals.cost)}</Figure>
        <Figure label="Commands">{totals.count.toLocaleString('en-US')}</Figure>
        <Figure label="Average per command">
          {totals.count - totals.withoutCost === 0
            ? '–'
            : formatTrafficCost(Math.round(totals.cost / (totals.count - totals.withoutCost)))}
        </Figure>
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {TRAFFIC_WINDOWS[report.window].label} ({range}), completions of{' '}
        {formatCount(report.userIds.length, 'user', 'users')}
        {totals.failed > 0 ? `; ${formatCount(totals.failed, 'command', 'commands')} failed` : ''}
        {totals.withoutCost > 0 && !reportsNoCost(totals)
          ? `; ${formatCount(totals.withoutCost, 'command', 'commands')} without a reported cost`
          : ''}
        .
      </Text>
      {reportsNoCost(totals) && (
        <Alert color="yellow" variant="light" title="This participant reports no traffic cost">
          <Stack gap="xs">
            <Text size="sm">
              None of these {formatCount(totals.count, 'command', 'commands')} came with a paid
              traffic cost. A participant reports one only when its synchronizer has traffic control
              (and only for commands after it started to), so the counts below are all there is.
            </Text>
            <Text size="sm">
              The console&apos;s sandbox reports a cost when started with{' '}
              <Code>npm start -- --traffic-cost</Code> (or{' '}
              <Code>npm run sandbox -- --traffic-cost</Code>
              ).
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <Text id={id} size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={600}>
        {children}
      </Text>
    </div>
  );
}

/** Says which bound a partial report hit, so its totals are not taken for the whole window. */
function Caps({ report }: { report: TrafficReport }) {
  const notes: string[] = [];
  if (report.capped.users) {
    notes.push(`Only the first ${String(MAX_TRAFFIC_USERS)} users' completions were read.`);
  }
  if (report.capped.parties) {
    notes.push(`Completions were asked for the first ${String(MAX_TRAFFIC_PARTIES)} parties only.`);
  }
  if (report.capped.completions) {
    notes.push(
      `Only the first ${MAX_TRAFFIC_COMPLETIONS.toLocaleString('en-US')} completions from the window's start were read: pick a shorter window for all of them.`,
    );
  }
  if (report.capped.join) {
    notes.push(
      `The transactions of some commands were not read (at most ${String(MAX_JOIN_PAGES * TRAFFIC_PAGE_LIMIT)} updates are): they count under "${NOT_READ}".`,
    );
  }
  if (notes.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" title="Partial report: a bound was reached">
      <Stack gap={4}>
        {notes.map((note) => (
          <Text key={note} size="sm">
            {note}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

function RowsTable({
  title,
  note,
  rows,
  total,
  name,
}: {
  title: string;
  note?: string;
  rows: readonly TrafficRow[];
  total: number;
  name: (row: TrafficRow) => ReactNode;
}) {
  const titleId = useId();
  const shown = rows.slice(0, TRAFFIC_TABLE_ROWS);
  return (
    <section aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h5" id={titleId}>
          {title}
        </Title>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
        <Table.ScrollContainer minWidth={360}>
          <Table aria-labelledby={titleId} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th ta="right">Commands</Table.Th>
                <Table.Th ta="right">Traffic paid</Table.Th>
                <Table.Th ta="right">Share</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Td>{name(row)}</Table.Td>
                  <Table.Td ta="right">{row.count.toLocaleString('en-US')}</Table.Td>
                  <Table.Td ta="right">
                    {row.withoutCost === row.count ? '–' : formatTrafficCost(row.cost)}
                  </Table.Td>
                  <Table.Td ta="right">
                    {total === 0 ? '–' : `${((row.cost / total) * 100).toFixed(1)}%`}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {rows.length > shown.length && (
          <Text size="xs" c="dimmed">
            {formatCount(rows.length - shown.length, 'more row', 'more rows')} in the export.
          </Text>
        )}
      </Stack>
    </section>
  );
}

import { Anchor, Button, Group, Stack } from '@mantine/core';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { isEmptyScope, updateQueries, type ReadScope, type UpdateSummary } from '@/api/updates';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import cellClasses from '@/components/data-table/data-table-cells.module.css';
import { EmptyState } from '@/components/feedback/empty-state';
import { Identifier } from '@/components/identifier';
import { RelativeTime } from '@/components/relative-time';
import { useReadScope } from './use-read-scope';

export type RecentUpdatesLinks = {
  /** The viewer with this update open. */
  update: (updateId: string) => string;
};

/**
 * The latest transactions the caller's parties can see, newest first, read from `/v2/updates` in
 * bounded offset ranges (the list endpoints refuse more than 200 elements); "Load older" reads the
 * next ranges down.
 */
export function RecentUpdates({ links }: { links: RecentUpdatesLinks }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return (
      <EmptyState
        title="No parties to read as"
        description="Your user has no CanReadAs or CanActAs right, so no transaction is visible to it."
      />
    );
  }
  return <RecentUpdatesList scope={scope} links={links} />;
}

function RecentUpdatesList({ scope, links }: { scope: ReadScope; links: RecentUpdatesLinks }) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, refetch, isRefetching } =
    useSuspenseInfiniteQuery(updateQueries.recent(scope));
  const updates = data.pages.flatMap((page) => page.updates);
  const columns = useMemo(() => updateColumns(links), [links]);

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button
          variant="default"
          size="xs"
          loading={isRefetching && !isFetchingNextPage}
          onClick={() => {
            void refetch();
          }}
        >
          Refresh
        </Button>
      </Group>
      {updates.length === 0 ? (
        <EmptyState
          title="No transactions yet"
          description={
            hasNextPage
              ? 'None in the latest offsets; load older ones to look further back.'
              : 'Submit a command in the composer and its transaction shows here.'
          }
        />
      ) : (
        <DataTable
          label="Recent transactions"
          columns={columns}
          rows={updates}
          rowKey={(update) => update.updateId}
          isBusy={isRefetching}
        />
      )}
      {hasNextPage && (
        <Group justify="center">
          <Button
            variant="default"
            loading={isFetchingNextPage}
            onClick={() => {
              void fetchNextPage();
            }}
          >
            Load older
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function updateColumns(links: RecentUpdatesLinks): DataTableColumn<UpdateSummary>[] {
  return [
    {
      key: 'updateId',
      header: 'Update id',
      width: '24%',
      cell: (update) => <Identifier value={update.updateId} label="update id" />,
    },
    { key: 'offset', header: 'Offset', width: '10%', cell: (update) => String(update.offset) },
    {
      key: 'recordTime',
      header: 'Record time',
      width: '18%',
      cell: (update) => (update.recordTime ? <RelativeTime value={update.recordTime} /> : ''),
    },
    {
      key: 'commandId',
      header: 'Command id',
      width: '28%',
      cell: (update) =>
        update.commandId ? (
          <span className={cellClasses.text} title={update.commandId}>
            {update.commandId}
          </span>
        ) : (
          <span className={cellClasses.dimmed}>Not yours</span>
        ),
    },
    { key: 'events', header: 'Events', width: '10%', cell: (update) => String(update.eventCount) },
    {
      key: 'open',
      header: 'Open',
      width: '10%',
      cardPlacement: 'actions',
      cell: (update) => (
        <Anchor
          component={Link}
          to={links.update(update.updateId)}
          size="sm"
          aria-label={`Open the transaction at offset ${String(update.offset)}`}
        >
          Open
        </Anchor>
      ),
    },
  ];
}

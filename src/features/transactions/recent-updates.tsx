import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { isEmptyScope, updateQueries, type ReadScope } from '@/api/updates';
import { DataTable } from '@/components/data-table/data-table';
import { EmptyState } from '@/components/feedback/empty-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { FormSelect } from '@/components/form/form-select';
import { FormTextInput } from '@/components/form/form-text-input';
import { TimeDisplayControl } from '@/components/time-display-control';
import { updateSummaryColumns } from '@/components/update-summary-columns';
import {
  emptyHistorySeekValues,
  historySeekOf,
  historySeekSchema,
  toHistorySeek,
  withHistorySeek,
  type HistorySeek,
  type HistorySeekValues,
} from './history-seek-form-schema';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import { buttonBusy } from '@/components/form/button-busy';

export type RecentUpdatesLinks = {
  /** The viewer with this update open. */
  update: (updateId: string) => string;
};

/**
 * The transactions the caller's parties can see, one line each (what was created and exercised,
 * by whom). Newest first from the ledger end, "Load older" reading the next ranges down; or, after
 * a seek (`from=<offset>` or `at=<time>` in the URL), oldest first from there, "Load newer"
 * reading up. Either way it stops at the participant's pruning offset and says so.
 */
export function RecentUpdates({ links }: { links: RecentUpdatesLinks }) {
  const scope = useReadScope();
  const [searchParams, setSearchParams] = useSearchParams();
  const seek = historySeekOf(searchParams);
  if (isEmptyScope(scope)) {
    return <NoReadScopeState title="You may not read any party’s transactions" />;
  }
  const handleSeek = (next: HistorySeek) => {
    setSearchParams((current) => withHistorySeek(current, next));
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <HistorySeekForm seek={seek} onSeek={handleSeek} />
        <TimeDisplayControl />
      </Group>
      <QueryBoundary fallback={<SectionSkeleton lines={6} />}>
        {seek.kind === 'latest' && <LatestUpdates scope={scope} links={links} />}
        {seek.kind === 'offset' && (
          <NewerUpdates scope={scope} links={links} beginExclusive={seek.offset - 1} />
        )}
        {seek.kind === 'time' && <UpdatesSince scope={scope} links={links} time={seek.time} />}
      </QueryBoundary>
    </Stack>
  );
}

function HistorySeekForm({
  seek,
  onSeek,
}: {
  seek: HistorySeek;
  onSeek: (seek: HistorySeek) => void;
}) {
  const form = useForm<HistorySeekValues>({
    resolver: zodResolver(historySeekSchema),
    defaultValues: emptyHistorySeekValues,
  });
  const handleSubmit = form.handleSubmit((values) => {
    onSeek(toHistorySeek(values));
  });
  return (
    <form noValidate aria-label="Seek" onSubmit={(event) => void handleSubmit(event)}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <FormSelect
          control={form.control}
          name="by"
          label="Seek by"
          data={[
            { value: 'offset', label: 'Offset' },
            { value: 'time', label: 'Time' },
          ]}
          allowDeselect={false}
          w={120}
        />
        <FormTextInput
          control={form.control}
          name="value"
          label="From offset or time"
          description="Lists forwards from the first update at or after it"
          placeholder="42 or 2026-11-24 14:03"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          style={{ flex: 1, minWidth: 240, maxWidth: 420 }}
        />
        <Button type="submit" variant="default" mt={25}>
          Seek
        </Button>
        {seek.kind !== 'latest' && (
          <Button
            variant="subtle"
            mt={25}
            onClick={() => {
              form.reset(emptyHistorySeekValues);
              onSeek({ kind: 'latest' });
            }}
          >
            Latest
          </Button>
        )}
      </Group>
    </form>
  );
}

/** "Updates up to offset N were pruned": the participant no longer has them. */
function PrunedNote({ prunedUpTo }: { prunedUpTo: number }) {
  return (
    <Alert color="gray" variant="light" role="note" aria-label="Pruned">
      Updates up to offset {prunedUpTo} were pruned: the participant no longer has them.
    </Alert>
  );
}

function LatestUpdates({ scope, links }: { scope: ReadScope; links: RecentUpdatesLinks }) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, refetch, isRefetching } =
    useSuspenseInfiniteQuery(updateQueries.recent(scope));
  const updates = data.pages.flatMap((page) => page.updates);
  const prunedUpTo = data.pages.at(-1)?.prunedUpTo ?? 0;
  const columns = useMemo(() => updateSummaryColumns(links.update), [links]);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Newest first, from the ledger end.
        </Text>
        <Button
          variant="default"
          size="xs"
          loading={buttonBusy(isRefetching && !isFetchingNextPage)}
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
      {hasNextPage ? (
        <LoadMore label="Load older" isLoading={isFetchingNextPage} onLoad={fetchNextPage} />
      ) : (
        prunedUpTo > 0 && <PrunedNote prunedUpTo={prunedUpTo} />
      )}
    </Stack>
  );
}

function UpdatesSince({
  scope,
  links,
  time,
}: {
  scope: ReadScope;
  links: RecentUpdatesLinks;
  time: string;
}) {
  const { data } = useSuspenseQuery(updateQueries.offsetAtTime(scope, time));
  return (
    <NewerUpdates
      scope={scope}
      links={links}
      beginExclusive={data.beginExclusive}
      from={`the first update at or after ${time}`}
    />
  );
}

function NewerUpdates({
  scope,
  links,
  beginExclusive,
  from = `offset ${String(beginExclusive + 1)}`,
}: {
  scope: ReadScope;
  links: RecentUpdatesLinks;
  beginExclusive: number;
  from?: string;
}) {
  const { data, fetchNextPage, isFetchingNextPage } = useSuspenseInfiniteQuery(
    updateQueries.newer(scope, beginExclusive),
  );
  const updates = data.pages.flatMap((page) => page.updates);
  const first = data.pages[0];
  const last = data.pages.at(-1);
  const prunedUpTo = first?.prunedUpTo ?? 0;
  const columns = useMemo(() => updateSummaryColumns(links.update), [links]);

  return (
    <Stack gap="sm">
      {prunedUpTo > beginExclusive && <PrunedNote prunedUpTo={prunedUpTo} />}
      <Text size="sm" c="dimmed">
        Oldest first, from {from}.
      </Text>
      {updates.length === 0 ? (
        <EmptyState
          title="No transactions here"
          description={
            last?.reachedEnd
              ? 'None visible to you from here to the ledger end.'
              : 'None in these offsets; load newer ones to look further.'
          }
        />
      ) : (
        <DataTable
          label="Transactions from here"
          columns={columns}
          rows={updates}
          rowKey={(update) => update.updateId}
          // Appended pages keep the reader's place.
          scrollResetKey={beginExclusive}
        />
      )}
      {last?.reachedEnd && (
        <Text size="sm" c="dimmed" ta="center">
          Up to the ledger end at offset {last.ledgerEnd}.
        </Text>
      )}
      <LoadMore label="Load newer" isLoading={isFetchingNextPage} onLoad={fetchNextPage} />
    </Stack>
  );
}

/** The button that reads the next page, centred under the list. */
function LoadMore({
  label,
  isLoading,
  onLoad,
}: {
  label: string;
  isLoading: boolean;
  onLoad: () => Promise<unknown>;
}) {
  return (
    <Group justify="center">
      <Button
        variant="default"
        loading={buttonBusy(isLoading)}
        onClick={() => {
          void onLoad();
        }}
      >
        {label}
      </Button>
    </Group>
  );
}

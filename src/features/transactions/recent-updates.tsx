import { Anchor, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isEmptyScope, updateQueries, type ReadScope } from '@/api/updates';
import { EmptyState } from '@/components/feedback/empty-state';
import { Identifier } from '@/components/identifier';
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
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Recent transactions" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Update id</Table.Th>
                <Table.Th>Offset</Table.Th>
                <Table.Th>Record time</Table.Th>
                <Table.Th>Command id</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Open</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {updates.map((update) => (
                <Table.Tr key={update.updateId}>
                  <Table.Td>
                    <Identifier value={update.updateId} label="update id" />
                  </Table.Td>
                  <Table.Td>{update.offset}</Table.Td>
                  <Table.Td>{update.recordTime ?? ''}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {update.commandId ?? (
                      <Text size="sm" c="dimmed" span>
                        Not yours
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{update.eventCount}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={links.update(update.updateId)}
                      size="sm"
                      aria-label={`Open the transaction at offset ${String(update.offset)}`}
                    >
                      Open
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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

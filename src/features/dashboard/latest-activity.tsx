import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { isEmptyScope, updateQueries, type ReadScope } from '@/api/updates';
import { EmptyState } from '@/components/feedback/empty-state';
import { RelativeTime } from '@/components/relative-time';
import { useReadScope } from '@/hooks/use-read-scope';

/** How many of the newest transactions the overview lists. */
export const LATEST_COUNT = 5;

export type LatestActivityLinks = {
  /** The transaction viewer with this update open. */
  update: (updateId: string) => string;
};

/**
 * The newest transactions the caller's parties can see (the recent list the transactions page
 * reads, so the two share their cache), read again whenever the polled ledger end moves.
 */
export function LatestActivity({ links }: { links: LatestActivityLinks }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return (
      <EmptyState
        title="No parties to read as"
        description="Your user has no Read as or Act as right, so no transaction is visible to it."
      />
    );
  }
  return <LatestTransactions scope={scope} links={links} />;
}

function LatestTransactions({ scope, links }: { scope: ReadScope; links: LatestActivityLinks }) {
  const recent = useSuspenseInfiniteQuery(updateQueries.recent(scope));
  useRefetchWhenLedgerEndMoves(recent.refetch);
  const latest = recent.data.pages.flatMap((page) => page.updates).slice(0, LATEST_COUNT);

  if (latest.length === 0) {
    return (
      <EmptyState
        title="No transactions yet"
        description="None in the latest offsets that your parties can see."
      />
    );
  }
  return (
    <Stack
      component="ul"
      gap="xs"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label="Latest transactions"
    >
      {latest.map((update) => (
        <Group component="li" key={update.updateId} gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Anchor
              component={Link}
              to={links.update(update.updateId)}
              size="sm"
              aria-label={`Open the ${update.kind === 'topology' ? 'topology transaction' : 'transaction'} at offset ${String(update.offset)}`}
            >
              Offset {update.offset}
            </Anchor>
            {/* The same one-line summary as the history and /live: what happened, by whom. */}
            <Text size="sm" c="dimmed" truncate="end" title={update.text}>
              {update.text}
            </Text>
          </Group>
          {update.recordTime !== undefined && (
            <RelativeTime value={update.recordTime} c="dimmed" style={{ flexShrink: 0 }} />
          )}
        </Group>
      ))}
    </Stack>
  );
}

/**
 * Follows the ledger end another card polls (read from the cache here, never fetched): when it
 * moved, newer transactions may be there to show.
 */
function useRefetchWhenLedgerEndMoves(refetch: () => Promise<unknown>) {
  const { data: ledgerEnd } = useQuery({ ...updateQueries.ledgerEnd(), enabled: false });
  const seen = useRef(ledgerEnd);
  useEffect(() => {
    if (ledgerEnd === undefined) return;
    if (seen.current !== undefined && ledgerEnd > seen.current) void refetch();
    seen.current = ledgerEnd;
  }, [ledgerEnd, refetch]);
}

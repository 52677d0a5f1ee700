import { Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  nextPage,
  pageNumber as pageNumberOf,
  pageStatusText,
  previousPage,
  type PageTrail,
} from '@/lib/navigation/page-trail';
import { TokenPager } from './token-pager';

export type TokenPageProps<T extends PageTrail> = {
  /** Which page this is, from the URL. */
  page: T;
  /** Moves to the previous or next page (the screen puts it in the URL). */
  onPageChange: (page: T) => void;
  /** What the rows are, plural and lower case: "users". */
  rowsNoun: string;
  /** The pager's accessible name, e.g. "Users pages". */
  pagerLabel: string;
  /** The rows the page holds. */
  rowCount: number;
  /** How many of them a filter lets through; undefined when no filter is on. */
  matchCount: number | undefined;
  /** The token the page returned for the next one; `''` on the last page. */
  nextPageToken: string;
  /** The page refetches, or the next one loads: the rows stay, a small loader says so. */
  isRefreshing: boolean;
  /** Beside the status line, e.g. export buttons. */
  actions?: ReactNode;
  /** Instead of everything, when the first page has no rows at all. */
  empty: ReactNode;
  /** Instead of the rows, when the filter hides all of them. */
  noMatchText: ReactNode;
  /** The rows that match (a table). */
  children: ReactNode;
};

/**
 * One page of a list paged with forward-only tokens and no totals: a status line saying which rows
 * these are, a loader while it refreshes, the rows, and the pager.
 */
export function TokenPage<T extends PageTrail>({
  page,
  onPageChange,
  rowsNoun,
  pagerLabel,
  rowCount,
  matchCount,
  nextPageToken,
  isRefreshing,
  actions,
  empty,
  noMatchText,
  children,
}: TokenPageProps<T>) {
  const pageNumber = pageNumberOf(page);
  if (rowCount === 0 && pageNumber === 1) return empty;

  const status = (
    <Group gap="xs">
      <Text size="sm" role="status">
        {pageStatusText(page, rowsNoun, rowCount, matchCount)}
      </Text>
      {isRefreshing && <Loader size="xs" role="status" aria-label={`Refreshing ${rowsNoun}`} />}
    </Group>
  );

  return (
    <Stack gap="sm">
      {actions === undefined ? (
        status
      ) : (
        <Group justify="space-between">
          {status}
          {actions}
        </Group>
      )}
      {rowCount === 0 ? (
        <Text size="sm" c="dimmed">
          {`No more ${rowsNoun}: the previous page ended exactly with the last one.`}
        </Text>
      ) : (matchCount ?? rowCount) === 0 ? (
        <Text size="sm" c="dimmed">
          {noMatchText}
        </Text>
      ) : (
        children
      )}
      <TokenPager
        label={pagerLabel}
        rowsNoun={rowsNoun}
        pageNumber={pageNumber}
        hasNextPage={nextPageToken !== ''}
        isEmptyPage={rowCount === 0}
        onPrevious={() => {
          onPageChange(previousPage(page));
        }}
        onNext={() => {
          onPageChange(nextPage(page, nextPageToken));
        }}
      />
    </Stack>
  );
}

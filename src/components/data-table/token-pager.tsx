import { Button, Group, Text } from '@mantine/core';

export type TokenPagerProps = {
  /** The navigation's accessible name, e.g. "Users pages". */
  label: string;
  /** What the rows are, plural, for "More users may follow." */
  rowsNoun: string;
  /** 1-based. */
  pageNumber: number;
  /** The current page returned a next page token. */
  hasNextPage: boolean;
  /** The current page came back empty (the previous one ended exactly with the last row). */
  isEmptyPage: boolean;
  onPrevious: () => void;
  onNext: () => void;
};

/**
 * Previous/next for a list paged with forward-only tokens and no totals: it names the page and
 * says only what it knows: more may follow while there is a next token, else this is the last page.
 */
export function TokenPager({
  label,
  rowsNoun,
  pageNumber,
  hasNextPage,
  isEmptyPage,
  onPrevious,
  onNext,
}: TokenPagerProps) {
  return (
    <Group component="nav" aria-label={label} gap="sm">
      <Button variant="default" disabled={pageNumber === 1} onClick={onPrevious}>
        Previous page
      </Button>
      <Text size="sm">Page {pageNumber}</Text>
      <Button variant="default" disabled={!hasNextPage} onClick={onNext}>
        Next page
      </Button>
      <Text size="sm" c="dimmed">
        {hasNextPage ? `More ${rowsNoun} may follow.` : isEmptyPage ? '' : 'This is the last page.'}
      </Text>
    </Group>
  );
}

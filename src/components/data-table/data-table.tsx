import { Box, Group, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { StrokeIcon } from '@/components/stroke-icon';
import { DataTableBody } from './data-table-body';
import classes from './data-table.module.css';
import { firstScreenful, OVERSCAN } from './row-geometry';
import { FIXED_TABLE_VARS, TABLE_CLASSES } from './table-classes';
import { useVirtualizedRows } from './load-virtualizer';

export type SortDirection = 'ascending' | 'descending';
export type DataTableSort<K extends string = string> = { key: K; direction: SortDirection };

export type DataTableColumn<T, K extends string = string> = {
  key: K;
  header: string;
  cell: (row: T) => ReactNode;
  /** Fixed widths keep columns still while virtualized rows come and go. */
  width?: number | string;
  /** Offered only when the table has `onSortChange`. */
  isSortable?: boolean;
  /**
   * Where the cell goes when a row is shown as a card (phones): the title (by default the first
   * column), the actions at the bottom (buttons, no label), or a labelled line (the rest).
   */
  cardPlacement?: 'title' | 'actions' | 'line';
};

export type DataTableProps<T, K extends string = string> = {
  /** The table's accessible name; keep it stable ("Users"), put what changes in `caption`. */
  label: string;
  /** A visible line under the table, e.g. what is shown and in which order. */
  caption?: ReactNode;
  columns: readonly DataTableColumn<T, K>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /**
   * Rows keyed by their place, not by `rowKey`: for a page of a paged list, whose next page
   * replaces every row. A flip then updates the rows on screen in place instead of unmounting and
   * mounting each with its cells (a 50-row flip: 17.7 → 14.0 ms, median of 20, issue 29). Not for
   * a list whose rows move while watched (a stream, the live tail's new rows on top): there a row
   * keeps its identity, so that the rows below it are not rendered again.
   */
  isKeyedByPlace?: boolean;
  sort?: DataTableSort<K>;
  /** Makes the sortable columns' headers buttons that report the next sort. */
  onSortChange?: (sort: DataTableSort<K>) => void;
  /** Tells assistive technology the rows are being replaced. */
  isBusy?: boolean;
  /**
   * Above this many rows only the visible ones are in the DOM; below, all are. A streamed list
   * passes about a screenful (STREAMED_VIRTUALIZE_ABOVE): its first batch may bring a hundred rows
   * at once, and only those on screen should cost a render. A list watched while it changes many
   * times a second (the live tail) passes 0 and calls `preloadVirtualizer`, so that it is never
   * switched over mid-stream (ADR 027).
   */
  virtualizeAbove?: number;
  /**
   * Rows rendered beyond each edge of the screen when virtualized (OVERSCAN by default). A list
   * whose rows are all replaced several times a second (the live tail, newest on top) renders
   * fewer: every batch costs a render and a layout of each of them, seen or not.
   */
  overscan?: number;
  /** Height of the scrolling body; the header stays in view. */
  maxHeight?: CSSProperties['maxHeight'];
  /**
   * The scroll goes back to the top when this changes; by default when `rows` does. A list that
   * grows while it is read (a stream) passes what it was asked for, so appended rows keep the place.
   */
  scrollResetKey?: unknown;
};

/** Where rows become cards; the same query as in data-table.module.css (Mantine's `sm`). */
export const CARD_LAYOUT_QUERY = '(max-width: 47.99em)';
/** About a screenful of rows at one line each: where a streamed list starts virtualizing. */
export const STREAMED_VIRTUALIZE_ABOVE = 30;

/**
 * A real `<table>` for long lists: sticky header, sortable header buttons with `aria-sort`, and
 * row virtualization (TanStack Virtual, in virtualized-rows.tsx) above `virtualizeAbove` rows,
 * with `aria-rowcount` and `aria-rowindex` telling assistive technology where the rendered rows
 * sit in the whole set.
 * Spacer rows above and below the rendered ones keep the scroll height and the table layout.
 * On phones (CARD_LAYOUT_QUERY) the same rows are styled as cards, each value under its column's
 * header; the roles are explicit because a table styled `display: block` loses its implicit ones
 * in some browsers.
 */
export function DataTable<T, K extends string = string>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  isKeyedByPlace = false,
  sort,
  onSortChange,
  isBusy = false,
  virtualizeAbove = 100,
  overscan = OVERSCAN,
  maxHeight = '70vh',
  scrollResetKey,
}: DataTableProps<T, K>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isVirtual = rows.length > virtualizeAbove;
  const virtualizer = useVirtualizedRows(isVirtual);
  // The cards themselves come from CSS (no flash of a wide table); only the virtualizer needs to
  // know, since cards are taller than a line and vary in height.
  const isCards = useMediaQuery(CARD_LAYOUT_QUERY, undefined, { getInitialValueInEffect: false });
  const isSortableTable = onSortChange !== undefined && columns.some((c) => c.isSortable);

  // New rows (another page, a filter) start at the top, not at the old scroll offset. Writing
  // scrollTop lays the page out there and then, in the task that shows the new rows (a page flip
  // measured 3.5 ms of style and 5.6 ms of layout there): only a box scrolled away from the top is
  // written to. The scroll event says where it is, at no cost.
  const isScrolledRef = useRef(false);
  const resetKey = scrollResetKey === undefined ? rows : scrollResetKey;
  useEffect(() => {
    if (!isScrolledRef.current || !scrollRef.current) return;
    scrollRef.current.scrollTop = 0;
    isScrolledRef.current = false;
  }, [resetKey]);

  let body: ReactNode;
  if (isVirtual && virtualizer.status === 'loaded') {
    const VirtualizedRows = virtualizer.component;
    body = (
      <VirtualizedRows
        scrollRef={scrollRef}
        isCards={isCards}
        overscan={overscan}
        rows={rows}
        columns={columns}
        rowKey={rowKey}
        isKeyedByPlace={isKeyedByPlace}
      />
    );
  } else {
    // Until the virtualizer's code is in (the first long table only), the rows it would render at
    // the top. Below the threshold, or should it fail to load, every row: slower, but all there.
    const range =
      isVirtual && virtualizer.status === 'loading'
        ? firstScreenful(rows.length, isCards, columns.length, overscan)
        : { items: undefined, totalSize: 0 };
    body = (
      <DataTableBody
        rows={rows}
        items={range.items}
        totalSize={range.totalSize}
        columns={columns}
        rowKey={rowKey}
        isKeyedByPlace={isKeyedByPlace}
        measureElement={undefined}
      />
    );
  }

  return (
    <Box>
      <Box
        ref={scrollRef}
        className={classes.scroller}
        data-virtual={isVirtual || undefined}
        style={{ maxHeight, overflow: 'auto' }}
        onScroll={(event) => {
          isScrolledRef.current = event.currentTarget.scrollTop > 0;
        }}
      >
        {/* Mantine's table markup without its Table component (see table-classes.ts). */}
        <table
          className={`${TABLE_CLASSES.table} ${classes.table}`}
          style={FIXED_TABLE_VARS}
          role="table"
          aria-label={label}
          aria-rowcount={rows.length + 1}
          aria-busy={isBusy}
        >
          {/* The roles are explicit for the card layout's display:block (see above). */}
          {/* eslint-disable-next-line jsx-a11y/no-redundant-roles */}
          <thead
            className={TABLE_CLASSES.thead}
            data-sticky
            role="rowgroup"
            data-sortable={isSortableTable || undefined}
          >
            <tr
              className={TABLE_CLASSES.tr}
              data-with-row-border
              data-hover
              role="row"
              aria-rowindex={1}
            >
              {columns.map((column) => (
                <HeaderCell
                  key={column.key}
                  column={column}
                  sort={sort}
                  onSortChange={onSortChange}
                />
              ))}
            </tr>
          </thead>
          {body}
        </table>
      </Box>
      {caption !== undefined && (
        <Box mt="xs" c="dimmed" fz="sm">
          {caption}
        </Box>
      )}
    </Box>
  );
}

type HeaderCellProps<T, K extends string> = {
  column: DataTableColumn<T, K>;
  sort: DataTableSort<K> | undefined;
  onSortChange: ((sort: DataTableSort<K>) => void) | undefined;
};

function HeaderCell<T, K extends string>({ column, sort, onSortChange }: HeaderCellProps<T, K>) {
  const style: CSSProperties = { width: column.width };
  if (!column.isSortable || !onSortChange) {
    return (
      <th className={TABLE_CLASSES.th} role="columnheader" style={style}>
        {column.header}
      </th>
    );
  }
  const direction = sort?.key === column.key ? sort.direction : undefined;
  const next: SortDirection = direction === 'ascending' ? 'descending' : 'ascending';
  return (
    <th
      className={TABLE_CLASSES.th}
      role="columnheader"
      style={style}
      aria-sort={direction ?? 'none'}
      data-sortable
    >
      <UnstyledButton
        fw={700}
        fz="sm"
        onClick={() => {
          onSortChange({ key: column.key, direction: next });
        }}
      >
        <Group gap={4} wrap="nowrap">
          {column.header}
          <SortIcon direction={direction} />
        </Group>
      </UnstyledButton>
    </th>
  );
}

function SortIcon({ direction }: { direction: SortDirection | undefined }) {
  const path =
    direction === 'ascending'
      ? 'M6 15l6-6 6 6'
      : direction === 'descending'
        ? 'M6 9l6 6 6-6'
        : 'M8 9l4-4 4 4M16 15l-4 4-4-4';
  return (
    <StrokeIcon>
      <path d={path} />
    </StrokeIcon>
  );
}

import { Box, Group, Table, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { observeElementRect, useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { StrokeIcon } from '@/components/stroke-icon';
import classes from './data-table.module.css';

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
  sort?: DataTableSort<K>;
  /** Makes the sortable columns' headers buttons that report the next sort. */
  onSortChange?: (sort: DataTableSort<K>) => void;
  /** Tells assistive technology the rows are being replaced. */
  isBusy?: boolean;
  /**
   * Above this many rows only the visible ones are in the DOM; below, all are. A streamed list
   * passes about a screenful (STREAMED_VIRTUALIZE_ABOVE): its first batch may bring a hundred rows
   * at once, and only those on screen should cost a render.
   */
  virtualizeAbove?: number;
  /** Height of the scrolling body; the header stays in view. */
  maxHeight?: CSSProperties['maxHeight'];
  /**
   * The scroll goes back to the top when this changes; by default when `rows` does. A list that
   * grows while it is read (a stream) passes what it was asked for, so appended rows keep the place.
   */
  scrollResetKey?: unknown;
};

// One line per row at a fixed height, so the virtualizer never has to measure (the height is also
// in data-table.module.css).
const ROW_HEIGHT = 40;
/** Where rows become cards; the same query as in data-table.module.css (Mantine's `sm`). */
export const CARD_LAYOUT_QUERY = '(max-width: 47.99em)';
// A card is a title and a line per further column; only a first guess, cards are measured.
const CARD_LINE_HEIGHT = 26;
const CARD_PADDING = 36;
const OVERSCAN = 12;
/** About a screenful of rows at ROW_HEIGHT: where a streamed list starts virtualizing. */
export const STREAMED_VIRTUALIZE_ABOVE = 30;
// A scroll box with no layout yet (hidden, or jsdom in tests) measures 0 px high; it then still
// renders a screenful of rows instead of none.
const FALLBACK_RECT = { width: 0, height: 600 };

function cardPlacement<T, K extends string>(column: DataTableColumn<T, K>, index: number) {
  return column.cardPlacement ?? (index === 0 ? 'title' : 'line');
}

/**
 * A real `<table>` for long lists: sticky header, sortable header buttons with `aria-sort`, and
 * row virtualization (TanStack Virtual) above `virtualizeAbove` rows, with `aria-rowcount` and
 * `aria-rowindex` telling assistive technology where the rendered rows sit in the whole set.
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
  sort,
  onSortChange,
  isBusy = false,
  virtualizeAbove = 100,
  maxHeight = '70vh',
  scrollResetKey,
}: DataTableProps<T, K>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isVirtual = rows.length > virtualizeAbove;
  // The cards themselves come from CSS (no flash of a wide table); only the virtualizer needs to
  // know, since cards are taller than a line and vary in height.
  const isCards = useMediaQuery(CARD_LAYOUT_QUERY, undefined, { getInitialValueInEffect: false });
  const isSortableTable = onSortChange !== undefined && columns.some((c) => c.isSortable);
  // The compiler cannot memoize around the virtualizer's mutable instance; it re-renders on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (isCards ? CARD_PADDING + CARD_LINE_HEIGHT * columns.length : ROW_HEIGHT),
    overscan: OVERSCAN,
    enabled: isVirtual,
    observeElementRect: (instance, onChange) =>
      observeElementRect(instance, (rect) => {
        onChange(rect.height > 0 ? rect : FALLBACK_RECT);
      }),
  });

  // Sizes guessed for the other layout are wrong once the screen crosses the breakpoint.
  useEffect(() => {
    if (isVirtual) virtualizer.measure();
  }, [isCards, isVirtual, virtualizer]);

  // New rows (another page, a filter) start at the top, not at the old scroll offset.
  const resetKey = scrollResetKey === undefined ? rows : scrollResetKey;
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [resetKey]);

  // Stable while the rendered range is (TanStack memoizes it), so DataTableBody may skip.
  const items = isVirtual ? virtualizer.getVirtualItems() : undefined;
  const totalSize = isVirtual ? virtualizer.getTotalSize() : 0;

  return (
    <Box>
      <Box
        ref={scrollRef}
        className={classes.scroller}
        data-virtual={isVirtual || undefined}
        style={{ maxHeight, overflow: 'auto' }}
      >
        <Table
          className={classes.table}
          role="table"
          aria-label={label}
          aria-rowcount={rows.length + 1}
          aria-busy={isBusy}
          layout="fixed"
          stickyHeader
          highlightOnHover
          striped={false}
        >
          <Table.Thead role="rowgroup" data-sortable={isSortableTable || undefined}>
            <Table.Tr role="row" aria-rowindex={1}>
              {columns.map((column) => (
                <HeaderCell
                  key={column.key}
                  column={column}
                  sort={sort}
                  onSortChange={onSortChange}
                />
              ))}
            </Table.Tr>
          </Table.Thead>
          <DataTableBody
            rows={rows}
            items={items}
            totalSize={totalSize}
            columns={columns}
            rowKey={rowKey}
            measureElement={isVirtual && isCards ? virtualizer.measureElement : undefined}
          />
        </Table>
      </Box>
      {caption !== undefined && (
        <Box mt="xs" c="dimmed" fz="sm">
          {caption}
        </Box>
      )}
    </Box>
  );
}

type DataTableBodyProps<T, K extends string> = {
  rows: readonly T[];
  /** The rendered range when virtualized; undefined renders every row. */
  items: readonly VirtualItem[] | undefined;
  totalSize: number;
  columns: readonly DataTableColumn<T, K>[];
  rowKey: (row: T) => string;
  measureElement: ((element: Element | null) => void) | undefined;
};

/**
 * The rows, memoized: the table re-renders when only its busy state or the sort changes (a page
 * flip marks the old rows busy first), and then the rows need not; each row is memoized too
 * (DataRow), for when the rows do change.
 */
const DataTableBody = memo(function DataTableBody<T, K extends string>({
  rows,
  items,
  totalSize,
  columns,
  rowKey,
  measureElement,
}: DataTableBodyProps<T, K>) {
  const visible = items
    ? items.flatMap((item) => {
        const row = rows[item.index];
        return row === undefined ? [] : [{ row, index: item.index }];
      })
    : rows.map((row, index) => ({ row, index }));
  const paddingTop = items ? (items[0]?.start ?? 0) : 0;
  const paddingBottom = items ? totalSize - (items.at(-1)?.end ?? 0) : 0;
  return (
    <Table.Tbody role="rowgroup">
      {paddingTop > 0 && <SpacerRow height={paddingTop} columns={columns.length} />}
      {visible.map(({ row, index }) => (
        <DataRow
          key={rowKey(row)}
          row={row}
          index={index}
          columns={columns}
          measureRef={measureElement}
        />
      ))}
      {paddingBottom > 0 && <SpacerRow height={paddingBottom} columns={columns.length} />}
    </Table.Tbody>
  );
}) as <T, K extends string>(props: DataTableBodyProps<T, K>) => ReactNode;

type DataRowProps<T, K extends string> = {
  row: T;
  index: number;
  columns: readonly DataTableColumn<T, K>[];
  measureRef: ((element: Element | null) => void) | undefined;
};

/**
 * One row; rendered again only when its row, place or columns change, and its cells only when its
 * row or columns do. Scrolling a virtualized table re-renders the table every frame, and a
 * streamed list with every batch (a live list's new rows on top move every other row down one
 * place): the rows already on screen need not be rendered again for that, only those that come
 * into view.
 */
const DataRow = memo(function DataRow<T, K extends string>({
  row,
  index,
  columns,
  measureRef,
}: DataRowProps<T, K>) {
  return (
    // Native elements with Mantine's own table classes and the data attributes its Table.Tr/Td
    // would set (row border, hover): the same look, without a component and a style computation
    // per cell, which a page flip of 1000 rows cannot afford.
    <tr
      ref={measureRef}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      className={`${Table.classes.tr} ${classes.row}`}
      data-with-row-border
      data-hover
    >
      <RowCells row={row} columns={columns} />
    </tr>
  );
}) as <T, K extends string>(props: DataRowProps<T, K>) => ReactNode;

type RowCellsProps<T, K extends string> = {
  row: T;
  columns: readonly DataTableColumn<T, K>[];
};

const RowCells = memo(function RowCells<T, K extends string>({
  row,
  columns,
}: RowCellsProps<T, K>) {
  return columns.map((column, columnIndex) => (
    <td
      key={column.key}
      // jsx-a11y takes a td for a grid cell (interactive); in this table it is a cell, said
      // explicitly for the card layout's display:block.
      // eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role
      role="cell"
      className={`${Table.classes.td} ${classes.cell}`}
      data-label={column.header}
      data-card={cardPlacement(column, columnIndex)}
    >
      {column.cell(row)}
    </td>
  ));
}) as <T, K extends string>(props: RowCellsProps<T, K>) => ReactNode;

function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
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
      <Table.Th role="columnheader" style={style}>
        {column.header}
      </Table.Th>
    );
  }
  const direction = sort?.key === column.key ? sort.direction : undefined;
  const next: SortDirection = direction === 'ascending' ? 'descending' : 'ascending';
  return (
    <Table.Th role="columnheader" style={style} aria-sort={direction ?? 'none'} data-sortable>
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
    </Table.Th>
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

import { Box, Group, Table, UnstyledButton } from '@mantine/core';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { StrokeIcon } from '@/components/stroke-icon';

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
  /** Above this many rows only the visible ones are in the DOM; below, all are. */
  virtualizeAbove?: number;
  /** Height of the scrolling body; the header stays in view. */
  maxHeight?: CSSProperties['maxHeight'];
};

// One line per row at a fixed height, so the virtualizer never has to measure.
const ROW_HEIGHT = 40;
const OVERSCAN = 12;
// A scroll box with no layout yet (hidden, or jsdom in tests) measures 0 px high; it then still
// renders a screenful of rows instead of none.
const FALLBACK_RECT = { width: 0, height: 600 };
const cellStyle: CSSProperties = {
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  height: ROW_HEIGHT,
};

/**
 * A real `<table>` for long lists: sticky header, sortable header buttons with `aria-sort`, and
 * row virtualization (TanStack Virtual) above `virtualizeAbove` rows, with `aria-rowcount` and
 * `aria-rowindex` telling assistive technology where the rendered rows sit in the whole set.
 * Spacer rows above and below the rendered ones keep the scroll height and the table layout.
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
}: DataTableProps<T, K>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isVirtual = rows.length > virtualizeAbove;
  // The compiler cannot memoize around the virtualizer's mutable instance; it re-renders on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    enabled: isVirtual,
    observeElementRect: (instance, onChange) =>
      observeElementRect(instance, (rect) => {
        onChange(rect.height > 0 ? rect : FALLBACK_RECT);
      }),
  });

  // New rows (another page, a filter) start at the top, not at the old scroll offset.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [rows]);

  const items = isVirtual ? virtualizer.getVirtualItems() : [];
  const visible = isVirtual
    ? items.flatMap((item) => {
        const row = rows[item.index];
        return row === undefined ? [] : [{ row, index: item.index }];
      })
    : rows.map((row, index) => ({ row, index }));
  const paddingTop = isVirtual ? (items[0]?.start ?? 0) : 0;
  const paddingBottom = isVirtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;

  return (
    <Box>
      <Box ref={scrollRef} style={{ maxHeight, overflow: 'auto' }}>
        <Table
          aria-label={label}
          aria-rowcount={rows.length + 1}
          aria-busy={isBusy}
          layout="fixed"
          stickyHeader
          highlightOnHover
          striped={false}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
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
          <Table.Tbody>
            {paddingTop > 0 && <SpacerRow height={paddingTop} columns={columns.length} />}
            {visible.map(({ row, index }) => (
              // Native elements with Mantine's own table classes and the data attributes its
              // Table.Tr/Td would set (row border, hover): the same look, without a component
              // and a style computation per cell, which a page flip of 1000 rows cannot afford.
              <tr
                key={rowKey(row)}
                aria-rowindex={index + 2}
                className={Table.classes.tr}
                data-with-row-border
                data-hover
              >
                {columns.map((column) => (
                  <td key={column.key} className={Table.classes.td} style={cellStyle}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
            {paddingBottom > 0 && <SpacerRow height={paddingBottom} columns={columns.length} />}
          </Table.Tbody>
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
    return <Table.Th style={style}>{column.header}</Table.Th>;
  }
  const direction = sort?.key === column.key ? sort.direction : undefined;
  const next: SortDirection = direction === 'ascending' ? 'descending' : 'ascending';
  return (
    <Table.Th style={style} aria-sort={direction ?? 'none'}>
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

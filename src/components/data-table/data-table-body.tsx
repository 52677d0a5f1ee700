import { memo, type ReactNode } from 'react';
import type { DataTableColumn } from './data-table';
import classes from './data-table.module.css';
import { TABLE_CLASSES } from './table-classes';

/** A rendered row's place: its index and its top and bottom in the scroll box, in px. */
export type RowSpan = { index: number; start: number; end: number };

function cardPlacement<T, K extends string>(column: DataTableColumn<T, K>, index: number) {
  return column.cardPlacement ?? (index === 0 ? 'title' : 'line');
}

export type DataTableBodyProps<T, K extends string> = {
  rows: readonly T[];
  /** The rendered range when virtualized; undefined renders every row. */
  items: readonly RowSpan[] | undefined;
  totalSize: number;
  columns: readonly DataTableColumn<T, K>[];
  rowKey: (row: T) => string;
  /** Rows keyed by their index instead of `rowKey` (DataTable's `isKeyedByPlace`). */
  isKeyedByPlace: boolean;
  measureElement: ((element: Element | null) => void) | undefined;
};

/**
 * The rows, memoized: the table re-renders when only its busy state or the sort changes (a page
 * flip marks the old rows busy first), and then the rows need not; each row is memoized too
 * (DataRow), for when the rows do change.
 */
export const DataTableBody = memo(function DataTableBody<T, K extends string>({
  rows,
  items,
  totalSize,
  columns,
  rowKey,
  isKeyedByPlace,
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
    // Explicit for the card layout's display:block, which drops the implicit role in some browsers.
    // eslint-disable-next-line jsx-a11y/no-redundant-roles
    <tbody className={TABLE_CLASSES.tbody} role="rowgroup">
      {paddingTop > 0 && <SpacerRow height={paddingTop} columns={columns.length} />}
      {visible.map(({ row, index }) => (
        <DataRow
          key={isKeyedByPlace ? index : rowKey(row)}
          row={row}
          index={index}
          columns={columns}
          measureRef={measureElement}
        />
      ))}
      {paddingBottom > 0 && <SpacerRow height={paddingBottom} columns={columns.length} />}
    </tbody>
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
    // would set (hover): the same look, without a component and a style computation per cell,
    // which a page flip of 1000 rows cannot afford. The row border is ours (bodyRow).
    <tr
      ref={measureRef}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      className={`${TABLE_CLASSES.tr} ${classes.row} ${classes.bodyRow}`}
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
      className={`${TABLE_CLASSES.td} ${classes.cell}`}
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

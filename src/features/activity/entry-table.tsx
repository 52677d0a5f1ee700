import { Box, Button, Table, VisuallyHidden } from '@mantine/core';
import { Fragment, useId, useState, type CSSProperties, type ReactNode } from 'react';
import tableClasses from '@/components/data-table/data-table.module.css';

/** One column of an entry table: its header (also the cell's label when the row is a card). */
export type EntryColumn<E> = {
  header: string;
  cell: (entry: E) => ReactNode;
  /** The cell that titles the row's card on a phone. */
  isCardTitle?: boolean;
  style?: CSSProperties;
};

export type EntryTableProps<E> = {
  /** The table's accessible name. */
  label: string;
  entries: readonly E[];
  keyOf: (entry: E) => string;
  columns: readonly EntryColumn<E>[];
  /** What a row's Details button opens: read only when it is open. */
  details: (entry: E) => ReactNode;
};

function EntryRow<E>({
  entry,
  columns,
  details,
}: {
  entry: E;
  columns: readonly EntryColumn<E>[];
  details: (entry: E) => ReactNode;
}) {
  const [isOpen, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <Fragment>
      {/* Roles and data-label: on phones the row is a card (data-table.module.css). */}
      <Table.Tr role="row" className={tableClasses.row}>
        {columns.map((column) => (
          <Table.Td
            key={column.header}
            role="cell"
            data-label={column.header}
            {...(column.isCardTitle === true ? { 'data-card': 'title' } : {})}
            style={column.style}
          >
            {column.cell(entry)}
          </Table.Td>
        ))}
        <Table.Td role="cell" data-card="actions">
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={isOpen}
            aria-controls={detailsId}
            onClick={() => {
              setOpen((open) => !open);
            }}
          >
            {isOpen ? 'Hide details' : 'Details'}
          </Button>
        </Table.Td>
      </Table.Tr>
      {isOpen && (
        <Table.Tr role="row" id={detailsId} data-card-details>
          <Table.Td role="cell" colSpan={columns.length + 1}>
            {details(entry)}
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

/**
 * Entries newest first, a row each, each opening to its details below it. The activity of this
 * browser and the shared audit log show their entries the same way.
 */
export function EntryTable<E>({ label, entries, keyOf, columns, details }: EntryTableProps<E>) {
  return (
    <Box className={tableClasses.wideScroll}>
      <Table className={tableClasses.table} role="table" aria-label={label} verticalSpacing="xs">
        <Table.Thead role="rowgroup">
          <Table.Tr role="row">
            {columns.map((column) => (
              <Table.Th key={column.header} role="columnheader">
                {column.header}
              </Table.Th>
            ))}
            <Table.Th role="columnheader">
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody role="rowgroup">
          {entries.map((entry) => (
            <EntryRow key={keyOf(entry)} entry={entry} columns={columns} details={details} />
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

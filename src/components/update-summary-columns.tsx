import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { DataTableColumn } from '@/components/data-table/data-table';
import cellClasses from '@/components/data-table/data-table-cells.module.css';
import { RelativeTime } from '@/components/relative-time';
import type { UpdateSummary } from '@/lib/transaction-tree/update-summary';

/**
 * The columns the update lists share (the live stream, the transactions history): the one-line
 * summary, the offset, the record time and the link to the transaction, which only transactions
 * have. Each list picks, orders and sizes them (`{ ...columns.offset, width: '9%' }`).
 */
export function updateSummaryColumns(openTransaction: (updateId: string) => string) {
  const summary: DataTableColumn<UpdateSummary> = {
    key: 'summary',
    header: 'What happened',
    cell: (update) => (
      <span className={cellClasses.text} title={update.text}>
        {update.text}
      </span>
    ),
  };
  const offset: DataTableColumn<UpdateSummary> = {
    key: 'offset',
    header: 'Offset',
    cell: (update) => String(update.offset),
  };
  const recordTime: DataTableColumn<UpdateSummary> = {
    key: 'recordTime',
    header: 'Record time',
    cell: (update) => (update.recordTime ? <RelativeTime value={update.recordTime} /> : ''),
  };
  const open: DataTableColumn<UpdateSummary> = {
    key: 'open',
    header: 'Open',
    cardPlacement: 'actions',
    cell: (update) =>
      update.kind === 'transaction' ? (
        <Anchor
          component={Link}
          to={openTransaction(update.updateId)}
          size="sm"
          aria-label={`Open the transaction at offset ${String(update.offset)}`}
        >
          Open
        </Anchor>
      ) : (
        <span className={cellClasses.dimmed}>No graph</span>
      ),
  };
  return { summary, offset, recordTime, open };
}

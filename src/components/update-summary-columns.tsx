import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { DataTableColumn } from '@/components/data-table/data-table';
import cellClasses from '@/components/data-table/data-table-cells.module.css';
import { Identifier } from '@/components/identifier';
import { RelativeTime } from '@/components/relative-time';
import { revealControls } from '@/lib/text/display-text';
import { idHint, type UpdateSummary } from '@/lib/transaction-tree/update-summary';
import classes from './update-summary-columns.module.css';

/** Acting parties a cell names; the rest are counted and listed on hover. */
const MAX_PARTIES_NAMED = 2;

/**
 * The rows the update lists share (the live stream, the transactions history): what happened (the
 * templates and choices by short name, full ids on hover), who acted, a few key argument values,
 * the contracts (shortened, full id on hover, copy, link), the caller's command id, the offset,
 * the record time (as the user reads times) and the link to the update's page, which
 * transactions and topology transactions have. Every cell reads fields the summary computed once per update, and renders
 * plain elements: a live list redraws many times a second.
 */
export function updateSummaryColumns(
  openTransaction: (updateId: string) => string,
): DataTableColumn<UpdateSummary>[] {
  return [
    {
      key: 'summary',
      header: 'What happened',
      width: '24%',
      cell: (update) => (
        <span className={cellClasses.text} title={update.fullText}>
          {update.text}
        </span>
      ),
    },
    { key: 'acting', header: 'Acting parties', width: '10%', cell: actingPartiesCell },
    { key: 'keyValues', header: 'Key values', width: '16%', cell: keyValuesCell },
    { key: 'contract', header: 'Contract', width: '14%', cell: contractCell },
    { key: 'commandId', header: 'Command id', width: '11%', cell: commandIdCell },
    { key: 'offset', header: 'Offset', width: '7%', cell: (update) => String(update.offset) },
    {
      key: 'recordTime',
      header: 'Record time',
      width: '12%',
      cell: (update) => (update.recordTime ? <RelativeTime value={update.recordTime} /> : ''),
    },
    {
      key: 'open',
      header: 'Open',
      width: '6%',
      cardPlacement: 'actions',
      cell: (update) =>
        update.kind === 'reassignment' ? (
          // A dash fits the narrow column ("No graph" was cut to "No gr…"); the reason on hover.
          <span className={cellClasses.dimmed} title="Only transactions open as a graph">
            —
          </span>
        ) : (
          <Anchor
            component={Link}
            to={openTransaction(update.updateId)}
            size="sm"
            aria-label={`Open the ${update.kind === 'topology' ? 'topology transaction' : 'transaction'} at offset ${String(update.offset)}`}
          >
            Open
          </Anchor>
        ),
    },
  ];
}

const none = (text: string) => <span className={cellClasses.dimmed}>{text}</span>;

function actingPartiesCell(update: UpdateSummary) {
  const parties = update.actingParties;
  if (parties.length === 0) return none('—');
  const named = parties.slice(0, MAX_PARTIES_NAMED).map(idHint).join(', ');
  const more = parties.length - MAX_PARTIES_NAMED;
  return (
    <span className={cellClasses.text} title={parties.map(revealControls).join('\n')}>
      <bdi>{revealControls(named)}</bdi>
      {more > 0 ? ` +${String(more)}` : ''}
    </span>
  );
}

function keyValuesCell(update: UpdateSummary) {
  if (update.keyValuesText === '') return none('—');
  // Text, never markup: React escapes it; the values were flattened to one line when read.
  return (
    <span className={cellClasses.text} title={update.keyValuesText}>
      {update.keyValuesText}
    </span>
  );
}

function contractCell(update: UpdateSummary) {
  const [first, ...others] = update.contractIds;
  if (first === undefined) return none('—');
  const more = update.contractCount - 1;
  return (
    <span className={classes.contract}>
      <Identifier value={first} label="contract id" kind="contract" />
      {more > 0 && (
        <span
          className={cellClasses.dimmed}
          title={[...others, ...(more > others.length ? ['…'] : [])].join('\n')}
        >
          +{more}
        </span>
      )}
    </span>
  );
}

function commandIdCell(update: UpdateSummary) {
  // The participant tells the command id to its submitter only.
  if (!update.commandId) return none(update.kind === 'topology' ? '—' : 'Not yours');
  return (
    <span className={cellClasses.text} title={update.commandId}>
      <bdi>{revealControls(update.commandId)}</bdi>
    </span>
  );
}

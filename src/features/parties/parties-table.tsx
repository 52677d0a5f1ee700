import type { ReactNode } from 'react';
import type { PartyDetails } from '@/api/parties';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import classes from '@/components/data-table/data-table-cells.module.css';
import { Identifier } from '@/components/identifier';
import {
  annotationsSummary,
  partyIdentityProviderLabel,
  partyLocalityLabel,
} from './parties-filter';

export type PartiesTableProps = {
  parties: readonly PartyDetails[];
  caption?: ReactNode;
  isBusy?: boolean;
};

const columns: DataTableColumn<PartyDetails>[] = [
  {
    key: 'party',
    header: 'Party',
    width: '38%',
    // A name per row: "Copy party id" on every row would not tell them apart.
    cell: (party) => <Identifier value={party.party} label={`party ${party.party}`} kind="party" />,
  },
  {
    key: 'local',
    header: 'Local',
    width: '12%',
    cell: (party) => (
      <span className={classes.pill} data-muted={party.isLocal ? undefined : true}>
        {partyLocalityLabel(party)}
      </span>
    ),
  },
  {
    key: 'identityProviderId',
    header: 'IdP',
    width: '16%',
    cell: (party) => {
      const label = partyIdentityProviderLabel(party);
      return (
        <span className={party.isLocal ? classes.text : classes.dimmed} title={label}>
          {label}
        </span>
      );
    },
  },
  {
    key: 'annotations',
    header: 'Annotations',
    width: '34%',
    cell: (party) => {
      const summary = annotationsSummary(party);
      return summary ? (
        <span className={classes.text} title={summary}>
          {summary}
        </span>
      ) : (
        <span className={classes.dimmed}>none</span>
      );
    },
  },
];

/** Parties with their id (linked to the party page), locality, IdP and annotations. */
export function PartiesTable({ parties, caption, isBusy = false }: PartiesTableProps) {
  return (
    <DataTable
      label="Parties"
      caption={caption}
      columns={columns}
      rows={parties}
      rowKey={(party) => party.party}
      isBusy={isBusy}
    />
  );
}

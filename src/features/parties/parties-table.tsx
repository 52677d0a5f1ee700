import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { participantQueries } from '@/api/participant';
import type { PartyDetails } from '@/api/parties';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import classes from '@/components/data-table/data-table-cells.module.css';
import { Identifier } from '@/components/identifier';
import {
  annotationsSummary,
  isExternalParty,
  partyIdentityProviderLabel,
  partyLocalityLabel,
} from './parties-filter';

export type PartiesTableProps = {
  parties: readonly PartyDetails[];
  /** Parties hosted here in another IdP than the listed view's, with that IdP. */
  otherIdentityProviders?: ReadonlyMap<string, string>;
  caption?: ReactNode;
  isBusy?: boolean;
};

const NONE: ReadonlyMap<string, string> = new Map();

const columnsFor = (
  others: ReadonlyMap<string, string>,
  participantId: string | undefined,
): DataTableColumn<PartyDetails>[] => [
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
      <>
        <span className={classes.pill} data-muted={party.isLocal ? undefined : true}>
          {partyLocalityLabel(party, others.get(party.party))}
        </span>
        {isExternalParty(party, participantId) && (
          <>
            {' '}
            <span className={classes.pill} title="Its key is held outside this participant">
              External
            </span>
          </>
        )}
      </>
    ),
  },
  {
    key: 'identityProviderId',
    header: 'IdP',
    width: '16%',
    cell: (party) => {
      const other = others.get(party.party);
      const label = partyIdentityProviderLabel(party, other);
      return (
        <span
          className={party.isLocal || other !== undefined ? classes.text : classes.dimmed}
          title={label}
        >
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
export function PartiesTable({
  parties,
  otherIdentityProviders = NONE,
  caption,
  isBusy = false,
}: PartiesTableProps) {
  // Without the participant's id (still loading, or failed), no party is called external.
  const { data: participantId } = useQuery(participantQueries.participantId());
  const columns = useMemo(
    () => columnsFor(otherIdentityProviders, participantId),
    [otherIdentityProviders, participantId],
  );
  return (
    <DataTable
      label="Parties"
      caption={caption}
      columns={columns}
      rows={parties}
      rowKey={(party) => party.party}
      isKeyedByPlace
      isBusy={isBusy}
    />
  );
}

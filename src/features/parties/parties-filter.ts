import type { PartyDetails } from '@/api/parties';

/** How the console names a party's IdP; `''` is the default IdP, or unknown for a party not local. */
export function partyIdentityProviderLabel(party: PartyDetails): string {
  if (!party.isLocal) return '—';
  const id = party.identityProviderId ?? '';
  return id === '' ? 'default' : id;
}

export function partyLocalityLabel(party: PartyDetails): 'Local' | 'Not local' {
  return party.isLocal ? 'Local' : 'Not local';
}

/** `key=value` pairs in key order, as the list shows them. */
export function annotationsSummary(party: PartyDetails): string {
  return Object.entries(party.localMetadata?.annotations ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

function searchText(party: PartyDetails): string {
  return [
    party.party,
    partyLocalityLabel(party),
    partyIdentityProviderLabel(party),
    ...Object.entries(party.localMetadata?.annotations ?? {}).flat(),
  ]
    .join('\n')
    .toLowerCase();
}

export type PartiesFilter = {
  /** Matched, ignoring case, against the id, locality, IdP and annotation keys and values. */
  text: string;
  isLocalOnly: boolean;
};

/** The loaded parties that match the filter, in their order. */
export function filterParties(
  parties: readonly PartyDetails[],
  { text, isLocalOnly }: PartiesFilter,
): readonly PartyDetails[] {
  const needle = text.trim().toLowerCase();
  if (needle === '' && !isLocalOnly) return parties;
  return parties.filter(
    (party) =>
      (!isLocalOnly || party.isLocal === true) &&
      (needle === '' || searchText(party).includes(needle)),
  );
}

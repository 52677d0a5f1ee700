import { splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import type { PartyDetails } from '@/api/parties';

/**
 * Whether a party hosted here is external: its namespace (the key that owns it) is not this
 * participant's. The participant reports it `isLocal` like any party it hosts (PartyDetails has no
 * key field), so the id is what tells: a local party is `<hint>::<participant namespace>`, an
 * external one `<hint>::<its key's fingerprint>`. Parties hosted elsewhere are not judged: their
 * namespace is another participant's or their own, and this list cannot tell which.
 */
export function isExternalParty(party: PartyDetails, participantId: string | undefined): boolean {
  if (party.isLocal !== true || participantId === undefined) return false;
  const own = splitUniqueIdentifier(participantId)?.namespace;
  const namespace = splitUniqueIdentifier(party.party)?.namespace;
  return own !== undefined && namespace !== undefined && namespace !== own;
}

/**
 * How the console names a party's IdP; `''` is the default IdP. A party not local to the IdP
 * whose view is listed has none, unless the console found it local to another IdP
 * (`otherIdentityProviderId`, which only a participant admin can find out).
 */
export function partyIdentityProviderLabel(
  party: PartyDetails,
  otherIdentityProviderId?: string,
): string {
  const id = party.isLocal ? (party.identityProviderId ?? '') : otherIdentityProviderId;
  if (id === undefined) return '—';
  return id === '' ? 'default' : id;
}

/**
 * A party hosted here but of another identity provider is blinded to "not local" in this IdP's
 * view (§4.7); when the console knows its IdP, it says so instead of "Not local".
 */
export function partyLocalityLabel(
  party: PartyDetails,
  otherIdentityProviderId?: string,
): 'Local' | 'Other identity provider' | 'Not local' {
  if (party.isLocal) return 'Local';
  return otherIdentityProviderId === undefined ? 'Not local' : 'Other identity provider';
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

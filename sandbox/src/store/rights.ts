export const PARTY_RIGHT_KINDS = ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const;
export const PLAIN_RIGHT_KINDS = [
  'ParticipantAdmin',
  'IdentityProviderAdmin',
  'CanActAsAnyParty',
  'CanReadAsAnyParty',
  'CanExecuteAsAnyParty',
] as const;

export type PartyRightKind = (typeof PARTY_RIGHT_KINDS)[number];
export type PlainRightKind = (typeof PLAIN_RIGHT_KINDS)[number];
export type RightKind = PartyRightKind | PlainRightKind;

/** A right as stored: `party` is '' for the kinds that name no party. */
export type RightRecord = { kind: RightKind; party: string };

export type WireRight = { kind: Record<string, { value: { party?: string } }> };

export function isPartyRightKind(kind: string): kind is PartyRightKind {
  return (PARTY_RIGHT_KINDS as readonly string[]).includes(kind);
}

export function isRightKind(kind: string): kind is RightKind {
  return isPartyRightKind(kind) || (PLAIN_RIGHT_KINDS as readonly string[]).includes(kind);
}

export function toWireRight({ kind, party }: RightRecord): WireRight {
  return { kind: { [kind]: { value: isPartyRightKind(kind) ? { party } : {} } } };
}

export const rightKey = ({ kind, party }: RightRecord) => `${kind}\u0000${party}`;

/** Rights that only a participant admin may grant, revoke or create a user with (§4.6). */
export const ADMIN_ONLY_RIGHT_KINDS: readonly RightKind[] = [
  'ParticipantAdmin',
  'CanActAsAnyParty',
  'CanReadAsAnyParty',
  'CanExecuteAsAnyParty',
];

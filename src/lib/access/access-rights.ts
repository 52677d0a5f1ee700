/**
 * What the signed-in caller may do in the console, derived from its user rights the way the
 * participant authorizes requests (ledger-api-behaviour.md §4.4–4.6). Pure, so every rule is
 * unit-tested; the UI only hides what the participant would refuse anyway.
 */

/** Right kinds by their wire names (the keys of `Right.kind`). */
export const RIGHT_KINDS = [
  'CanActAs',
  'CanReadAs',
  'CanExecuteAs',
  'CanActAsAnyParty',
  'CanReadAsAnyParty',
  'CanExecuteAsAnyParty',
  'ParticipantAdmin',
  'IdentityProviderAdmin',
] as const;

export type RightKind = (typeof RIGHT_KINDS)[number];

export const PARTY_RIGHT_KINDS = ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const;
export type PartyRightKind = (typeof PARTY_RIGHT_KINDS)[number];

/** Only a participant admin may grant or revoke these (§4.6). */
export const ADMIN_ONLY_RIGHT_KINDS: readonly RightKind[] = [
  'ParticipantAdmin',
  'CanActAsAnyParty',
  'CanReadAsAnyParty',
  'CanExecuteAsAnyParty',
];

/** A right in the console's own shape: flat, comparable, and easy to render. */
export type UserRight =
  { kind: PartyRightKind; party: string } | { kind: Exclude<RightKind, PartyRightKind> };

export function isPartyRightKind(kind: RightKind): kind is PartyRightKind {
  return (PARTY_RIGHT_KINDS as readonly string[]).includes(kind);
}

/** A stable key for a right, for lists, sets and diffing. */
export function rightKey(right: UserRight): string {
  return 'party' in right ? `${right.kind}:${right.party}` : right.kind;
}

/** The signed-in caller, as far as the console can tell. */
export type Caller =
  /** No user behind the token (no auth on the participant, or a privileged token): try everything. */
  | { kind: 'unidentified' }
  | { kind: 'user'; userId: string; identityProviderId: string; rights: readonly UserRight[] };

export type Access = {
  /** ParticipantAdmin (or a caller the console cannot identify, whom the participant judges). */
  isParticipantAdmin: boolean;
  /** The IdP whose users the caller administers, when it is an IdP admin and not a participant admin. */
  administeredIdentityProviderId: string | undefined;
  canManageUsers: boolean;
  canManageIdentityProviders: boolean;
  /** Whether the caller may grant a right of this kind. */
  canGrant: (kind: RightKind) => boolean;
  /** The caller's own user id, when known. */
  userId: string | undefined;
  /** Whether it may read command completions: its own (for parties it reads), or anyone's. */
  canReadCompletions: boolean;
};

export function accessOf(caller: Caller): Access {
  if (caller.kind === 'unidentified') {
    return {
      isParticipantAdmin: true,
      administeredIdentityProviderId: undefined,
      canManageUsers: true,
      canManageIdentityProviders: true,
      canGrant: () => true,
      userId: undefined,
      canReadCompletions: true,
    };
  }
  const kinds = new Set(caller.rights.map((right) => right.kind));
  const isParticipantAdmin = kinds.has('ParticipantAdmin');
  const isIdpAdmin = !isParticipantAdmin && kinds.has('IdentityProviderAdmin');
  return {
    isParticipantAdmin,
    administeredIdentityProviderId: isIdpAdmin ? caller.identityProviderId : undefined,
    canManageUsers: isParticipantAdmin || isIdpAdmin,
    canManageIdentityProviders: isParticipantAdmin,
    canGrant: (kind) =>
      isParticipantAdmin || (isIdpAdmin && !ADMIN_ONLY_RIGHT_KINDS.includes(kind)),
    userId: caller.userId,
    canReadCompletions: ['CanReadAs', 'CanActAs', 'CanReadAsAnyParty', 'CanActAsAnyParty'].some(
      (kind) => kinds.has(kind as RightKind),
    ),
  };
}

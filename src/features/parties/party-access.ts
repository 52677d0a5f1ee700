/**
 * Who may act, read and execute as one party, computed from users' rights the way the participant
 * turns rights into claims (ledger-api-behaviour.md §4.4): CanActAs(p) gives act, read and execute
 * as p; CanReadAs(p) read; CanExecuteAs(p) execute; CanActAsAnyParty everything for every party;
 * CanReadAsAnyParty read and CanExecuteAsAnyParty execute for every party. ParticipantAdmin and
 * IdentityProviderAdmin give none of these: such users are listed apart, as able to grant
 * themselves the rights they lack. Pure, so each rule is unit-tested.
 */
import type { RightKind, UserRight } from '@/lib/access/access-rights';

export const PARTY_CAPABILITIES = ['act', 'read', 'execute'] as const;
export type PartyCapability = (typeof PARTY_CAPABILITIES)[number];

/** The rights that give each capability, strongest first. */
export const RIGHTS_GRANTING: Readonly<Record<PartyCapability, readonly RightKind[]>> = {
  act: ['CanActAs', 'CanActAsAnyParty'],
  read: ['CanActAs', 'CanReadAs', 'CanActAsAnyParty', 'CanReadAsAnyParty'],
  execute: ['CanActAs', 'CanExecuteAs', 'CanActAsAnyParty', 'CanExecuteAsAnyParty'],
};

export type UserWithRights = {
  userId: string;
  /** `''` is the default IdP. */
  identityProviderId: string;
  isDeactivated: boolean;
  rights: readonly UserRight[];
};

/** One user who holds a capability for the party, with the rights that give each one. */
export type PartyAccessRow = {
  userId: string;
  identityProviderId: string;
  isDeactivated: boolean;
  /** Per capability, every right of the user that gives it; empty when the user lacks it. */
  grantedBy: Readonly<Record<PartyCapability, readonly RightKind[]>>;
};

/** An administrator who lacks some capability for the party but may grant it to itself. */
export type PartyAdministratorRow = {
  userId: string;
  identityProviderId: string;
  isDeactivated: boolean;
  /** The right that lets it grant the party's rights to itself. */
  via: 'ParticipantAdmin' | 'IdentityProviderAdmin';
  /** The capabilities it does not hold now and could grant itself. */
  couldGain: readonly PartyCapability[];
};

export type PartyAccess = {
  /** Users holding at least one capability, in the order given. */
  holders: PartyAccessRow[];
  administrators: PartyAdministratorRow[];
};

/** Which rights of `rights` give `capability` for `party`. */
export function rightsGranting(
  rights: readonly UserRight[],
  party: string,
  capability: PartyCapability,
): RightKind[] {
  const kinds = RIGHTS_GRANTING[capability];
  const found = new Set(
    rights
      .filter(
        (right) => kinds.includes(right.kind) && (!('party' in right) || right.party === party),
      )
      .map((right) => right.kind),
  );
  return kinds.filter((kind) => found.has(kind));
}

/**
 * Who can act, read and execute as `party`, and which administrators could grant that to
 * themselves. `partyIdentityProviderId` is the IdP the party belongs to (`''` for the default IdP,
 * or for a party hosted elsewhere): an IdentityProviderAdmin can grant rights only on parties of
 * its own IdP (§4.7).
 */
export function partyAccess(
  party: string,
  partyIdentityProviderId: string,
  users: readonly UserWithRights[],
): PartyAccess {
  const holders: PartyAccessRow[] = [];
  const administrators: PartyAdministratorRow[] = [];
  for (const user of users) {
    const grantedBy = {
      act: rightsGranting(user.rights, party, 'act'),
      read: rightsGranting(user.rights, party, 'read'),
      execute: rightsGranting(user.rights, party, 'execute'),
    };
    const base = {
      userId: user.userId,
      identityProviderId: user.identityProviderId,
      isDeactivated: user.isDeactivated,
    };
    if (PARTY_CAPABILITIES.some((capability) => grantedBy[capability].length > 0)) {
      holders.push({ ...base, grantedBy });
    }
    const couldGain = PARTY_CAPABILITIES.filter((capability) => grantedBy[capability].length === 0);
    if (couldGain.length === 0) continue;
    const kinds = new Set(user.rights.map((right) => right.kind));
    if (kinds.has('ParticipantAdmin')) {
      administrators.push({ ...base, via: 'ParticipantAdmin', couldGain });
    } else if (
      kinds.has('IdentityProviderAdmin') &&
      user.identityProviderId === partyIdentityProviderId
    ) {
      administrators.push({ ...base, via: 'IdentityProviderAdmin', couldGain });
    }
  }
  return { holders, administrators };
}

/**
 * What a failed admin change or a failing access check means in the user's terms, and the actions
 * that fix it when the caller may take them (issue 16 item 3): a user of another identity
 * provider (say which, open it, move it here, or use that provider), a user that does not exist
 * (create it), a deactivated user (reactivate it), a missing read right (grant it). Pure: the
 * screens render the sentence and turn each fix into a button or a link.
 */
import { ApiError, isMaskedRefusal } from './api-error';

/** One action that fixes the failure. */
export type AdminFix =
  /** Opens the user's page in the identity provider it belongs to. */
  | { kind: 'openUser'; userId: string; identityProviderId: string }
  /** Opens the create-user form prefilled with this id and identity provider. */
  | { kind: 'createUser'; userId: string; identityProviderId: string }
  /** Moves the user into `to` (participant admins only). */
  | { kind: 'moveUser'; userId: string; from: string; to: string }
  /** Sets the form's identity provider to this one and keeps everything else. */
  | { kind: 'useIdentityProvider'; identityProviderId: string }
  /** Clears the user's "Deactivated". */
  | { kind: 'reactivateUser'; userId: string; identityProviderId: string }
  /** Grants the user a right for a party. */
  | {
      kind: 'grantRight';
      right: 'CanActAs' | 'CanReadAs';
      party: string;
      userId: string;
      identityProviderId: string;
    };

export type AdminFailure = {
  /** One or two sentences: what went wrong, in the console's words. */
  cause: string;
  fixes: AdminFix[];
};

/** Where a user was found when the console looked for it in every identity provider. */
export type UserWhereabouts =
  | { identityProviderId: string; isDeactivated: boolean }
  /** In no identity provider of this participant. */
  | null;

export type AdminCaller = {
  isParticipantAdmin: boolean;
  /** The IdP an IdP admin administers; undefined for a participant admin. */
  administeredIdentityProviderId: string | undefined;
};

/** The change that failed, and what the console knows about the user it concerns. */
export type AdminChange = {
  action: 'createUser' | 'allocateParty';
  /** The user the change is about; '' when none (an allocation for nobody). */
  userId: string;
  /** The identity provider the request names (`''` = default). */
  identityProviderId: string;
  /** Undefined while not looked up (or the caller may not look). */
  whereabouts?: UserWhereabouts;
};

/**
 * Whether looking for the change's user in every identity provider may explain `error`: a create
 * refused with the redacted 403 (the id may be taken elsewhere), or an allocation whose user was
 * not found (it may be of another IdP). Only then is the lookup worth its requests.
 */
export function mayBeUserElsewhere(
  error: unknown,
  change: Pick<AdminChange, 'action' | 'userId'>,
): boolean {
  if (change.userId === '') return false;
  return change.action === 'createUser'
    ? isMaskedRefusal(error)
    : error instanceof ApiError && error.code === 'USER_NOT_FOUND';
}

export const identityProviderName = (id: string) =>
  id === '' ? 'the default identity provider' : `identity provider ${id}`;

/**
 * The failure of a create-user or allocate-party request in plain words, with its fixes; undefined
 * when the console has nothing better to say than the server's own message.
 */
export function adminFailure(
  error: unknown,
  change: AdminChange,
  caller: AdminCaller,
): AdminFailure | undefined {
  if (!(error instanceof ApiError) || change.userId === '') return undefined;
  const { userId, identityProviderId: here, whereabouts } = change;
  const isForeign =
    whereabouts !== undefined && whereabouts !== null && whereabouts.identityProviderId !== here;

  if (change.action === 'createUser') {
    // A user id is unique across the participant: the same id in another IdP is refused with a
    // redacted 403 (ledger-api-behaviour.md §2.3).
    if (!isMaskedRefusal(error) || !isForeign) return undefined;
    const there = whereabouts.identityProviderId;
    return {
      cause: `A user “${userId}” already exists in ${identityProviderName(there)}. User ids are unique on a participant, so it cannot also be created in ${identityProviderName(here)}.`,
      fixes: [
        { kind: 'openUser', userId, identityProviderId: there },
        ...(caller.isParticipantAdmin
          ? [{ kind: 'moveUser' as const, userId, from: there, to: here }]
          : []),
      ],
    };
  }

  // allocateParty: the user to grant Act as must be of the party's IdP; the participant answers
  // USER_NOT_FOUND for a user of another IdP as for one that does not exist (§5.1).
  if (error.code !== 'USER_NOT_FOUND') return undefined;
  if (isForeign) {
    const there = whereabouts.identityProviderId;
    const mayUseThere =
      caller.isParticipantAdmin || caller.administeredIdentityProviderId === there;
    return {
      cause: `User “${userId}” belongs to ${identityProviderName(there)}, not to ${identityProviderName(here)}: a party can be granted only to a user of its own identity provider.`,
      fixes: [
        ...(mayUseThere
          ? [{ kind: 'useIdentityProvider' as const, identityProviderId: there }]
          : []),
        { kind: 'openUser', userId, identityProviderId: there },
      ],
    };
  }
  return {
    cause: `There is no user “${userId}” in ${identityProviderName(here)}. Create it first, or choose an existing user.`,
    fixes: [{ kind: 'createUser', userId, identityProviderId: here }],
  };
}

export type AccessFacts = {
  userId: string;
  identityProviderId: string;
  isDeactivated: boolean;
  primaryParty: string;
  /** The user's party rights and any-party read/act rights; undefined when they could not be read. */
  rights:
    | readonly (
        { kind: 'CanActAs' | 'CanReadAs' | 'CanExecuteAs'; party: string } | { kind: string }
      )[]
    | undefined;
};

export type AccessCaller = {
  /** The caller may change this user (deactivate, reactivate). */
  canManageUser: boolean;
  /** The caller may grant CanReadAs to this user. */
  canGrantReadAs: boolean;
  /** The caller is the user itself: it cannot reactivate itself. */
  isSelf: boolean;
};

/**
 * The fixes an access check offers: reactivate a deactivated user, and grant Read as its primary
 * party when it may not see that party's data.
 */
export function accessFixes(facts: AccessFacts, caller: AccessCaller): AdminFix[] {
  const fixes: AdminFix[] = [];
  const ref = { userId: facts.userId, identityProviderId: facts.identityProviderId };
  if (facts.isDeactivated && caller.canManageUser && !caller.isSelf) {
    fixes.push({ kind: 'reactivateUser', ...ref });
  }
  if (facts.primaryParty !== '' && facts.rights !== undefined && caller.canGrantReadAs) {
    const seesPrimary = facts.rights.some(
      (right) =>
        right.kind === 'CanActAsAnyParty' ||
        right.kind === 'CanReadAsAnyParty' ||
        ((right.kind === 'CanActAs' || right.kind === 'CanReadAs') &&
          'party' in right &&
          right.party === facts.primaryParty),
    );
    if (!seesPrimary) {
      fixes.push({ kind: 'grantRight', right: 'CanReadAs', party: facts.primaryParty, ...ref });
    }
  }
  return fixes;
}

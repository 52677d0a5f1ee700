import type { RightRecord } from '../store/rights';

/** What a request may do, as the participant's authorizer sees it (ledger-api-behaviour.md §4). */
export type Claims = {
  /** Set only when the claims were resolved from a user token. */
  userId?: string;
  /** The IdP the caller authenticated through; '' is the default IdP. */
  identityProviderId: string;
  admin: boolean;
  idpAdmin: boolean;
  actAs: ReadonlySet<string>;
  readAs: ReadonlySet<string>;
  executeAs: ReadonlySet<string>;
  actAsAnyParty: boolean;
  readAsAnyParty: boolean;
  executeAsAnyParty: boolean;
};

/**
 * With no auth service configured every request gets these, token or not: Public + Admin +
 * ActAsAnyParty and no user (`Claims.Wildcard`, §4.2).
 */
export const WILDCARD_CLAIMS: Claims = {
  identityProviderId: '',
  admin: true,
  idpAdmin: false,
  actAs: new Set(),
  readAs: new Set(),
  executeAs: new Set(),
  actAsAnyParty: true,
  readAsAnyParty: true,
  executeAsAnyParty: true,
};

export function claimsFromRights(
  userId: string,
  identityProviderId: string,
  rights: RightRecord[],
): Claims {
  const parties = (kind: RightRecord['kind']) =>
    new Set(rights.filter((right) => right.kind === kind).map((right) => right.party));
  const has = (kind: RightRecord['kind']) => rights.some((right) => right.kind === kind);
  return {
    userId,
    identityProviderId,
    admin: has('ParticipantAdmin'),
    idpAdmin: has('IdentityProviderAdmin'),
    actAs: parties('CanActAs'),
    readAs: parties('CanReadAs'),
    executeAs: parties('CanExecuteAs'),
    actAsAnyParty: has('CanActAsAnyParty'),
    readAsAnyParty: has('CanReadAsAnyParty'),
    executeAsAnyParty: has('CanExecuteAsAnyParty'),
  };
}

// Implications between claims (AUTH/Claims.scala): acting implies reading and executing;
// ActAsAnyParty implies everything party-related; Admin implies no party rights.
export const canActAs = (claims: Claims, party: string) =>
  claims.actAsAnyParty || claims.actAs.has(party);

export const canReadAs = (claims: Claims, party: string) =>
  claims.actAsAnyParty ||
  claims.readAsAnyParty ||
  claims.actAs.has(party) ||
  claims.readAs.has(party);

export const canExecuteAs = (claims: Claims, party: string) =>
  claims.actAsAnyParty ||
  claims.executeAsAnyParty ||
  claims.actAs.has(party) ||
  claims.executeAs.has(party);

import { SandboxError, permissionDenied, unauthenticated } from '../errors/sandbox-error';
import { canActAs, canExecuteAs, canReadAs, type Claims } from './claims';

/** `undefined` claims mean the request carried no token that any auth service accepted. */
export type Caller = Claims | undefined;

/** Any authenticated caller ("Public" in the reference's table, §4.6). */
export function requireAuthenticated(caller: Caller): Claims {
  if (!caller) throw unauthenticated();
  return caller;
}

export function requireAdmin(caller: Caller): Claims {
  const claims = requireAuthenticated(caller);
  if (!claims.admin)
    throw permissionDenied('Claims do not authorize the use of administrative services.');
  return claims;
}

/**
 * The IdP an admin request really concerns (AUTH/Authorizer.scala, §4.5): a non-admin naming
 * no IdP gets its own; a caller from a non-default IdP may not name another one.
 */
export function effectiveIdp(claims: Claims, requestIdp: string): string {
  if (requestIdp === '' && !claims.admin) return claims.identityProviderId;
  if (claims.identityProviderId !== '' && requestIdp !== claims.identityProviderId) {
    throw permissionDenied(
      `identity_provider_id from the request \`${requestIdp}\` does not match the one provided in the authorization claims`,
    );
  }
  return requestIdp;
}

/** ParticipantAdmin, or IdentityProviderAdmin of the IdP the request concerns. */
export function requireAdminOrIdpAdmin(
  caller: Caller,
  requestIdp: string,
): { claims: Claims; idp: string } {
  const claims = requireAuthenticated(caller);
  const idp = effectiveIdp(claims, requestIdp);
  if (claims.admin) return { claims, idp };
  if (claims.idpAdmin && idp === claims.identityProviderId) return { claims, idp };
  throw permissionDenied('Claims do not authorize the use of identity provider admin services.');
}

/** The user itself, or an admin of its IdP. */
export function requireSelfOrAdmin(
  caller: Caller,
  userId: string,
  requestIdp: string,
): { claims: Claims; idp: string } {
  const claims = requireAuthenticated(caller);
  if (
    claims.userId !== undefined &&
    claims.userId === userId &&
    !claims.admin &&
    !claims.idpAdmin
  ) {
    return { claims, idp: effectiveIdp(claims, requestIdp) };
  }
  return requireAdminOrIdpAdmin(caller, requestIdp);
}

export function requirePartyAccess(claims: Claims, parties: string[]) {
  const allowed = parties.every(
    (party) => canActAs(claims, party) || canReadAs(claims, party) || canExecuteAs(claims, party),
  );
  if (!allowed) throw permissionDenied('Claims do not authorize to read the requested parties.');
}

const MISSING_USER_ID =
  'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?';

/**
 * Authorizer.defaultUserId: an empty userId is the token's user; without a user token (e.g.
 * wildcard auth) it is INVALID_TOKEN, raised while authorizing, before field validation (§4.2).
 */
export function defaultUserId(claims: Claims, requested: string): string {
  if (requested !== '') return requested;
  if (claims.userId === undefined) throw new SandboxError('INVALID_TOKEN', MISSING_USER_ID);
  return claims.userId;
}

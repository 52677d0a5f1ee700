import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { SandboxError, permissionDenied } from '../errors/sandbox-error';
import type { IdpsStore } from '../store/idps-store';
import type { UsersStore } from '../store/users-store';
import { isValidUserId, userIdRegexMessage } from '../validation/identifiers';
import type { Caller } from './authorizer';
import { WILDCARD_CLAIMS, claimsFromRights } from './claims';
import { SANDBOX_MINT_KEY_ID, type MintVerificationKey } from './token-minter';
import { PARTICIPANT_AUDIENCE_PREFIX, hmacKey } from './user-token';

/**
 * `none`: wildcard claims for everyone; `jwt`: user tokens, HS256 with a shared secret or RS256
 * from an IdP; `oidc`: user tokens from the embedded OpenID provider, verified only through the
 * issuers' JWKS as Canton does (no shared secret).
 */
export type AuthMode = 'none' | 'jwt' | 'oidc';

/**
 * A configured auth service besides the IdP-aware one, like Canton's `jwt-jwks` (§4.2): RS256
 * tokens verified with the keys at `jwksUrl`; with a target audience, `aud` must contain it.
 * Its tokens belong to the default IdP.
 */
export type JwksAuthService = { kind: 'jwt-jwks'; jwksUrl: string; targetAudience?: string };

export type AuthenticatorOptions = {
  mode: AuthMode;
  /** Shared secret of the `unsafe-jwt-hmac-256` service; HS256 tokens are refused without one. */
  jwtSecret?: string;
  participantId: string;
  users: UsersStore;
  idps: IdpsStore;
  /** The sandbox's own key for tokens it minted for IdP users (token-minter.ts). */
  mintedTokenKey?: () => MintVerificationKey | undefined;
  /** Configured services, tried in order before the IdP-aware one; read on every token. */
  services?: () => readonly JwksAuthService[];
};

const WS_TOKEN_PREFIX = 'jwt.token.';

/**
 * The bearer token of a request: `Authorization: Bearer …` wins; otherwise the first element of
 * `Sec-WebSocket-Protocol` that starts with `jwt.token.` (split on ',' without trimming, §4.1).
 */
export function readToken(headers: Headers): string | undefined {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    return authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
  }
  const protocols = headers.get('sec-websocket-protocol');
  if (protocols === null) return undefined;
  const element = protocols.split(',').find((part) => part.startsWith(WS_TOKEN_PREFIX));
  return element?.slice(WS_TOKEN_PREFIX.length);
}

type Identity = { userId: string; identityProviderId: string };

/**
 * Turns a request's token into claims the way a participant's auth services do (§4.2–4.4):
 * `undefined` when no service accepts the token (most endpoints then answer 401); a
 * SandboxError when claim resolution itself fails (unknown or deactivated user: 403).
 */
export function createAuthenticator(options: AuthenticatorOptions) {
  const secret = options.jwtSecret ? hmacKey(options.jwtSecret) : undefined;
  const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  const jwksFor = (url: string) => {
    let jwks = jwksByUrl.get(url);
    if (!jwks) {
      jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 1000 });
      jwksByUrl.set(url, jwks);
    }
    return jwks;
  };

  /** Standard Daml JWT payload: scope-based or audience-based (§4.3). */
  const identityFromPayload = (
    payload: JWTPayload,
    identityProviderId: string,
  ): Identity | undefined => {
    const audiences =
      payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const scopes =
      typeof payload.scope === 'string'
        ? payload.scope.split(' ')
        : Array.isArray(payload.scp)
          ? (payload.scp as unknown[]).map(String)
          : [];
    const participantAudiences = audiences.filter((aud) =>
      aud.startsWith(PARTICIPANT_AUDIENCE_PREFIX),
    );
    let participantId: string | undefined;
    if (participantAudiences.length === 1) {
      participantId = participantAudiences[0]?.slice(PARTICIPANT_AUDIENCE_PREFIX.length);
      if (!participantId) return undefined;
    } else if (scopes.includes('daml_ledger_api')) {
      if (audiences.length > 1) return undefined;
      participantId = identityProviderId === '' ? audiences[0] : undefined;
    } else {
      return undefined;
    }
    if (
      participantId !== undefined &&
      participantId !== '' &&
      participantId !== options.participantId
    ) {
      throw permissionDenied(
        `The token's participant id ${participantId} does not match this participant`,
      );
    }
    if (typeof payload.sub !== 'string') return undefined;
    return { userId: payload.sub, identityProviderId };
  };

  const verify = async (token: string): Promise<Identity | undefined> => {
    let algorithm: string | undefined;
    let keyId: string | undefined;
    try {
      ({ alg: algorithm, kid: keyId } = decodeProtectedHeader(token));
    } catch {
      return undefined;
    }
    // The shared-secret service comes first; the IdP-aware service is always appended (§4.2).
    if (secret && algorithm === 'HS256') {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        return identityFromPayload(payload, '');
      } catch (error) {
        if (error instanceof SandboxError) throw error;
        return undefined;
      }
    }
    for (const service of options.services?.() ?? []) {
      if (algorithm !== 'RS256') break;
      try {
        const { payload } = await jwtVerify(token, jwksFor(service.jwksUrl), {
          algorithms: ['RS256'],
          ...(service.targetAudience === undefined ? {} : { audience: service.targetAudience }),
        });
        const identity = identityFromPayload(payload, '');
        if (identity) return identity;
      } catch (error) {
        if (error instanceof SandboxError) throw error;
        // Not this service's token: the next one decides, as Canton's chain of services does.
      }
    }
    let issuer: string | undefined;
    try {
      const [, body] = token.split('.');
      issuer = (JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as JWTPayload)
        .iss;
    } catch {
      return undefined;
    }
    if (issuer === undefined) return undefined;
    const idp = options.idps.byIssuer(issuer);
    if (!idp || idp.isDeactivated) return undefined;
    const mintedKey = keyId === SANDBOX_MINT_KEY_ID ? options.mintedTokenKey?.() : undefined;
    try {
      const verificationKey = mintedKey ?? jwksFor(idp.jwksUrl);
      const { payload } = await jwtVerify(token, verificationKey, {
        algorithms: ['RS256'],
        issuer: idp.issuer,
        ...(idp.audience ? { audience: idp.audience } : {}),
      });
      if (typeof payload.sub !== 'string') return undefined;
      return { userId: payload.sub, identityProviderId: idp.identityProviderId };
    } catch {
      return undefined;
    }
  };

  return async function authenticate(headers: Headers): Promise<Caller> {
    if (options.mode === 'none') return WILDCARD_CLAIMS;
    const token = readToken(headers);
    if (token === undefined) return undefined;
    const identity = await verify(token);
    if (!identity) return undefined;
    // UserBasedClaimResolver: the user is loaded from the IdP of the token.
    if (!isValidUserId(identity.userId)) {
      throw new SandboxError(
        'INVALID_TOKEN',
        `The submitted request is missing a user-id: token ${userIdRegexMessage(identity.userId)}`,
      );
    }
    const user = options.users.get(identity.userId);
    if (user?.identityProviderId !== identity.identityProviderId) {
      throw permissionDenied(
        `Could not resolve is_deactivated status for user ${identity.userId}`,
        {
          tokenProblem: true,
        },
      );
    }
    if (user.isDeactivated) {
      throw permissionDenied(`User ${identity.userId} is deactivated`, { tokenProblem: true });
    }
    return claimsFromRights(user.id, user.identityProviderId, options.users.rights(user.id));
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;

/** What the console shows about a bearer token before (and after) the participant accepts it. */
export type TokenClaims = {
  subject?: string;
  issuer?: string;
  audiences: string[];
  scopes: string[];
  /** Seconds since the epoch, as in the `exp` claim. */
  expiresAt?: number;
  issuedAt?: number;
};

export type DecodedToken =
  { kind: 'jwt'; claims: TokenClaims } | { kind: 'invalid'; reason: string };

/**
 * Reads a JWT's claims without verifying it: only the participant can verify, and the user should
 * see what they pasted even when it will be refused.
 */
export function decodeToken(token: string): DecodedToken {
  const parts = token.trim().split('.');
  if (parts.length !== 3) {
    return { kind: 'invalid', reason: 'A JSON Web Token has three parts separated by dots' };
  }
  let payload: unknown;
  try {
    payload = decodeJwtSegment(parts[1] ?? '');
  } catch {
    return { kind: 'invalid', reason: 'The token payload is not base64url-encoded JSON' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { kind: 'invalid', reason: 'The token payload is not a JSON object' };
  }
  return { kind: 'jwt', claims: claimsOf(payload as Record<string, unknown>) };
}

/**
 * One base64url segment of a JWT parsed as JSON, unverified; throws when it is not base64url or
 * not JSON. The token doctor reads the header with it too.
 */
export function decodeJwtSegment(segment: string): unknown {
  return JSON.parse(base64UrlDecode(segment));
}

/** The claims a participant reads, from a JWT payload already parsed. */
export function claimsOf(payload: Record<string, unknown>): TokenClaims {
  const { aud, scope, scp, sub, iss, exp, iat } = payload;
  const claims: TokenClaims = {
    audiences: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.map(String) : [],
    scopes:
      typeof scope === 'string'
        ? scope.split(' ').filter(Boolean)
        : Array.isArray(scp)
          ? scp.map(String)
          : [],
  };
  if (typeof sub === 'string') claims.subject = sub;
  if (typeof iss === 'string') claims.issuer = iss;
  if (typeof exp === 'number') claims.expiresAt = exp;
  if (typeof iat === 'number') claims.issuedAt = iat;
  return claims;
}

/** True when the token carries an expiry that has passed at `now` (milliseconds). */
export function isExpired(claims: TokenClaims, now: number = Date.now()): boolean {
  return claims.expiresAt !== undefined && claims.expiresAt * 1000 <= now;
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

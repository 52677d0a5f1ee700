import { createHash } from 'node:crypto';
import { isRecord, participantGet } from '../participant-caller';

/**
 * Who made a proxied call, for its audit entry (ADR 020). The token's `iss` and `sub` are read,
 * not verified: the participant verifies, and the entry keeps them only once it accepted the
 * token. The participant's user and that user's IdP come from the participant itself
 * (`GET /v2/authenticated-user` with the same token), cached per token until it expires.
 */

/** Tokens remembered at once; a console serves a team, not a crowd. */
const MAX_CACHED_TOKENS = 1000;
/** A token without `exp` (or with a far one) is asked about again after this long. */
const MAX_CACHE_MS = 60 * 60 * 1000;
/** Time allowed for asking the participant who a token stands for. */
export const LOOKUP_TIMEOUT_MS = 2000;
const MAX_CLAIM_CHARS = 1024;

export type TokenClaims = { issuer: string | null; subject: string | null; expiresAtMs?: number };

/** The bearer token of an Authorization header, if it has one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** `iss`, `sub` and `exp` of a JWT, read without verifying; nulls for anything that is no JWT. */
export function decodeClaims(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (payload === undefined || token.length > 64 * 1024) return { issuer: null, subject: null };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { issuer: null, subject: null };
  }
  if (!isRecord(claims)) return { issuer: null, subject: null };
  const claim = (value: unknown) =>
    typeof value === 'string' ? value.slice(0, MAX_CLAIM_CHARS) : null;
  return {
    issuer: claim(claims.iss),
    subject: claim(claims.sub),
    ...(typeof claims.exp === 'number' ? { expiresAtMs: claims.exp * 1000 } : {}),
  };
}

export type ParticipantUser = { userId: string; identityProviderId: string };

/** Remembers, per token (by its hash), which participant user it stands for. */
export class TokenUsers {
  private readonly cache = new Map<
    string,
    { user: Promise<ParticipantUser | null>; until: number }
  >();

  constructor(
    private readonly ledgerUrl: URL,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The participant's user for `token`, or null when the participant names none (a privileged
   * token, no auth at all, a refused token) or cannot be asked. Never throws.
   */
  userOf(token: string, claims: TokenClaims): Promise<ParticipantUser | null> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.user;
    this.cache.delete(key);
    const user = this.ask(token, key);
    const until = Math.min(claims.expiresAtMs ?? Infinity, now + MAX_CACHE_MS);
    // Oldest first out: Map keeps insertion order.
    while (this.cache.size >= MAX_CACHED_TOKENS) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    this.cache.set(key, { user, until });
    return user;
  }

  get size(): number {
    return this.cache.size;
  }

  private ask(token: string, key: string): Promise<ParticipantUser | null> {
    return participantGet(
      this.ledgerUrl,
      '/v2/authenticated-user',
      `Bearer ${token}`,
      LOOKUP_TIMEOUT_MS,
    ).then(
      ({ status, body }) => {
        const user = body?.user;
        if (status !== 200 || !isRecord(user) || typeof user.id !== 'string') return null;
        return {
          userId: user.id,
          identityProviderId:
            typeof user.identityProviderId === 'string' ? user.identityProviderId : '',
        };
      },
      () => {
        // An unreachable participant is no answer: ask again next time.
        this.cache.delete(key);
        return null;
      },
    );
  }
}

/**
 * The participant's id for the entries (`GET /v2/parties/participant-id`, public to any accepted
 * token), asked once it is known to answer; the ledger's URL until then.
 */
export class ParticipantName {
  private known: string | undefined;
  private asking: Promise<void> | undefined;

  constructor(private readonly ledgerUrl: URL) {}

  /** What to record now; learns the id in the background with `authorization` when unknown. */
  current(authorization: string | undefined): Promise<string> {
    if (this.known !== undefined) return Promise.resolve(this.known);
    this.asking ??= participantGet(
      this.ledgerUrl,
      '/v2/parties/participant-id',
      authorization,
      LOOKUP_TIMEOUT_MS,
    )
      .then(({ status, body }) => {
        if (status === 200 && typeof body?.participantId === 'string') {
          this.known = body.participantId.slice(0, MAX_CLAIM_CHARS);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking.then(() => this.known ?? this.ledgerUrl.href.replace(/\/$/, ''));
  }
}

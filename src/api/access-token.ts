import { decodeToken } from '@/lib/access/token-claims';
import { pageStorageParticipant } from './participant-scope';

/** The default participant's token (and a single-participant console's). */
const DEFAULT_TOKEN_KEY = 'ledger-console.access-token';
/** The OpenID provider (its configured id) that issued the token, when one did. */
const DEFAULT_PROVIDER_KEY = 'ledger-console.sign-in-provider';
/** Another fleet participant's: `<prefix><name>/access-token` and `…/sign-in-provider`. */
const PARTICIPANT_KEY_PREFIX = 'ledger-console.participant/';
/** Every key the console keeps in session storage starts with this. */
const SESSION_DATA_PREFIX = 'ledger-console.';
/** Data kept per identity (see identityScopedKey): `<prefix><identity>/<name>/<scope>`, encoded. */
const IDENTITY_DATA_PREFIX = 'ledger-console.identity/';
/** Who calls without a token: a participant without auth. It never signs out. */
const ANONYMOUS = 'anonymous';

export type WriteAccessTokenOptions = {
  /**
   * Keep the token in local storage, so it outlives the browser session. Off by default: a bearer
   * token should not outlive the session unless the user asks for it.
   */
  remember?: boolean;
  /**
   * The configured OpenID provider that issued the token (its id in the sign-in configuration):
   * the console renews it there and ends the session there on sign-out.
   */
  providerId?: string;
};

/**
 * Where a participant's sign-in is kept: the default participant's (`undefined`) under the keys a
 * single-participant console always used, any other fleet participant's under keys of its own, so
 * signing in on one never signs in (or out) on another.
 */
function signInKeys(participant: string | undefined): { token: string; provider: string } {
  if (participant === undefined)
    return { token: DEFAULT_TOKEN_KEY, provider: DEFAULT_PROVIDER_KEY };
  const prefix = `${PARTICIPANT_KEY_PREFIX}${participant}/`;
  return { token: `${prefix}access-token`, provider: `${prefix}sign-in-provider` };
}

function isSignInKey(key: string): boolean {
  return (
    key === DEFAULT_TOKEN_KEY ||
    key === DEFAULT_PROVIDER_KEY ||
    (key.startsWith(PARTICIPANT_KEY_PREFIX) &&
      (key.endsWith('/access-token') || key.endsWith('/sign-in-provider')))
  );
}

/** The bearer token sent with every API call, or undefined when none is set. */
export function readAccessToken(): string | undefined {
  return readParticipantAccessToken(pageStorageParticipant());
}

/**
 * The token stored for a participant of the fleet (`undefined`: the default participant), for
 * pages that read other participants than their own (the fleet overview).
 */
export function readParticipantAccessToken(participant: string | undefined): string | undefined {
  const key = signInKeys(participant).token;
  for (const storage of storages()) {
    const token = storage.getItem(key)?.trim();
    if (token) return token;
  }
  return undefined;
}

/** Whether the current token was stored to be remembered beyond this browser session. */
export function isAccessTokenRemembered(): boolean {
  const key = signInKeys(pageStorageParticipant()).token;
  return Boolean(storage('localStorage')?.getItem(key)?.trim());
}

/**
 * Stores the token (session storage unless `remember`); an empty or missing token signs out. A
 * token of the same identity (a renewal) keeps what the console kept for it, drafts included.
 */
export function writeAccessToken(
  token: string | undefined,
  { remember = false, providerId }: WriteAccessTokenOptions = {},
): void {
  const trimmed = token?.trim();
  const keys = signInKeys(pageStorageParticipant());
  const previous = identityOf(readAccessToken());
  const isSameIdentity =
    trimmed !== undefined && trimmed !== '' && previous === identityOf(trimmed);
  // One token at a time: writing a new one, or none, clears both places.
  for (const storage of storages()) {
    storage.removeItem(keys.token);
    storage.removeItem(keys.provider);
  }
  // Anyone else signing in, or signing out, ends the previous identity's stay in this browser.
  if (!isSameIdentity) {
    forgetSessionData();
    if (previous !== ANONYMOUS) forgetIdentityData(previous);
  }
  if (trimmed) {
    const target = storage(remember ? 'localStorage' : 'sessionStorage');
    target?.setItem(keys.token, trimmed);
    if (providerId !== undefined) target?.setItem(keys.provider, providerId);
  }
  for (const listener of listeners) listener();
}

const listeners = new Set<() => void>();

/**
 * Calls `listener` after every write of the token (a sign-in, a renewal, a sign-out), for what
 * shows the token (its remaining lifetime); returns the unsubscribe.
 */
export function subscribeAccessToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The id of the OpenID provider that issued the current token, if it came from one. */
export function readSignInProviderId(): string | undefined {
  const keys = signInKeys(pageStorageParticipant());
  for (const storage of storages()) {
    if (storage.getItem(keys.token)?.trim()) return storage.getItem(keys.provider) ?? undefined;
  }
  return undefined;
}

/**
 * The storage key of `name` kept for the current identity within `scope` (e.g. a participant id).
 * The identity is the token's issuer and subject (for a Canton user token: its IdP and user id),
 * a digest of a token without a subject, or `anonymous` without a token.
 */
export function identityScopedKey(name: string, scope: string): string {
  const identity = identityOf(readAccessToken());
  return `${IDENTITY_DATA_PREFIX}${encodeURIComponent(identity)}/${name}/${encodeURIComponent(scope)}`;
}

/**
 * Where data of the current identity is kept: as long as its token is. A sign-in not remembered
 * keeps its data for the browser session only, as its token, so closing the browser forgets both;
 * a remembered one keeps it in local storage until that identity signs out or another signs in
 * (the user asked this browser to keep the sign-in, and the data is only shown to it). Without a
 * token (no auth) there is no sign-out, so local storage.
 */
export function identityDataStorage(): Storage | undefined {
  if (readAccessToken() === undefined || isAccessTokenRemembered()) return storage('localStorage');
  return storage('sessionStorage');
}

function identityOf(token: string | undefined): string {
  if (!token) return ANONYMOUS;
  const decoded = decodeToken(token);
  if (decoded.kind === 'jwt' && decoded.claims.subject !== undefined) {
    return `jwt:${JSON.stringify([decoded.claims.issuer ?? '', decoded.claims.subject])}`;
  }
  // Never the token itself: keys are readable by anything on the page.
  return `token:${fnv1a(token)}`;
}

/** FNV-1a, 32 bits: tells tokens apart for a storage key; not for security. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function forgetIdentityData(identity: string): void {
  const prefix = `${IDENTITY_DATA_PREFIX}${encodeURIComponent(identity)}/`;
  for (const storage of storages()) {
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
    for (const key of keys) if (key?.startsWith(prefix)) storage.removeItem(key);
  }
}

/**
 * What the console kept for this browser session (a composer draft, …) belonged to the identity
 * that signed out or was replaced: it holds that identity's parties and arguments.
 */
function forgetSessionData(): void {
  const session = storage('sessionStorage');
  if (!session) return;
  const keys = Array.from({ length: session.length }, (_, index) => session.key(index));
  for (const key of keys) {
    // Every participant's sign-in stays: each is signed in and out on its own.
    if (key?.startsWith(SESSION_DATA_PREFIX) && !isSignInKey(key)) {
      session.removeItem(key);
    }
  }
}

function storages(): Storage[] {
  return [storage('sessionStorage'), storage('localStorage')].filter(
    (s): s is Storage => s !== undefined,
  );
}

function storage(name: 'sessionStorage' | 'localStorage'): Storage | undefined {
  // Absent outside browsers, and throws in some privacy modes; either way there is no token.
  try {
    const found: Storage | undefined = globalThis[name];
    return found;
  } catch {
    return undefined;
  }
}

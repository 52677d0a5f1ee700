/**
 * The console server's own endpoints, as it serves them and the SPA reads them. Browser-safe (no
 * Node modules): the SPA imports this module, and only this one, of the edge package.
 */

/** Answered by the console server itself: never proxied, never the SPA's index.html. */
export const CONSOLE_PATH_PREFIX = '/__console';

/**
 * `GET`: the participants this console addresses, as a {@link ConsoleParticipants} (ADR 022).
 * Always present, with one entry when the console has a single participant. Answered at the
 * unprefixed path only: it describes the console, not one participant.
 */
export const PARTICIPANTS_PATH = '/__console/participants';

/** Participant NAME's API (`/v2`, `/livez`, `/readyz`, `/__console/…`) lives below `/participants/NAME`. */
export const PARTICIPANT_API_PREFIX = '/participants';

/** Participant NAME's SPA pages live below `/p/NAME`; unprefixed pages are the default participant's. */
export const PARTICIPANT_PAGE_PREFIX = '/p';

/** A participant's name in the console: lower case, digits, `_` and `-`, at most 63 characters. */
export const PARTICIPANT_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export type ConsoleParticipant = {
  /** Matches {@link PARTICIPANT_NAME_PATTERN}. */
  name: string;
  /** `/participants/NAME`: prefix of this participant's API paths and console endpoints. */
  apiPath: string;
  /** `/p/NAME`: prefix of this participant's SPA pages. */
  pagePath: string;
  /** The first participant: also served at the unprefixed API paths and pages. */
  default: boolean;
};

export type ConsoleParticipants = { participants: ConsoleParticipant[] };

/** `GET`: the sign-in page's OpenID Connect providers, `{ providers: ServedSignInProvider[] }`. */
export const SIGN_IN_PROVIDERS_PATH = '/__console/sign-in-providers';

/** `GET ?issuer=<url>`, participant admins only: an {@link OidcDiscoveryResult}. */
export const OIDC_DISCOVERY_PATH = '/__console/oidc-discovery';

/**
 * `POST`: the caller's active contracts counted by the console server (ADR 021), as an
 * {@link ActiveContractCounts}. The body is an {@link ActiveContractCountsRequest}: the request the
 * SPA would send to the `/v2/state/active-contracts` websocket, which the server opens with the
 * caller's own token (as the page would: the participant's auth rules apply unchanged) and reads
 * to the end, up to `limit` contracts ({@link MAX_ACTIVE_CONTRACT_COUNT}) and a time bound. Bad
 * bodies answer 400 `LEDGER_CONSOLE_INVALID_COUNT_REQUEST`; the participant's own refusal (handshake
 * or stream error) is relayed with its status. Absent (404) where the console is served another
 * way: the SPA then reads the stream itself.
 */
export const ACTIVE_CONTRACT_COUNTS_PATH = '/__console/active-contract-counts';

/** The most contracts one count reads; more answers `isComplete: false` ("at least"). */
export const MAX_ACTIVE_CONTRACT_COUNT = 100_000;
/** At most this many distinct stakeholders are collected. */
export const MAX_COUNTED_STAKEHOLDERS = 50;

export type ActiveContractCountsRequest = {
  activeAtOffset: number;
  /** The Ledger API's `EventFormat`, passed to the participant as it is. */
  eventFormat: Record<string, unknown>;
  /** Count only templates of this package id (a participant may match others by package name). */
  packageId?: string;
  /** 1 to {@link MAX_ACTIVE_CONTRACT_COUNT}, the default. */
  limit?: number;
};

export type ActiveContractCounts = {
  /** Contracts counted (of `packageId` when given). */
  total: number;
  /** Per full template id (`<package id>:<module>:<entity>`). */
  byTemplateId: Record<string, number>;
  /** False when counting stopped at the limit. */
  isComplete: boolean;
  /** Signatories and observers of the counted contracts, at most {@link MAX_COUNTED_STAKEHOLDERS}, sorted. */
  stakeholders: string[];
};

/** One sign-in provider as the SPA gets it: `oidc` is oidc-client-ts's UserManager settings as they are. */
export type ServedSignInProvider = {
  /** Stable key: the SPA names its stored session and callback state after it. */
  id: string;
  name: string;
  /** The Canton IdP its users belong to: '' for the participant's default IdP. */
  identityProviderId: string;
  oidc: {
    authority: string;
    client_id: string;
    scope: string;
    extraQueryParams: Record<string, string>;
  };
};

export type DiscoveredKey = { kid?: string; kty?: string; alg?: string; use?: string };

export type DiscoveryCheck = { name: string; status: 'ok' | 'warning'; detail: string };

/** An issuer's discovery document and the JWKS it names, summed up and checked by the server. */
export type OidcDiscoveryResult = {
  issuer: string;
  jwksUrl: string;
  jwks: { keys: DiscoveredKey[] };
  checks: DiscoveryCheck[];
};

/**
 * `GET`: the shared audit log the console server keeps of every state-changing call it proxied
 * (ADR 020), newest first, as an {@link AuditPage}. Scoped as the Ledger API is: the server asks
 * the participant who the caller is (`/v2/authenticated-user` and that user's rights) with the
 * caller's own token, then a participant admin sees every entry, an IdP admin the entries of
 * actors in its identity provider, any other user only their own — of that participant: at
 * `/participants/NAME/__console/audit` the caller is identified by NAME and sees NAME's entries
 * (the default participant's at the unprefixed path, with entries from before names existed). Query parameters, all optional:
 * `pageSize` (1–500, default 100), `pageToken` (from a previous page), `from` / `to` (ISO 8601,
 * inclusive / exclusive), `actor` (user id or token subject, exact), `action` (an
 * {@link AuditAction}), `outcome` (`ok`: status 200–399; `failed`: any other, 0 included), `text`
 * (a substring of the path, resource or summary, case-insensitive, taken as typed), each at most 256
 * characters. Bad or unknown parameters answer 400 `LEDGER_CONSOLE_INVALID_AUDIT_QUERY` with a
 * JsCantonError body, like the Ledger API; a token the participant refuses gets the participant's
 * own 401 answer, a store that cannot be read 503 `LEDGER_CONSOLE_AUDIT_LOG_UNAVAILABLE`. A page
 * token only marks a position: send the same filters with it.
 */
export const AUDIT_LOG_PATH = '/__console/audit';

/** What a state-changing call did, from its method and path; `other` when the server can't tell. */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'user.rights.grant',
  'user.rights.revoke',
  'user.idp.move',
  'party.allocate',
  'party.update',
  'party.external.allocate',
  'idp.create',
  'idp.update',
  'idp.delete',
  'dar.upload',
  'package.vetting',
  'command.submit',
  'command.prepare',
  'command.execute',
  'command.reassign',
  'other',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made the call: only what the participant vouched for by accepting the token. */
export type AuditActor = {
  /** `iss` and `sub` of the bearer token, once the participant accepted it; null otherwise. */
  issuer: string | null;
  subject: string | null;
  /** The participant's user the token stands for, and that user's identity provider ('' = default). */
  userId: string | null;
  identityProviderId: string | null;
  /** False when no token came or the participant refused it (401): then only the call is known. */
  authenticated: boolean;
};

export type AuditEntry = {
  /** Increasing within one store; opaque to readers. */
  id: string;
  /** ISO 8601: when the participant's answer came. */
  at: string;
  /** The participant the call went to: its participant id when known, else the ledger's URL. */
  participant: string;
  /**
   * The console's name for that participant ({@link ConsoleParticipant.name}); null for entries
   * recorded before consoles named their participants. The server always sends it.
   */
  participantName?: string | null;
  actor: AuditActor;
  action: AuditAction;
  method: string;
  /** The path without its query, bounded. */
  path: string;
  /** The main resource the call named (user id, party, IdP id, package id…), when there is one. */
  resource: string | null;
  /**
   * A short (≤ 1000 characters), redacted summary of the request body: never a token, key,
   * signature or payload blob (those show as `"<redacted, N chars>"`); a DAR as
   * `DAR of 1.2 MiB, sha256 0123456789abcdef…`; '' for no body. Plain text, never markup.
   */
  summary: string;
  /**
   * The participant's HTTP status; 0 when no answer came: unreachable, timed out, the body refused
   * by the console as too large, or the client gone before the participant answered.
   */
  status: number;
  /**
   * The error's code (`JsCantonError.code`) when the call failed; with status 0 the console's own
   * (`LEDGER_UNREACHABLE`, `LEDGER_CONNECT_TIMEOUT`, `LEDGER_RESPONSE_TIMEOUT`,
   * `REQUEST_ENTITY_TOO_LARGE`, `CLIENT_CLOSED_REQUEST`); null when the answer had none.
   */
  errorCode: string | null;
  durationMs: number;
};

export type AuditScope = 'all' | 'identity-provider' | 'own';

export type AuditPage = {
  entries: AuditEntry[];
  /** '' on the last page. */
  nextPageToken: string;
  /** Which entries this caller may see, and of which identity provider for `identity-provider`. */
  scope: AuditScope;
  identityProviderId: string | null;
  /** Where the log is kept, for the page's footer: `memory`, `file` or `remote` (no URL, no secret). */
  store: 'memory' | 'file' | 'remote';
  /** How long entries are kept and how many at most; null when unbounded by that measure. */
  retention: { days: number | null; maxEntries: number | null };
};

/**
 * A websocket subprotocol the SPA offers beside the participant's (`daml.ws.auth`, its token
 * first) on the Ledger API's streams (ADR 034). The console server does not pass it on; it answers
 * with it when it will batch the participant's messages for this page: then each text frame it
 * sends is a {@link splitStreamBatch stream batch} of one or more of the participant's text
 * messages, in order, untouched; binary frames and control frames pass as they came. Any other
 * answer (the participant's own `daml.ws.auth`, behind another proxy or the dev server) means
 * plain frames, one message each. Chromium spends ~70 µs on each websocket message before a
 * handler runs, so 100,000 contracts cost seconds in frames alone.
 */
export const STREAM_BATCH_PROTOCOL = 'ledger-console.stream-batch.1';

/** The most decimal digits of one message's length in a stream batch (lengths below 10⁹). */
const MAX_LENGTH_DIGITS = 9;

/**
 * A stream batch as its messages. A batch is a sequence of `<length>:<message>`, the length in
 * decimal digits counting the message's UTF-16 code units (a JavaScript string's length), so any
 * text, separators included, can be carried; undefined when the frame is not one (a digit missing,
 * a length running past the end).
 */
export function splitStreamBatch(frame: string): string[] | undefined {
  const messages: string[] = [];
  let at = 0;
  while (at < frame.length) {
    let length = 0;
    let digits = 0;
    let code = frame.charCodeAt(at);
    while (code >= 48 && code <= 57) {
      if (++digits > MAX_LENGTH_DIGITS) return undefined;
      length = length * 10 + (code - 48);
      code = frame.charCodeAt(at + digits);
    }
    // 58 is ':'.
    if (digits === 0 || code !== 58) return undefined;
    const start = at + digits + 1;
    const end = start + length;
    if (end > frame.length) return undefined;
    messages.push(frame.slice(start, end));
    at = end;
  }
  return messages;
}

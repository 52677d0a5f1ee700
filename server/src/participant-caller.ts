import type { ServerResponse } from 'node:http';
import type { JsCantonErrorBody } from '@ledger-console/edge/error-body';

/**
 * Who the caller of one of the console's own endpoints is, as the participant itself says with
 * the caller's own token: the console decides nothing from a token's claims (oidc-discovery.ts,
 * the audit log's scope).
 */

/** Time allowed per call to the participant when asking who the caller is. */
export const PARTICIPANT_TIMEOUT_MS = 10_000;

export type ParticipantAnswer = {
  status: number;
  body: Record<string, unknown> | undefined;
  /** The answer as it came, for relaying a refusal unchanged. */
  text: string;
};

/** `GET <ledger><path>`; throws only when the participant could not be reached or timed out. */
export async function participantGet(
  ledgerUrl: URL,
  path: string,
  authorization: string | undefined,
  timeoutMs = PARTICIPANT_TIMEOUT_MS,
): Promise<ParticipantAnswer> {
  const url = new URL(`${ledgerUrl.href.replace(/\/$/, '')}${path}`);
  const response = await fetch(url, {
    headers: {
      Accept: 'application/json',
      ...(authorization === undefined ? {} : { Authorization: authorization }),
    },
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body: isRecord(body) ? body : undefined, text };
}

export type Caller =
  /** The participant refused the token (or its absence): its own 401 answer. */
  | { kind: 'refused'; answer: ParticipantAnswer }
  /** `anonymous`: the participant has no auth, so every caller is a participant admin. */
  | { kind: 'participant-admin'; userId: string | null; anonymous: boolean }
  | { kind: 'identity-provider-admin'; userId: string; identityProviderId: string }
  | { kind: 'user'; userId: string; identityProviderId: string }
  /** The participant accepted the token but did not say who it stands for. */
  | { kind: 'unknown'; reason: string };

/**
 * Asks the participant who `authorization` stands for. "The participant has no auth, so everybody
 * is admin" is decided from a request *without* a token succeeding at an admin-only endpoint,
 * which no caller can bring about on a participant with auth. Never from `400 INVALID_TOKEN` on
 * authenticated-user: wildcard auth answers that (ledger-api-behaviour.md §2.9), but so does a
 * participant with auth for a correctly signed token whose `sub` is no valid user id (§4.3),
 * which any delegated identity provider can issue. Throws when the participant is unreachable.
 */
export async function identifyCaller(
  ledgerUrl: URL,
  authorization: string | undefined,
): Promise<Caller> {
  // `/v2/idps` needs ParticipantAdmin (§4.6): a 200 without a token means anonymous callers are.
  const anonymous = await participantGet(ledgerUrl, '/v2/idps', undefined);
  if (anonymous.status === 200) return { kind: 'participant-admin', userId: null, anonymous: true };
  const who =
    authorization === undefined
      ? anonymous
      : await participantGet(ledgerUrl, '/v2/authenticated-user', authorization);
  if (who.status === 401) return { kind: 'refused', answer: who };
  const user = who.body?.user;
  const userId = isRecord(user) && typeof user.id === 'string' ? user.id : undefined;
  if (who.status !== 200 || userId === undefined || !isRecord(user)) {
    const code = typeof who.body?.code === 'string' ? ` ${who.body.code}` : '';
    return {
      kind: 'unknown',
      reason: `the participant answered ${String(who.status)}${code} for the caller`,
    };
  }
  const identityProviderId =
    typeof user.identityProviderId === 'string' ? user.identityProviderId : '';
  const rights = await participantGet(
    ledgerUrl,
    `/v2/users/${encodeURIComponent(userId)}/rights`,
    authorization,
  );
  const list = rights.body?.rights;
  if (rights.status !== 200 || !Array.isArray(list)) {
    return {
      kind: 'unknown',
      reason: `the participant answered ${String(rights.status)} for the rights of user ${userId}`,
    };
  }
  const has = (kind: string) =>
    list.some((right) => isRecord(right) && isRecord(right.kind) && kind in right.kind);
  if (has('ParticipantAdmin')) return { kind: 'participant-admin', userId, anonymous: false };
  if (has('IdentityProviderAdmin')) {
    return { kind: 'identity-provider-admin', userId, identityProviderId };
  }
  return { kind: 'user', userId, identityProviderId };
}

export type ConsoleErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 502 | 503 | 504;

/** A refusal or failure of one of the console's own endpoints, answered as {@link consoleErrorBody}. */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: ConsoleErrorStatus,
    readonly code: string,
    cause: string,
    readonly context: Record<string, string> = {},
  ) {
    super(cause);
  }
}

/** An error of the console's own endpoints, in the participant's error shape (error-body.ts). */
export function consoleErrorBody(
  status: ConsoleErrorStatus,
  code: string,
  cause: string,
  context: Record<string, string> = {},
): JsCantonErrorBody {
  // The categories of the participant's own errors, so the SPA's error model reads them alike.
  const category = {
    400: { errorCategory: 8, grpcCodeValue: 3 },
    401: { errorCategory: 6, grpcCodeValue: 16 },
    403: { errorCategory: 7, grpcCodeValue: 7 },
    // InvalidGivenCurrentSystemStateResourceMissing / NOT_FOUND.
    404: { errorCategory: 11, grpcCodeValue: 5 },
    405: { errorCategory: 8, grpcCodeValue: 12 },
    413: { errorCategory: 8, grpcCodeValue: 8 },
    502: { errorCategory: 1, grpcCodeValue: 14 },
    503: { errorCategory: 1, grpcCodeValue: 14 },
    504: { errorCategory: 1, grpcCodeValue: 4 },
  }[status];
  return {
    code,
    cause,
    correlationId: null,
    traceId: null,
    context,
    resources: [],
    ...category,
    retryInfo: null,
    definiteAnswer: null,
  };
}

/** A JSON answer nobody may cache: it depends on the caller and on the moment. */
export function sendJsonNoStore(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

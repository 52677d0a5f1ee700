import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type {
  DiscoveredKey,
  DiscoveryCheck,
  OidcDiscoveryResult,
} from '@ledger-console/edge/console-api';
import type { JsCantonErrorBody } from '@ledger-console/edge/error-body';
import {
  consoleErrorBody,
  identifyCaller,
  isRecord,
  sendJsonNoStore,
  type Caller,
  type ConsoleErrorStatus,
} from './participant-caller';

/**
 * `GET /__console/oidc-discovery?issuer=<url>` (issue 15, item 5): a participant admin creating an
 * IdP configuration gets the issuer's discovery document and the keys it names, read here because
 * browsers meet CORS at most providers. Never an open proxy: exactly two documents are fetched,
 * the issuer's `/.well-known/openid-configuration` and the `jwks_uri` it names, with GET and no
 * credentials, over https (http only to loopback), without following redirects, within a size and
 * a time limit, and only for a caller the participant itself confirms as participant admin.
 * The path and the answer's type are the SPA's too (@ledger-console/edge/console-api).
 */

/** Largest discovery document or JWKS read; real ones are a few KiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 256 * 1024;
/** Time allowed per document, connecting and reading together. */
export const DEFAULT_DOCUMENT_TIMEOUT_MS = 5_000;
const MAX_ISSUER_LENGTH = 2048;
const MAX_KEYS = 100;
const MAX_KEY_FIELD = 255;
/** Algorithms a Canton IdP configuration's JWKS can verify tokens with. */
const CANTON_ALGS = new Set(['RS256', 'ES256', 'ES512']);

export type OidcDiscoveryOptions = {
  /** The participant, as the proxy reaches it: the caller's token is checked there. */
  ledgerUrl: URL;
  maxDocumentBytes?: number;
  documentTimeoutMs?: number;
};

type ErrorStatus = Exclude<ConsoleErrorStatus, 503>;

/** A refusal or failure, answered in the API's error shape like the request guard's refusals. */
class DiscoveryError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    cause: string,
    readonly context: Record<string, string> = {},
  ) {
    super(cause);
  }
}

export function discoveryErrorBody(error: DiscoveryError): JsCantonErrorBody {
  return consoleErrorBody(error.status, error.code, error.message, error.context);
}

/** The request handler of `GET /__console/oidc-discovery` (OIDC_DISCOVERY_PATH). */
export function createOidcDiscoveryHandler(
  options: OidcDiscoveryOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const limits = {
    maxBytes: options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
    timeoutMs: options.documentTimeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS,
  };
  return (req, res) => {
    void (async () => {
      try {
        if (req.method !== 'GET') {
          // HEAD too: it would run the whole check and both fetches for nothing.
          res.setHeader('Allow', 'GET');
          throw new DiscoveryError(405, 'LEDGER_CONSOLE_METHOD_NOT_ALLOWED', 'Use GET.');
        }
        const issuer = issuerParameter(req.url ?? '');
        await requireParticipantAdmin(options.ledgerUrl, req.headers.authorization);
        const result = await discover(issuer, limits);
        sendJsonNoStore(res, 200, result);
      } catch (error) {
        if (error instanceof DiscoveryError)
          sendJsonNoStore(res, error.status, discoveryErrorBody(error));
        else {
          const failure = new DiscoveryError(
            502,
            'LEDGER_CONSOLE_DISCOVERY_FAILED',
            `Discovery failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          sendJsonNoStore(res, 502, discoveryErrorBody(failure));
        }
      }
    })();
  };
}

/**
 * The one `issuer` query parameter, checked before anything is sent anywhere. Kept as typed: the
 * participant matches a token's `iss` to it exactly, and URL parsing would add a slash to a bare
 * origin or lower-case the host.
 */
export function issuerParameter(target: string): string {
  const query = new URLSearchParams(target.split('?')[1] ?? '');
  const values = query.getAll('issuer');
  if (values.length !== 1 || [...query.keys()].some((key) => key !== 'issuer')) {
    throw new DiscoveryError(
      400,
      'LEDGER_CONSOLE_INVALID_ISSUER',
      'Give exactly one query parameter, issuer=<the provider’s issuer URL>.',
    );
  }
  const issuer = values[0] ?? '';
  const problem = fetchableUrlProblem(issuer, 'The issuer');
  if (problem) {
    throw new DiscoveryError(400, 'LEDGER_CONSOLE_INVALID_ISSUER', problem, {
      issuer: issuer.slice(0, MAX_ISSUER_LENGTH),
    });
  }
  const url = new URL(issuer);
  // OpenID Connect Discovery §2: the issuer has no query or fragment.
  if (url.search || url.hash || issuer.includes('?') || issuer.includes('#')) {
    throw new DiscoveryError(
      400,
      'LEDGER_CONSOLE_INVALID_ISSUER',
      'The issuer must not have a query or fragment.',
      { issuer },
    );
  }
  return issuer;
}

/** Why a URL may not be fetched, or undefined: https, or http to a loopback host only. */
export function fetchableUrlProblem(value: string, what: string): string | undefined {
  if (value.length === 0 || value.length > MAX_ISSUER_LENGTH) {
    return `${what} must be an absolute https URL of at most ${String(MAX_ISSUER_LENGTH)} characters.`;
  }
  if (!URL.canParse(value)) return `${what} must be an absolute https URL.`;
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `${what} must be an https URL (http only on loopback: 127.0.0.0/8, ::1, localhost); got ${url.protocol.replace(':', '')} to ${url.host}. Nothing was fetched.`;
  }
  if (url.username || url.password) return `${what} must not contain credentials.`;
  return undefined;
}

export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  return isLoopbackAddress(bare);
}

function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.split('.')[0] === '127';
  if (isIP(address) === 6) {
    return address === '::1' || /^::ffff:127\./i.test(address);
  }
  return false;
}

// ── the caller ───────────────────────────────────────────────────────────────────────────────

/** Lets through a participant admin only, as the participant itself says (participant-caller.ts). */
async function requireParticipantAdmin(
  ledgerUrl: URL,
  authorization: string | undefined,
): Promise<void> {
  let caller: Caller;
  try {
    caller = await identifyCaller(ledgerUrl, authorization);
  } catch (error) {
    throw new DiscoveryError(
      502,
      'LEDGER_UNREACHABLE',
      `Ledger Console could not ask the participant who the caller is: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  switch (caller.kind) {
    case 'participant-admin':
      return;
    case 'refused':
      throw new DiscoveryError(
        401,
        'LEDGER_CONSOLE_UNAUTHENTICATED',
        'The participant did not accept the request’s token; sign in again.',
      );
    case 'unknown':
      throw notAdmin(caller.reason);
    default:
      throw notAdmin(`user ${caller.userId} has no ParticipantAdmin right`);
  }
}

function notAdmin(reason: string): DiscoveryError {
  return new DiscoveryError(
    403,
    'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED',
    `Only a participant admin may have the console fetch an issuer's discovery document: ${reason}.`,
  );
}

// ── the two documents ────────────────────────────────────────────────────────────────────────

type Limits = { maxBytes: number; timeoutMs: number };

async function discover(requested: string, limits: Limits): Promise<OidcDiscoveryResult> {
  const issuer = new URL(requested);
  // Discovery §4: the issuer with any trailing slash removed, then the well-known path.
  const discoveryUrl = new URL(`${requested.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const document = await fetchJson(discoveryUrl, 'discovery document', limits);
  const checks: DiscoveryCheck[] = [];

  if (document.issuer !== requested) {
    throw new DiscoveryError(
      502,
      'LEDGER_CONSOLE_ISSUER_MISMATCH',
      `The discovery document at ${discoveryUrl.href} names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(requested)}; tokens would carry that value in iss, so the participant would not match them to this configuration.`,
      { requested, discovered: String(document.issuer).slice(0, MAX_ISSUER_LENGTH) },
    );
  }
  checks.push({
    name: 'Issuer',
    status: 'ok',
    detail: `The discovery document names exactly ${requested}.`,
  });

  const jwksUri = document.jwks_uri;
  if (typeof jwksUri !== 'string') {
    throw new DiscoveryError(
      502,
      'LEDGER_CONSOLE_DISCOVERY_INVALID',
      `The discovery document at ${discoveryUrl.href} has no jwks_uri.`,
    );
  }
  const jwksProblem = fetchableUrlProblem(jwksUri, 'The jwks_uri');
  if (jwksProblem) {
    throw new DiscoveryError(502, 'LEDGER_CONSOLE_DISCOVERY_INVALID', jwksProblem, {
      jwksUri: jwksUri.slice(0, MAX_ISSUER_LENGTH),
    });
  }
  const jwksUrl = new URL(jwksUri);
  const sameHost = jwksUrl.host === issuer.host;
  checks.push({
    name: 'JWKS location',
    status: 'ok',
    detail: sameHost
      ? `${jwksUrl.href}, on the issuer's host ${issuer.host}.`
      : `${jwksUrl.href}, on ${jwksUrl.host} — another host than the issuer's (${issuer.host}).`,
  });

  const jwks = await fetchJson(jwksUrl, 'JWKS', limits);
  if (!Array.isArray(jwks.keys)) {
    throw new DiscoveryError(
      502,
      'LEDGER_CONSOLE_DISCOVERY_INVALID',
      `The JWKS at ${jwksUrl.href} has no "keys" array.`,
    );
  }
  const keys = jwks.keys.slice(0, MAX_KEYS).filter(isRecord).map(keySummary);
  const signing = keys.filter((key) => key.use === undefined || key.use === 'sig');
  const algs = [...new Set(signing.map((key) => key.alg ?? `${key.kty ?? '?'} (no alg)`))];
  checks.push({
    name: 'Signing keys',
    status: signing.length > 0 ? 'ok' : 'warning',
    detail:
      signing.length > 0
        ? `${String(signing.length)} signing key${signing.length === 1 ? '' : 's'} (${algs.join(', ')}).`
        : 'No signing key: the participant could verify no token from this issuer.',
  });
  const verifiable = signing.some(
    (key) =>
      (key.alg !== undefined && CANTON_ALGS.has(key.alg)) ||
      (key.alg === undefined && (key.kty === 'RSA' || key.kty === 'EC')),
  );
  checks.push({
    name: 'Algorithms',
    status: verifiable ? 'ok' : 'warning',
    detail: verifiable
      ? 'At least one key the participant can verify (RS256, ES256 or ES512).'
      : 'No RS256, ES256 or ES512 key: the participant may not verify these tokens.',
  });
  return { issuer: requested, jwksUrl: jwksUrl.href, jwks: { keys }, checks };
}

function keySummary(key: Record<string, unknown>): DiscoveredKey {
  const summary: DiscoveredKey = {};
  for (const field of ['kid', 'kty', 'alg', 'use'] as const) {
    const value = key[field];
    if (typeof value === 'string' && value.length <= MAX_KEY_FIELD) summary[field] = value;
  }
  return summary;
}

/**
 * GETs one JSON document: no credentials, no redirects, at most `maxBytes` (cut while streaming)
 * within `timeoutMs` from connecting to the last byte. For http (loopback only), the address the
 * name resolves to must be loopback too, so a name cannot lead the request elsewhere.
 */
function fetchJson(url: URL, what: string, limits: Limits): Promise<Record<string, unknown>> {
  const transport = url.protocol === 'https:' ? https : http;
  const fail = (status: ErrorStatus, code: string, cause: string) =>
    new DiscoveryError(status, code, cause, { url: url.href });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: DiscoveryError | undefined, value?: Record<string, unknown>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(value ?? {});
    };
    const request = transport.request(url, {
      method: 'GET',
      headers: { Accept: 'application/json', 'User-Agent': 'ledger-console' },
      agent: false,
      ...(url.protocol === 'http:' ? { lookup: loopbackOnlyLookup } : {}),
    });
    const timer = setTimeout(() => {
      settle(
        fail(
          504,
          'LEDGER_CONSOLE_DISCOVERY_TIMEOUT',
          `The ${what} at ${url.href} did not arrive within ${String(limits.timeoutMs)} ms.`,
        ),
      );
    }, limits.timeoutMs);
    request.on('error', (error) => {
      settle(
        fail(
          502,
          'LEDGER_CONSOLE_DISCOVERY_UNREACHABLE',
          `The ${what} at ${url.href} could not be fetched: ${error.message}`,
        ),
      );
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        const location = response.headers.location;
        const redirect =
          status >= 300 && status < 400
            ? ` (a redirect${location ? ` to ${location.slice(0, 512)}` : ''}, which the console does not follow)`
            : '';
        settle(
          fail(
            502,
            'LEDGER_CONSOLE_DISCOVERY_FAILED',
            `The ${what} at ${url.href} answered ${String(status)}${redirect}.`,
          ),
        );
        return;
      }
      const type =
        (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (type !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(type)) {
        settle(
          fail(
            502,
            'LEDGER_CONSOLE_DISCOVERY_INVALID',
            `The ${what} at ${url.href} is ${type === '' ? 'untyped' : type}, not JSON.`,
          ),
        );
        return;
      }
      const tooLarge = () =>
        fail(
          502,
          'LEDGER_CONSOLE_DISCOVERY_TOO_LARGE',
          `The ${what} at ${url.href} is larger than ${String(limits.maxBytes / 1024)} KiB.`,
        );
      if (Number(response.headers['content-length']) > limits.maxBytes) {
        settle(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) settle(tooLarge());
        else chunks.push(chunk);
      });
      response.on('error', (error) => {
        settle(
          fail(
            502,
            'LEDGER_CONSOLE_DISCOVERY_UNREACHABLE',
            `The ${what} at ${url.href} broke off: ${error.message}`,
          ),
        );
      });
      response.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        if (isRecord(parsed)) settle(undefined, parsed);
        else {
          settle(
            fail(
              502,
              'LEDGER_CONSOLE_DISCOVERY_INVALID',
              `The ${what} at ${url.href} is not a JSON object.`,
            ),
          );
        }
      });
    });
    request.end();
  });
}

const loopbackOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const loopback = addresses.filter((entry) => isLoopbackAddress(entry.address));
    const first = loopback[0];
    if (!first) {
      callback(
        Object.assign(new Error(`${hostname} does not resolve to a loopback address`), {
          code: 'ENOTLOOPBACK',
        }),
        '',
        0,
      );
      return;
    }
    if (options.all) callback(null, loopback, 0);
    else callback(null, first.address, first.family);
  });
};

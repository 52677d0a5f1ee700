import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { JsCantonErrorBody } from './error-body';

/**
 * What keeps web pages the user happens to browse away from a console or sandbox on their machine
 * (ADR 010). Pure: both the console server and the sandbox's own server feed it a request's method,
 * target and headers, and turn a refusal into an error body in the API's shape.
 */
export type RequestGuardPolicy = {
  /** The address the server binds (`--host`): requests naming it are addressed to us. */
  bindHost: string;
  /** Public host names of a deployment (`--allowed-hosts`), matched with any port. */
  allowedHosts?: readonly string[];
  /**
   * Origins a browser may send besides the request's own (`--public-origin`): behind a
   * TLS-terminating proxy the page is https://public-name while the request reaching us is plain
   * HTTP, often with a rewritten Host. Their host names are allowed hosts too.
   */
  publicOrigins?: readonly string[];
  /**
   * Refuse request targets whose path a later hop could resolve differently (dot segments,
   * encoded slashes, backslashes). Needed where a path prefix decides what is forwarded.
   */
  checkPath?: boolean;
  /**
   * Path prefixes where a GET or HEAD makes the server act (the console's own `/__console`
   * endpoints fetch URLs and ask the participant), so reads are held to the Origin rule of writes.
   * A cross-site `<img>` or `fetch(…, { mode: 'no-cors' })` can send a GET whose answer it never
   * reads but whose effects happen all the same.
   */
  guardedReadPrefixes?: readonly string[];
};

export type GuardedRequest = {
  method: string;
  /** The request target as received (origin-form `/path?query`), before any normalisation. */
  target: string;
  /** A websocket handshake: checked like a state-changing request whatever its method. */
  upgrade: boolean;
  /** A header's value, undefined when absent; names are lower-case. */
  header(name: string): string | undefined;
};

/** A Node request as the guard reads it: the console server's requests, and both servers' handshakes. */
export function incomingRequest(req: IncomingMessage, upgrade: boolean): GuardedRequest {
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    upgrade,
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

export type GuardRefusal = {
  status: 400 | 403 | 415;
  code:
    | 'LEDGER_CONSOLE_HOST_NOT_ALLOWED'
    | 'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST'
    | 'LEDGER_CONSOLE_UNSUPPORTED_CONTENT_TYPE'
    | 'LEDGER_CONSOLE_INVALID_PATH';
  cause: string;
  context: Record<string, string>;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The content types an HTML form or a CORS "simple" request can carry without a preflight; no
 * endpoint of the API takes them, and the sandbox would otherwise parse their bodies as JSON.
 */
const SIMPLE_CONTENT_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

/** The first rule a request breaks, in the order Host, path, Origin, Content-Type. */
export function checkRequest(
  request: GuardedRequest,
  policy: RequestGuardPolicy,
): GuardRefusal | undefined {
  const host = request.header('host');
  const hostRefusal = checkHost(host, policy);
  if (hostRefusal) return hostRefusal;
  if (policy.checkPath) {
    const pathRefusal = checkPath(request.target);
    if (pathRefusal) return pathRefusal;
  }
  if (!request.upgrade && SAFE_METHODS.has(request.method.toUpperCase())) {
    return isGuardedRead(request.target, policy)
      ? checkOrigin(request, host ?? '', policy)
      : undefined;
  }
  return checkOrigin(request, host ?? '', policy) ?? checkContentType(request);
}

function isGuardedRead(target: string, policy: RequestGuardPolicy): boolean {
  const pathname = target.split('?')[0] ?? '';
  return (policy.guardedReadPrefixes ?? []).some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}

/**
 * DNS rebinding points a name the attacker controls at 127.0.0.1, so the browser treats our
 * answers as the attacker's own origin; the Host header still carries that name. IP literals
 * cannot be rebound, so they stay allowed along with localhost and the names we were told about.
 */
export function checkHost(
  host: string | undefined,
  policy: RequestGuardPolicy,
): GuardRefusal | undefined {
  const name = host === undefined ? undefined : hostName(host);
  if (name !== undefined && isAllowedHostName(name, policy)) return undefined;
  const shown = host ?? '(none)';
  return {
    status: 403,
    code: 'LEDGER_CONSOLE_HOST_NOT_ALLOWED',
    cause:
      `Host ${shown} is not one this server answers to. Loopback names and IP addresses always ` +
      `are; add a public name with --allowed-hosts ${name ?? 'NAME'} (or --public-origin ` +
      'https://NAME behind a TLS-terminating proxy).',
    context: { host: shown },
  };
}

/**
 * A state-changing request or a websocket handshake must come from our own page. Browsers send
 * Origin on every cross-origin POST and every websocket handshake (Chromium and Firefox on
 * same-origin POSTs too) and add a Sec-Fetch-Site header a page cannot forge; a request with
 * neither is a non-browser client (curl, the Canton TypeScript client, the console's own proxy).
 */
export function checkOrigin(
  request: GuardedRequest,
  host: string,
  policy: RequestGuardPolicy,
): GuardRefusal | undefined {
  const origin = request.header('origin');
  const site = request.header('sec-fetch-site');
  const what = request.upgrade ? 'websocket handshake' : `${request.method.toUpperCase()} request`;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return crossOrigin(
      `This ${what} was sent by another site's page (Sec-Fetch-Site: ${site}).`,
      origin,
      { secFetchSite: site },
    );
  }
  // No Origin and no cross-site Sec-Fetch-Site: a non-browser client. Node's fetch sends
  // Sec-Fetch-Mode alone, so Sec-Fetch-Site, which browsers always send with it, is the mark.
  if (origin === undefined) return undefined;
  const normalised = normaliseOrigin(origin);
  if (normalised !== undefined) {
    if (normalised === normaliseOrigin(`http://${host}`)) return undefined;
    const allowed = (policy.publicOrigins ?? []).map(normaliseOrigin);
    if (allowed.includes(normalised)) return undefined;
  }
  return crossOrigin(
    `This ${what} came from a page at ${origin}, not from this server's own pages. Behind a ` +
      `TLS-terminating proxy, name the public origin with --public-origin.`,
    origin,
  );
}

function crossOrigin(
  cause: string,
  origin: string | undefined,
  extra: Record<string, string> = {},
): GuardRefusal {
  return {
    status: 403,
    code: 'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST',
    cause,
    context: { ...(origin === undefined ? {} : { origin }), ...extra },
  };
}

/** A cross-site form or `fetch(…, { mode: 'no-cors' })` can only send these without a preflight. */
export function checkContentType(request: GuardedRequest): GuardRefusal | undefined {
  const contentType = request.header('content-type');
  if (contentType === undefined) return undefined;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (!SIMPLE_CONTENT_TYPES.has(essence)) return undefined;
  return {
    status: 415,
    code: 'LEDGER_CONSOLE_UNSUPPORTED_CONTENT_TYPE',
    cause:
      `Content-Type ${essence} is not accepted, as a cross-site form could send it: send JSON as ` +
      'application/json (or with no Content-Type), DARs as application/octet-stream. curl -d ' +
      "sends application/x-www-form-urlencoded: add -H 'Content-Type: application/json'.",
    context: { contentType },
  };
}

/**
 * The console forwards by path prefix, deciding on the path as received; the upstream (a browser-
 * style URL parser, or a proxy in front of the participant) may then resolve dot segments, encoded
 * slashes or backslashes and land outside the prefix. Browsers resolve all of these before
 * sending, so only hand-made requests carry them.
 */
export function checkPath(target: string): GuardRefusal | undefined {
  const refuse = (reason: string): GuardRefusal => ({
    status: 400,
    code: 'LEDGER_CONSOLE_INVALID_PATH',
    cause: `The request path ${target} ${reason}; send it as a browser would, already resolved.`,
    context: { path: target },
  });
  if (!target.startsWith('/')) return refuse('is not an absolute path');
  const path = target.split('?')[0] ?? '';
  if (path.includes('#')) return refuse('contains a fragment');
  if (path.includes('\\')) return refuse('contains a backslash');
  // A segment is also checked as a decoding hop behind us would see it: IdP ids may hold `/`
  // (LedgerString), so `/v2/idps/a%2Fb` must pass, while `..%2F__sandbox` would become `../`.
  for (const segment of path.split('/')) {
    const decoded = decodeSegment(segment);
    if (decoded === undefined) return refuse('has a malformed percent-encoding');
    if (decoded.split(/[/\\]/).some((piece) => piece === '.' || piece === '..')) {
      return refuse('contains a dot segment');
    }
  }
  return undefined;
}

/** A path segment percent-decoded until stable (twice-encoded dots count), or undefined if malformed. */
function decodeSegment(segment: string): string | undefined {
  let current = segment;
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // Only the request's own encoding must be well-formed; `%` may be a decoded character.
      return round === 0 ? undefined : current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** The host name of a Host header value, lower-case and without a trailing dot; undefined if malformed. */
export function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/.exec(host.trim());
  const name = match?.[1];
  if (name === undefined) return undefined;
  return name.toLowerCase().replace(/\.$/, '');
}

function isAllowedHostName(name: string, policy: RequestGuardPolicy): boolean {
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || isIP(bare) !== 0) return true;
  const allowed = [
    policy.bindHost,
    ...(policy.allowedHosts ?? []),
    ...(policy.publicOrigins ?? []).map(originHostName),
  ].map((entry) => entry.trim().toLowerCase().replace(/\.$/, ''));
  return allowed.includes(bare);
}

function originHostName(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return '';
  }
}

function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The refusal as a JsCantonError body. Categories as the API files such problems: a request
 * refused for who sent it is InsufficientPermission (7), a malformed one
 * InvalidIndependentOfSystemState (8).
 */
export function refusalBody(refusal: GuardRefusal, traceId: string | null): JsCantonErrorBody {
  const forbidden = refusal.status === 403;
  return {
    code: refusal.code,
    cause: refusal.cause,
    correlationId: traceId,
    traceId,
    context: refusal.context,
    resources: [],
    errorCategory: forbidden ? 7 : 8,
    grpcCodeValue: forbidden ? 7 : 3,
    retryInfo: null,
    definiteAnswer: null,
  };
}

/** A refused websocket handshake: an HTTP response written straight onto the socket. */
export function refusalResponseHead(refusal: GuardRefusal, traceId: string | null): string {
  const body = JSON.stringify(refusalBody(refusal, traceId));
  const reason = { 400: 'Bad Request', 403: 'Forbidden', 415: 'Unsupported Media Type' }[
    refusal.status
  ];
  return (
    `HTTP/1.1 ${String(refusal.status)} ${reason}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${String(Buffer.byteLength(body))}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Parses a comma-separated CLI list (`--allowed-hosts a,b`), refusing empty entries. */
export function parseHostList(value: string, option: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '' || hostName(entry) !== entry.toLowerCase())) {
    throw new Error(`${option} must be a comma-separated list of host names, got ${value}`);
  }
  return entries.map((entry) => entry.toLowerCase());
}

/** Parses `--public-origin` values: http(s) origins, no path, query or credentials. */
export function parseOriginList(value: string, option: string): string[] {
  return value.split(',').map((entry) => {
    const url = URL.canParse(entry.trim()) ? new URL(entry.trim()) : undefined;
    const isOrigin =
      url !== undefined &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password;
    if (!isOrigin) {
      throw new Error(
        `${option} must be origins like https://console.example.com (scheme, host, optional port), got ${entry}`,
      );
    }
    return url.origin;
  });
}

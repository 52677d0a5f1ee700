import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import {
  ACTIVE_CONTRACT_COUNTS_PATH,
  AUDIT_LOG_PATH,
  CONSOLE_PATH_PREFIX,
  OIDC_DISCOVERY_PATH,
  PARTICIPANT_API_PREFIX,
  PARTICIPANT_NAME_PATTERN,
  PARTICIPANT_PAGE_PREFIX,
  PARTICIPANTS_PATH,
  SIGN_IN_PROVIDERS_PATH,
  type ConsoleParticipants,
} from '@ledger-console/edge/console-api';
import {
  checkRequest,
  incomingRequest,
  refusalBody,
  refusalResponseHead,
  type GuardRefusal,
  type RequestGuardPolicy,
} from '@ledger-console/edge/request-guard';
import {
  createActiveContractCountsHandler,
  type ActiveContractCountsOptions,
} from './active-contract-counts';
import { createAuditHandler } from './audit/audit-endpoint';
import type { AuditLog } from './audit/audit-log';
import { answerReadyz } from './audit/audit-readyz';
import { createLedgerProxy, type LedgerProxy, type LedgerProxyOptions } from './ledger-proxy';
import { createOidcDiscoveryHandler, type OidcDiscoveryOptions } from './oidc-discovery';
import { consoleErrorBody, sendJsonNoStore } from './participant-caller';
import { SINGLE_LEDGER_NAME } from './server-args';
import { servedSignInProviders, type SignInProvider } from './sign-in-providers';

/** Paths of the participant's API (ledger-api-behaviour.md §10): everything under /v2, plus health. */
export const LEDGER_PATH_PREFIXES: readonly string[] = ['/v2', '/livez', '/readyz'];

/** One participant the console addresses (ADR 022). */
export type ParticipantTarget = {
  /** Matches PARTICIPANT_NAME_PATTERN; its paths are `/participants/NAME/…`. */
  name: string;
  /** Base URL of its JSON Ledger API. */
  ledgerUrl: string | URL;
  /** Extra path prefixes sent to it, e.g. the sandbox's `/__sandbox` controls. */
  extraProxyPrefixes?: readonly string[];
};

export type CreateServerOptions = {
  /** The built SPA (Vite's `dist/`); must exist, since the file list is read once here. */
  distDir: string;
  /**
   * The participants, the first being the default (also at the unprefixed paths). Without it,
   * the one participant at `ledgerUrl`, named `participantName`.
   */
  participants?: readonly ParticipantTarget[];
  /** Base URL of the single participant's JSON Ledger API, when `participants` is not given. */
  ledgerUrl?: string | URL;
  /** The single participant's name (default {@link SINGLE_LEDGER_NAME}, a bare `--ledger URL`'s). */
  participantName?: string;
  /** The single participant's extra path prefixes, e.g. the sandbox's `/__sandbox` controls. */
  extraProxyPrefixes?: readonly string[];
  /** The address the server binds (`--host`, default 127.0.0.1): a Host naming it is ours. */
  host?: string;
  /** Public host names a deployment is reached by (`--allowed-hosts`). */
  allowedHosts?: readonly string[];
  /** Origins of the public pages behind a TLS-terminating proxy (`--public-origin`). */
  publicOrigins?: readonly string[];
  /** Serve `*.map` files (`--source-maps`); off by default (vite.config.ts, ADR 010). */
  serveSourceMaps?: boolean;
  /** The proxy's body limits and upstream timeouts (ledger-proxy.ts has the defaults). */
  proxy?: LedgerProxyOptions;
  /**
   * The sign-in page's OpenID Connect providers (`--oidc-*`, `--sign-in-config`); one naming
   * `participants` is offered for those only, one without for every participant.
   */
  signInProviders?: readonly SignInProvider[];
  /** Limits of `GET /__console/oidc-discovery` (oidc-discovery.ts has the defaults). */
  oidcDiscovery?: Omit<OidcDiscoveryOptions, 'ledgerUrl'>;
  /**
   * The shared audit log (ADR 020): records the proxied state-changing calls and serves
   * `GET /__console/audit`; without it nothing is recorded and that path is not found.
   */
  audit?: AuditLog;
  /** Limits of `POST /__console/active-contract-counts` (active-contract-counts.ts has the defaults). */
  activeContractCounts?: ActiveContractCountsOptions;
  /**
   * A server to answer on instead of a new one, e.g. one already listening: `npm start` binds its
   * port before the embedded sandbox starts, whose OpenID provider needs the console's origin.
   */
  server?: http.Server;
};

/**
 * The SPA's Content-Security-Policy: nothing but its own files run or load. Mantine writes its CSS
 * variables into a <style> element at run time, hence 'unsafe-inline' for styles only; the
 * Daml-LF decoder is a module worker from /assets (worker-src 'self'). oidc-client-ts fetches
 * discovery, keys and tokens from each sign-in provider's issuer, so their origins may be
 * connected to as well; nothing else of the policy depends on them.
 */
export function contentSecurityPolicy(signInProviders: readonly SignInProvider[] = []): string {
  const issuerOrigins = [
    ...new Set(signInProviders.map((provider) => new URL(provider.issuer).origin)),
  ];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...issuerOrigins].join(' '),
    "worker-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The policy without sign-in providers. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** Headers a browser can send to tell the server about the page; they describe the console's page, not the console. */
const BROWSER_CONTEXT_HEADERS = [
  'origin',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'sec-fetch-user',
] as const;

const proxies = new WeakMap<http.Server, readonly LedgerProxy[]>();

/** What the server keeps per participant: its proxy and its share of the console's endpoints. */
type ServedParticipant = {
  name: string;
  isDefault: boolean;
  proxy: LedgerProxy;
  prefixes: readonly string[];
  signInBody: string;
  counts: ReturnType<typeof createActiveContractCountsHandler>;
  handleOidcDiscovery: (req: IncomingMessage, res: ServerResponse) => void;
  handleAudit: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
};

/** Where a request goes: a participant (path without the console's prefix), or a name unknown. */
type Routed =
  | { kind: 'participant'; participant: ServedParticipant; pathname: string; prefixed: boolean }
  | { kind: 'unknown-participant'; name: string };

/** The participants of the options, checked: names valid and distinct, at least one. */
export function participantTargets(options: CreateServerOptions): ParticipantTarget[] {
  const targets: ParticipantTarget[] =
    options.participants === undefined
      ? options.ledgerUrl === undefined
        ? []
        : [
            {
              name: options.participantName ?? SINGLE_LEDGER_NAME,
              ledgerUrl: options.ledgerUrl,
              ...(options.extraProxyPrefixes === undefined
                ? {}
                : { extraProxyPrefixes: options.extraProxyPrefixes }),
            },
          ]
      : [...options.participants];
  if (targets.length === 0)
    throw new Error('createServer needs a participant (ledgerUrl or participants)');
  const seen = new Set<string>();
  for (const { name } of targets) {
    if (!PARTICIPANT_NAME_PATTERN.test(name)) throw new Error(`Invalid participant name ${name}`);
    if (seen.has(name)) throw new Error(`Participant ${name} is given twice`);
    seen.add(name);
  }
  return targets;
}

/**
 * The console's HTTP server: the SPA from `distDir` (any unknown page path gets index.html, so
 * client-side routes survive a reload) and the ledger's paths, websockets included, proxied.
 */
export function createServer(options: CreateServerOptions): http.Server {
  const {
    distDir,
    host = '127.0.0.1',
    allowedHosts = [],
    publicOrigins = [],
    serveSourceMaps = false,
    proxy: proxyOptions = {},
    signInProviders = [],
    oidcDiscovery = {},
    audit,
    activeContractCounts = {},
    server: existingServer,
  } = options;
  const targets = participantTargets(options);
  const policyHeader = contentSecurityPolicy(signInProviders);
  const served = targets.map((target, index): ServedParticipant => {
    const { name } = target;
    const isDefault = index === 0;
    const proxy = createLedgerProxy(target.ledgerUrl, {
      ...proxyOptions,
      ...(audit === undefined
        ? {}
        : {
            observe: (req: IncomingMessage) =>
              audit.observe(req, { name, ledgerUrl: proxy.target }),
          }),
    });
    // The SPA reads this before anyone is signed in, so it cannot come from the participant.
    const signInBody = JSON.stringify({
      providers: servedSignInProviders(
        signInProviders.filter((provider) => provider.participants?.includes(name) ?? true),
      ),
    });
    return {
      name,
      isDefault,
      proxy,
      prefixes: [...LEDGER_PATH_PREFIXES, ...(target.extraProxyPrefixes ?? [])],
      signInBody,
      // Reads the same participant the proxy reaches, with the caller's own token.
      counts: createActiveContractCountsHandler(proxy.target, activeContractCounts),
      // Asks the same participant the proxy reaches whether the caller is a participant admin.
      handleOidcDiscovery: createOidcDiscoveryHandler({
        ...oidcDiscovery,
        ledgerUrl: proxy.target,
      }),
      handleAudit:
        audit === undefined
          ? undefined
          : createAuditHandler(audit, proxy.target, { name, isDefault }),
    };
  });
  const byName = new Map(served.map((participant) => [participant.name, participant]));
  const [defaultParticipant] = served;
  if (defaultParticipant === undefined) throw new Error('createServer needs a participant');
  const participantsBody = JSON.stringify({
    participants: served.map(({ name, isDefault }) => ({
      name,
      apiPath: `${PARTICIPANT_API_PREFIX}/${name}`,
      pagePath: `${PARTICIPANT_PAGE_PREFIX}/${name}`,
      default: isDefault,
    })),
  } satisfies ConsoleParticipants);
  // Paths are checked before the prefix decision below, which reads them as received (ADR 010).
  const policy: RequestGuardPolicy = {
    bindHost: host,
    allowedHosts,
    publicOrigins,
    checkPath: true,
    guardedReadPrefixes: [
      CONSOLE_PATH_PREFIX,
      ...served.map(({ name }) => `${PARTICIPANT_API_PREFIX}/${name}${CONSOLE_PATH_PREFIX}`),
    ],
  };
  const refusalOf = (req: IncomingMessage, upgrade: boolean) =>
    checkRequest(incomingRequest(req, upgrade), policy);
  /**
   * The participant a request is for: `/participants/NAME/…` is NAME's, anything else the default
   * participant's; undefined for `/participants/NAME` paths that are none of a participant's.
   */
  const route = (url: string | undefined): Routed | undefined => {
    const pathname = (url ?? '/').split('?')[0] ?? '/';
    const apiPrefix = `${PARTICIPANT_API_PREFIX}/`;
    if (!pathname.startsWith(apiPrefix)) {
      return { kind: 'participant', participant: defaultParticipant, pathname, prefixed: false };
    }
    const rest = pathname.slice(apiPrefix.length);
    const slash = rest.indexOf('/');
    const name = slash === -1 ? rest : rest.slice(0, slash);
    const participant = byName.get(name);
    if (participant === undefined) return { kind: 'unknown-participant', name };
    return {
      kind: 'participant',
      participant,
      pathname: slash === -1 ? '' : rest.slice(slash),
      prefixed: true,
    };
  };
  const isLedgerPath = (participant: ServedParticipant, pathname: string) =>
    participant.prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  /** The request as the participant gets it: the console's prefix taken off its target. */
  const unprefixed = (req: IncomingMessage, pathname: string) => {
    const query = (req.url ?? '').indexOf('?');
    req.url = query === -1 ? pathname : `${pathname}${(req.url ?? '').slice(query)}`;
    return req;
  };

  const assetsDir = path.join(distDir, 'assets');
  // Vite fingerprints everything in assets/, so it may be cached forever; index.html never is.
  const setHeaders = (res: ServerResponse, pathname: string) => {
    res.setHeader(
      'Cache-Control',
      pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  };
  // A missing asset is a 404, never index.html: a stale tab asking for an old chunk must fail
  // loudly rather than parse HTML as JavaScript.
  const serveAsset = sirv(assetsDir, { dev: false, etag: true, setHeaders: prefixed(setHeaders) });
  // `ignores: false`: page paths may contain dots (user ids like alice.smith) and still need the
  // SPA fallback, which sirv otherwise skips for anything that looks like a file name.
  const serveSpa = sirv(distDir, {
    dev: false,
    etag: true,
    single: true,
    ignores: false,
    setHeaders,
  });

  const server = existingServer ?? http.createServer();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = refusalOf(req, false);
    if (refusal) {
      sendRefusal(req, res, refusal);
      return;
    }
    const routed = route(req.url);
    if (routed === undefined || routed.kind === 'unknown-participant') {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      sendUnknownParticipant(req, res, routed?.name ?? '', served);
      return;
    }
    const { participant, pathname, prefixed } = routed;
    if (isLedgerPath(participant, pathname)) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Opened as a page (a link, a gateway's HTML error), an answer is a document of the
      // console's origin: the console's policy governs it, the proxy drops the upstream's.
      res.setHeader('Content-Security-Policy', policyHeader);
      const health = audit?.health();
      // Not ready while the audit log does not take entries: the participant's checks, and ours.
      if (health?.ok === false && pathname === '/readyz') {
        void answerReadyz(req, res, participant.proxy.target, health);
        return;
      }
      participant.proxy.handleRequest(withoutBrowserContext(unprefixed(req, pathname)), res);
      return;
    }
    const isConsolePath =
      pathname === CONSOLE_PATH_PREFIX || pathname.startsWith(`${CONSOLE_PATH_PREFIX}/`);
    if (prefixed && !isConsolePath) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      sendNotAParticipantPath(req, res, participant.name);
      return;
    }
    // The one console endpoint with a body: the request guard has checked Origin and Content-Type.
    if (pathname === ACTIVE_CONTRACT_COUNTS_PATH) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      participant.counts.handle(unprefixed(req, pathname), res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed');
      return;
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (isConsolePath) {
      unprefixed(req, pathname);
      if (pathname === SIGN_IN_PROVIDERS_PATH) sendJson(req, res, participant.signInBody);
      else if (pathname === OIDC_DISCOVERY_PATH) participant.handleOidcDiscovery(req, res);
      else if (pathname === AUDIT_LOG_PATH && participant.handleAudit) {
        participant.handleAudit(req, res);
      }
      // The console's, not one participant's: only unprefixed.
      else if (pathname === PARTICIPANTS_PATH && !prefixed) sendJson(req, res, participantsBody);
      else notFound(res);
      return;
    }
    const url = req.url ?? '/';
    // Maps would hand out the whole source tree with its comments; vite.config.ts builds them
    // 'hidden' for decoding stack traces locally.
    if (!serveSourceMaps && pathname.endsWith('.map')) {
      notFound(res);
      return;
    }
    if (url.startsWith('/assets/')) {
      req.url = url.slice('/assets'.length);
      serveAsset(req, res, () => {
        notFound(res);
      });
      return;
    }
    // Everything outside /assets is a document a browser may render (index.html for every page
    // path, `/p/NAME/…` pages of every participant included, the SVG icon): all get the policy.
    res.setHeader('Content-Security-Policy', policyHeader);
    serveSpa(req, res, () => {
      notFound(res);
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const refusal = refusalOf(req, true);
    if (refusal) {
      socket.end(refusalResponseHead(refusal, null));
      return;
    }
    const routed = route(req.url);
    if (routed?.kind === 'participant' && isLedgerPath(routed.participant, routed.pathname)) {
      routed.participant.proxy.handleUpgrade(
        withoutBrowserContext(unprefixed(req, routed.pathname)),
        socket,
        head,
      );
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  server.on('close', () => {
    for (const participant of served) {
      participant.proxy.close();
      participant.counts.close();
    }
  });
  proxies.set(
    server,
    served.map((participant) => participant.proxy),
  );
  return server;
}

/** `/participants/NAME/…` for a NAME the console does not have. */
function sendUnknownParticipant(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  served: readonly ServedParticipant[],
): void {
  const known = served.map((participant) => participant.name).join(', ');
  const shown = name.slice(0, 64);
  sendJsonNoStore(
    res,
    404,
    consoleErrorBody(
      404,
      'LEDGER_CONSOLE_UNKNOWN_PARTICIPANT',
      `This console has no participant named ${JSON.stringify(shown)}; it has ${known} (GET ${PARTICIPANTS_PATH} lists them).`,
      { participant: shown, participants: known },
    ),
  );
  req.resume();
}

/** `/participants/NAME/…` naming neither the participant's API nor the console's endpoints. */
function sendNotAParticipantPath(req: IncomingMessage, res: ServerResponse, name: string): void {
  sendJsonNoStore(
    res,
    404,
    consoleErrorBody(
      404,
      'LEDGER_CONSOLE_NOT_FOUND',
      `Below ${PARTICIPANT_API_PREFIX}/${name} the console serves the participant's /v2, /livez and /readyz and its own ${CONSOLE_PATH_PREFIX} endpoints; its pages are at ${PARTICIPANT_PAGE_PREFIX}/${name}.`,
      { participant: name },
    ),
  );
  req.resume();
}

/**
 * Stops accepting connections and ends the open ones, websocket tunnels included, which
 * `server.close()` alone would wait for indefinitely.
 */
export async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
  for (const proxy of proxies.get(server) ?? []) proxy.close();
  server.closeAllConnections();
  await closed;
}

function prefixed(setHeaders: (res: ServerResponse, pathname: string) => void) {
  return (res: ServerResponse, pathname: string) => {
    setHeaders(res, `/assets${pathname}`);
  };
}

/**
 * Once the guard has vetted a request, the console is the participant's client: Host already names
 * the upstream, and the page's Origin would only make an upstream with its own origin check (the
 * embedded sandbox) refuse what the console has allowed.
 */
function withoutBrowserContext(req: IncomingMessage): IncomingMessage {
  const kept = Object.entries(req.headers).filter(
    ([name]) => !(BROWSER_CONTEXT_HEADERS as readonly string[]).includes(name),
  );
  req.headers = Object.fromEntries(kept);
  return req;
}

function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: GuardRefusal): void {
  const body = JSON.stringify(refusalBody(refusal, null));
  res.writeHead(refusal.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
  // Read and drop the body: closing with it unread resets the connection, and a browser then
  // reports a network error instead of this answer.
  req.resume();
}

function sendJson(req: IncomingMessage, res: ServerResponse, body: string): void {
  // Configuration may change with a restart: a cached copy would offer a removed provider.
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not Found');
}

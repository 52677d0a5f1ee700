import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Transform, pipeline } from 'node:stream';
import { bodyLimitFor, drainBriefly, type BodyLimits } from '@ledger-console/edge/body-limits';
import type { JsCantonErrorBody } from '@ledger-console/edge/error-body';
import { StreamBatcher, batchedUpgradeHeaders, streamBatchOffer } from './stream-batching';

/**
 * A small reverse proxy to one participant's JSON Ledger API, for plain requests and websocket
 * upgrades. Bodies stream in both directions untouched (DAR uploads are binary, list endpoints
 * stream), and headers pass through except hop-by-hop ones and, in answers, those that would
 * speak for the console's origin (CORS, cookies, CSP). The one exception: a websocket whose page
 * asked for batches gets the participant's messages gathered into fewer frames (ADR 034).
 * Written on node:http because http-proxy-3 needs Node 22 and http-proxy is unmaintained
 * (docs/architecture.md).
 */
export type LedgerProxy = {
  readonly target: URL;
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends open websocket tunnels and idle upstream connections. */
  close(): void;
};

// RFC 9110 §7.6.1 plus the non-standard ones still seen in the wild. `expect` is dropped too: Node
// has already answered the client's 100-continue, and the upstream must not wait for it again.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * Answer headers that would speak for the console's origin, where the browser meets them, rather
 * than for the participant: CORS grants (an upstream or a gateway in front of it sending
 * `Access-Control-Allow-Origin: *` would let any web page read the participant's answers through
 * the console), cookies (set on the console's origin), a Content-Security-Policy (the console
 * sets its own) and Clear-Site-Data (which would wipe the console's stored session).
 */
const ORIGIN_POLICY_HEADERS = new Set([
  'set-cookie',
  'content-security-policy',
  'content-security-policy-report-only',
  'clear-site-data',
]);

function isOriginPolicyHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('access-control-') || ORIGIN_POLICY_HEADERS.has(lower);
}

/** A participant on a working network accepts a connection in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/**
 * The participant answers every request within its own 20 s request-timeout (with a 503 if its
 * logic is still running, §10); a little longer lets that answer through, so only a participant
 * that says nothing at all gets the console's 504.
 */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 25_000;
/**
 * How long a pooled connection to the participant may sit idle before the proxy closes it; a
 * participant's own `Keep-Alive: timeout=N` shortens it to N − 1 s (Node's agent honours that
 * hint only when it has an idle timeout of its own). Closed by the participant first, a pooled
 * connection fails the next call sent on it at that moment: a 502, for a write without a retry.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 4_000;

/** What the proxy tells an observer (the audit log, ADR 020) about one call it forwards. */
export type ObservedCall = {
  /** Each chunk of the request body, as it is forwarded. */
  body(chunk: Buffer): void;
  /**
   * How the call ended. The client gets its answer only once this settles: the observer bounds
   * how long that is. Called once; must never reject.
   */
  settle(outcome: CallOutcome): Promise<void>;
};

export type CallOutcome = {
  /** The participant's status; 0 when it gave none (unreachable, timed out, body refused). */
  status: number;
  /** The start of the participant's answer body, all of it when `complete`. */
  answer: Buffer;
  complete: boolean;
  /** The code of the console's own error when it answered in the participant's place. */
  consoleErrorCode?: string;
};

/** Picks the calls to observe; undefined lets a call through unobserved. */
export type CallObserver = (req: IncomingMessage) => ObservedCall | undefined;

/** The largest bodies forwarded are the participant's own limits unless told otherwise. */
export type LedgerProxyOptions = BodyLimits & {
  /** Time allowed to connect to the participant; default 10 s. */
  connectTimeoutMs?: number;
  /** Time allowed, once the request is sent, until the response head arrives; default 25 s. */
  responseTimeoutMs?: number;
  /** Sees observed calls' bodies and outcomes, and holds their answers until it has them. */
  observe?: CallObserver;
};

/** How much of an observed call's answer is held back while the observer settles it. */
export const OBSERVED_ANSWER_BYTES = 256 * 1024;

/** What a client may send on a websocket handshake before the participant has answered it. */
const MAX_EARLY_BYTES = 64 * 1024;

/** The upstream did not connect, or did not answer, in time. */
class UpstreamTimeout extends Error {
  constructor(
    readonly phase: 'connect' | 'response',
    readonly timeoutMs: number,
  ) {
    super(
      phase === 'connect'
        ? `no connection within ${String(timeoutMs)} ms`
        : `no response within ${String(timeoutMs)} ms`,
    );
  }
}

/** A request body grew past the limit while streaming. */
class BodyTooLarge extends Error {}

const TOO_LARGE_CODE = 'REQUEST_ENTITY_TOO_LARGE';
/** The client left before its answer came (nginx's 499 "client closed request"). */
export const CLIENT_GONE_CODE = 'CLIENT_CLOSED_REQUEST';

export function createLedgerProxy(
  targetUrl: string | URL,
  options: LedgerProxyOptions = {},
): LedgerProxy {
  const target = parseTarget(targetUrl);
  const transport = target.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_TIMEOUT_MS });
  const tunnels = new Set<Duplex>();
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;

  /**
   * Fails `upstreamReq` with an UpstreamTimeout if its socket does not connect in time, or if no
   * response head arrives within the response timeout of the request being fully sent.
   */
  function guardTimeouts(upstreamReq: http.ClientRequest) {
    let timer: NodeJS.Timeout | undefined;
    const fail = (phase: 'connect' | 'response', ms: number) => {
      timer = setTimeout(() => {
        upstreamReq.destroy(new UpstreamTimeout(phase, ms));
      }, ms);
    };
    upstreamReq.on('socket', (socket: Socket) => {
      // A pooled keep-alive socket is already connected.
      if (!socket.connecting) return;
      fail('connect', connectTimeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
      });
    });
    // Uploads may take long; the participant's clock starts once it has the whole request.
    upstreamReq.on('finish', () => {
      clearTimeout(timer);
      fail('response', responseTimeoutMs);
    });
    // A response head (an upgrade or a refusal to upgrade included) ends the wait.
    for (const event of ['response', 'upgrade', 'close']) {
      upstreamReq.once(event, () => {
        clearTimeout(timer);
      });
    }
  }

  function upstreamOptions(req: IncomingMessage, headers: http.OutgoingHttpHeaders) {
    return {
      protocol: target.protocol,
      // URL keeps IPv6 brackets in hostname; the socket API wants the bare address.
      hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: target.port || (target.protocol === 'https:' ? 443 : 80),
      method: req.method ?? 'GET',
      path: joinPath(target.pathname, req.url ?? '/'),
      headers,
    };
  }

  function handleRequest(req: IncomingMessage, res: ServerResponse): void {
    const limit = bodyLimitFor(req.method ?? 'GET', (req.url ?? '/').split('?')[0] ?? '', options);
    const observed = options.observe?.(req);
    // Once: a destroyed upstream request may report an error after its answer was settled.
    let settled = false;
    const settleThen = (
      outcome: Omit<CallOutcome, 'answer' | 'complete'> & Partial<CallOutcome>,
      answer: () => void,
    ) => {
      if (observed === undefined || settled) {
        answer();
        return;
      }
      settled = true;
      void observed.settle({ answer: Buffer.alloc(0), complete: true, ...outcome }).then(answer);
    };
    const declared = Number(req.headers['content-length']);
    // Refused before the participant is even contacted, and before a byte of the body is read.
    if (req.headers['transfer-encoding'] === undefined && declared > limit) {
      settleThen({ status: 0, consoleErrorCode: TOO_LARGE_CODE }, () => {
        sendTooLarge(req, res, limit, declared);
      });
      return;
    }
    const upstreamReq = transport.request({
      ...upstreamOptions(req, forwardHeaders(req, target)),
      agent,
    });
    guardTimeouts(upstreamReq);
    let tooLarge = false;
    let clientGone = false;

    const relay = (upstreamRes: IncomingMessage, held: readonly Buffer[], complete: boolean) => {
      if (res.destroyed) {
        upstreamRes.destroy();
        return;
      }
      res.writeHead(
        upstreamRes.statusCode ?? 502,
        upstreamRes.statusMessage,
        answerHeaders(upstreamRes.headers),
      );
      for (const chunk of held) res.write(chunk);
      if (complete) {
        res.end();
        return;
      }
      // Headers go out now, before any body: streaming endpoints may be slow to send the first byte.
      res.flushHeaders();
      pipeline(upstreamRes, res, () => {
        // Either side went away mid-body; pipeline has already destroyed both streams.
      });
    };
    const onResponse = (upstreamRes: IncomingMessage) => {
      if (observed === undefined) {
        relay(upstreamRes, [], false);
        return;
      }
      // Held back until the observer has settled the call: an audited call's client learns its
      // outcome only once the entry is kept (ADR 020).
      const held: Buffer[] = [];
      let heldBytes = 0;
      const release = (complete: boolean) => {
        upstreamRes.off('data', onData);
        upstreamRes.off('end', onEnd);
        upstreamRes.pause();
        const status = upstreamRes.statusCode ?? 0;
        settleThen({ status, answer: Buffer.concat(held), complete }, () => {
          relay(upstreamRes, held, complete);
        });
      };
      const onData = (chunk: Buffer) => {
        held.push(chunk);
        heldBytes += chunk.length;
        if (heldBytes > OBSERVED_ANSWER_BYTES) release(false);
      };
      const onEnd = () => {
        release(true);
      };
      upstreamRes.on('data', onData);
      upstreamRes.on('end', onEnd);
      upstreamRes.on('error', () => {
        // The participant's answer broke off: what came is settled, the client's answer is cut.
        settleThen(
          { status: upstreamRes.statusCode ?? 0, answer: Buffer.concat(held), complete: false },
          () => {
            res.destroy();
          },
        );
      });
    };
    const onError = (error: Error) => {
      // pipeline aborts the upstream request, which then fails with its own "socket hang up".
      if (clientGone) {
        settleThen({ status: 0, consoleErrorCode: CLIENT_GONE_CODE }, () => undefined);
      } else if (tooLarge && !res.headersSent) {
        settleThen({ status: 0, consoleErrorCode: TOO_LARGE_CODE }, () => {
          sendTooLarge(req, res, limit);
        });
      } else if (error instanceof UpstreamTimeout && !res.headersSent) {
        settleThen({ status: 0, consoleErrorCode: timeoutBody(target, error).code }, () => {
          sendTimeout(res, target, error);
        });
      } else if (!res.headersSent) {
        settleThen({ status: 0, consoleErrorCode: 'LEDGER_UNREACHABLE' }, () => {
          sendUnreachable(res, target, error);
        });
      } else res.destroy(error);
    };

    upstreamReq.on('response', onResponse);
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      // A pooled keep-alive socket the participant closed just as it was reused: Node's own
      // advice is to send again. Only reads, which carry no body and change nothing, and once, on
      // a new connection: the participant's keep-alive timeout closes the other pooled sockets
      // at the same time, and one of them would fail the same way.
      const isRead = req.method === 'GET' || req.method === 'HEAD';
      if (isRead && upstreamReq.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent) {
        const again = transport.request({
          ...upstreamOptions(req, forwardHeaders(req, target)),
          agent: false,
        });
        guardTimeouts(again);
        again.on('response', onResponse);
        again.on('error', onError);
        res.on('close', () => {
          if (!res.writableFinished) again.destroy();
        });
        again.end();
        return;
      }
      onError(error);
    });

    // Bodies without a Content-Length are counted as they stream, and cut once past the limit.
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) {
          tooLarge = true;
          callback(new BodyTooLarge());
        } else {
          observed?.body(chunk);
          callback(null, chunk);
        }
      },
    });
    // Not pipeline(req, …): cutting the body must not destroy the client's request (and with it
    // the socket the 413 goes out on). The client vanishing mid-upload is handled by 'close' below.
    req.pipe(counter);
    req.on('error', (error) => counter.destroy(error));
    pipeline(counter, upstreamReq, () => {
      // Errors, BodyTooLarge included, surface through upstreamReq's 'error' handler above.
    });
    res.on('close', () => {
      if (res.writableFinished) return;
      // An observed call the participant has in full goes on without its client: its outcome is
      // what the audit log must keep, and the participant acts on it either way.
      if (observed !== undefined && req.complete && !res.headersSent) return;
      // Gone before its answer: the participant may or may not have acted on the call.
      if (!res.headersSent) clientGone = true;
      upstreamReq.destroy();
    });
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const headers = forwardHeaders(req, target);
    // An upgrade is the one case where Connection/Upgrade must reach the upstream.
    headers.connection = 'Upgrade';
    if (req.headers.upgrade) headers.upgrade = req.headers.upgrade;
    // A page that asks for batches (ADR 034) gets them; the participant never sees the offer, and
    // is offered no extension, so that its frames can be read and re-sent as they are.
    const offer = streamBatchOffer(req.headers['sec-websocket-protocol']);
    if (offer.isBatched) {
      delete headers['sec-websocket-protocol'];
      if (offer.forwarded !== undefined) headers['sec-websocket-protocol'] = offer.forwarded;
      delete headers['sec-websocket-extensions'];
    }

    // A dedicated socket: an upgraded connection can never return to a keep-alive pool.
    const upstreamReq = transport.request({ ...upstreamOptions(req, headers), agent: false });
    guardTimeouts(upstreamReq);

    // The client may leave before the participant answers; the upstream request goes with it.
    // Node stops reading an upgraded socket, so a client that hangs up would go unnoticed: read
    // it meanwhile (anything sent early is kept for the tunnel) to see its end.
    const early: Buffer[] = [];
    let earlyBytes = 0;
    const keep = (chunk: Buffer) => {
      earlyBytes += chunk.length;
      // A websocket client waits for the 101 before it sends; one that floods is dropped.
      if (earlyBytes > MAX_EARLY_BYTES) socket.destroy();
      else early.push(chunk);
    };
    const abandon = () => {
      if (!tunnels.has(socket)) upstreamReq.destroy();
    };
    socket.on('data', keep);
    socket.resume();
    socket.on('end', abandon);
    socket.on('error', abandon);
    socket.on('close', abandon);

    upstreamReq.on('upgrade', (upstreamRes, upstreamSocket: Socket, upstreamHead: Buffer) => {
      if (socket.destroyed) {
        upstreamSocket.destroy();
        return;
      }
      const answered = stripRawHeaders(upstreamRes.rawHeaders, isOriginPolicyHeader);
      // An extension the participant chose anyway would change its frames: then none are batched.
      const isBatched =
        offer.isBatched && upstreamRes.headers['sec-websocket-extensions'] === undefined;
      socket.write(
        responseHead(
          upstreamRes.statusCode ?? 101,
          upstreamRes.statusMessage,
          isBatched ? batchedUpgradeHeaders(answered) : answered,
        ),
      );
      if (head.length > 0) upstreamSocket.write(head);
      socket.pause();
      socket.off('data', keep);
      socket.off('end', abandon);
      for (const chunk of early) upstreamSocket.write(chunk);
      upstreamSocket.setNoDelay(true);
      tunnel(socket, upstreamSocket, upstreamHead, isBatched);
    });

    // The upstream declined to upgrade (401, 404, …): relay its answer and close.
    upstreamReq.on('response', (upstreamRes) => {
      const rawHeaders = stripRawHeaders(
        upstreamRes.rawHeaders,
        (name) =>
          ['transfer-encoding', 'connection'].includes(name.toLowerCase()) ||
          isOriginPolicyHeader(name),
      );
      socket.write(
        responseHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, [
          ...rawHeaders,
          'Connection',
          'close',
        ]),
      );
      pipeline(upstreamRes, socket, () => {
        // Nothing to do: the connection is closed either way.
      });
    });

    upstreamReq.on('error', (error) => {
      if (socket.destroyed || !socket.writable) return;
      const timedOut = error instanceof UpstreamTimeout;
      const body = JSON.stringify(
        timedOut ? timeoutBody(target, error) : unreachableBody(target, error),
      );
      socket.end(
        responseHead(timedOut ? 504 : 502, timedOut ? 'Gateway Timeout' : 'Bad Gateway', [
          'Content-Type',
          'application/json',
          'Content-Length',
          String(Buffer.byteLength(body)),
          'Connection',
          'close',
        ]) + body,
        // The socket is being read (see above), so closing it fully cannot lose the answer.
        () => socket.destroy(),
      );
    });

    upstreamReq.end();
  }

  /** `upstreamHead`: the participant's first bytes after its 101, read with the answer. */
  function tunnel(
    client: Duplex,
    upstream: Socket,
    upstreamHead: Buffer,
    isBatched: boolean,
  ): void {
    tunnels.add(client).add(upstream);
    const closeBoth = () => {
      tunnels.delete(client);
      tunnels.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('error', closeBoth);
    client.pipe(upstream);
    // The participant's side ends the tunnel once all it sent has been written to the page: closed
    // at the participant's own close, the page's socket could lose what it still held for a slow
    // reader (the stream's last elements and its close frame).
    if (!isBatched) {
      if (upstreamHead.length > 0) client.write(upstreamHead);
      pipeline(upstream, client, closeBoth);
      return;
    }
    // The participant's frames, read and re-sent in batches; a frame that breaks the protocol
    // ends both connections, as a broken tunnel does.
    const batcher = new StreamBatcher();
    if (upstreamHead.length > 0) batcher.write(upstreamHead);
    pipeline(upstream, batcher, client, closeBoth);
  }

  return {
    target,
    handleRequest,
    handleUpgrade,
    close() {
      for (const socket of tunnels) socket.destroy();
      tunnels.clear();
      agent.destroy();
    },
  };
}

/** The error body of a participant that cannot be reached, shaped like the API's own errors. */
export function unreachableBody(target: URL, error: Error & { code?: string }): JsCantonErrorBody {
  const reason = error.code ?? error.message;
  const where = target.href.replace(/\/$/, '');
  return {
    code: 'LEDGER_UNREACHABLE',
    cause: `Ledger Console could not reach the participant at ${where}: ${error.message}`,
    correlationId: null,
    traceId: null,
    context: { target: where, reason },
    resources: [],
    // TransientServerFailure / UNAVAILABLE: the participant may come back, so retrying makes sense.
    errorCategory: 1,
    grpcCodeValue: 14,
    retryInfo: '1 second',
    definiteAnswer: null,
  };
}

/** The error body of a participant that did not connect or answer in time. */
function timeoutBody(target: URL, error: UpstreamTimeout): JsCantonErrorBody {
  const where = target.href.replace(/\/$/, '');
  const connecting = error.phase === 'connect';
  return {
    code: connecting ? 'LEDGER_CONNECT_TIMEOUT' : 'LEDGER_RESPONSE_TIMEOUT',
    cause: `Ledger Console got no ${connecting ? 'connection' : 'answer'} from the participant at ${where} within ${String(error.timeoutMs)} ms`,
    correlationId: null,
    traceId: null,
    context: { target: where, timeoutMs: String(error.timeoutMs) },
    resources: [],
    // Not connected: nothing was sent, so it is transient (UNAVAILABLE). No answer: the request may
    // or may not have taken effect (DeadlineExceededRequestStateUnknown, DEADLINE_EXCEEDED).
    errorCategory: connecting ? 1 : 3,
    grpcCodeValue: connecting ? 14 : 4,
    retryInfo: connecting ? '1 second' : null,
    definiteAnswer: connecting ? null : false,
  };
}

/** A request body over the console's limit, in the API's error shape. */
export function tooLargeBody(limit: number, announced?: number): JsCantonErrorBody {
  const size =
    announced === undefined ? 'The request body' : `The request body of ${String(announced)} bytes`;
  return {
    code: TOO_LARGE_CODE,
    cause: `${size} exceeds the limit of ${String(limit)} bytes`,
    correlationId: null,
    traceId: null,
    context: { limit: String(limit) },
    resources: [],
    // InvalidIndependentOfSystemState / INVALID_ARGUMENT: sending it again will not help.
    errorCategory: 8,
    grpcCodeValue: 3,
    retryInfo: null,
    definiteAnswer: null,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendUnreachable(res: ServerResponse, target: URL, error: Error): void {
  sendJson(res, 502, unreachableBody(target, error));
}

function sendTimeout(res: ServerResponse, target: URL, error: UpstreamTimeout): void {
  sendJson(res, 504, timeoutBody(target, error));
}

function sendTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  announced?: number,
): void {
  sendJson(res, 413, tooLargeBody(limit, announced));
  req.unpipe();
  drainBriefly(req);
}

function parseTarget(targetUrl: string | URL): URL {
  const target = new URL(targetUrl);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new Error(`The ledger URL must be http or https, got ${target.protocol}`);
  }
  if (target.search || target.hash) {
    throw new Error('The ledger URL must not have a query or fragment');
  }
  // Credentials would have to become an Authorization header, which belongs to the user's token.
  if (target.username || target.password) {
    throw new Error('The ledger URL must not contain credentials');
  }
  return target;
}

/** A participant configured with a path prefix serves the API below it; keep the prefix. */
function joinPath(basePath: string, requestPath: string): string {
  const base = basePath.replace(/\/+$/, '');
  return `${base}${requestPath.startsWith('/') ? '' : '/'}${requestPath}`;
}

function forwardHeaders(req: IncomingMessage, target: URL): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(withoutHopByHop(req.headers))) {
    // The participant needs the user's bearer token, never the console's own cookies; and what a
    // client claims about earlier hops is unverifiable, so the console states only its own hop.
    if (name === 'cookie' || name === 'forwarded' || name.startsWith('x-forwarded-')) continue;
    headers[name] = value;
  }
  // Name-based virtual hosting in front of a participant routes on Host, so it must name the target.
  headers.host = target.host;
  const clientAddress = req.socket.remoteAddress;
  if (clientAddress) headers['x-forwarded-for'] = clientAddress;
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  // The console itself only ever serves plain HTTP on loopback.
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

function withoutHopByHop(headers: IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const listed = new Set(
    (headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const result: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    result[name] = value;
  }
  return result;
}

/** The upstream's answer headers as relayed: neither hop-by-hop nor speaking for our origin. */
function answerHeaders(headers: IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(withoutHopByHop(headers)).filter(([name]) => !isOriginPolicyHeader(name)),
  );
}

function stripRawHeaders(
  rawHeaders: readonly string[],
  isDropped: (name: string) => boolean,
): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (!isDropped(name)) result.push(name, rawHeaders[i + 1] ?? '');
  }
  return result;
}

function responseHead(status: number, message: string | undefined, rawHeaders: readonly string[]) {
  const lines = [`HTTP/1.1 ${String(status)} ${message ?? http.STATUS_CODES[status] ?? ''}`];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    lines.push(`${rawHeaders[i] ?? ''}: ${rawHeaders[i + 1] ?? ''}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';

/**
 * A small reverse proxy to one participant's JSON Ledger API, for plain requests and websocket
 * upgrades. Bodies stream in both directions untouched (DAR uploads are binary, list endpoints
 * stream), and headers pass through except hop-by-hop ones. Written on node:http because
 * http-proxy-3 needs Node 22 and http-proxy is unmaintained (docs/architecture.md).
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

export function createLedgerProxy(targetUrl: string | URL): LedgerProxy {
  const target = parseTarget(targetUrl);
  const transport = target.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true });
  const tunnels = new Set<Duplex>();

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
    const upstreamReq = transport.request({
      ...upstreamOptions(req, forwardHeaders(req, target)),
      agent,
    });

    upstreamReq.on('response', (upstreamRes) => {
      res.writeHead(
        upstreamRes.statusCode ?? 502,
        upstreamRes.statusMessage,
        withoutHopByHop(upstreamRes.headers),
      );
      // Headers go out now, before any body: streaming endpoints may be slow to send the first byte.
      res.flushHeaders();
      pipeline(upstreamRes, res, () => {
        // Either side went away mid-body; pipeline has already destroyed both streams.
      });
    });

    upstreamReq.on('error', (error) => {
      if (!res.headersSent) sendUnreachable(res, target, error);
      else res.destroy(error);
    });

    // The client may vanish mid-upload; stop the upstream request rather than leave it hanging.
    pipeline(req, upstreamReq, () => {
      // Errors surface through upstreamReq's 'error' handler above.
    });
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const headers = forwardHeaders(req, target);
    // An upgrade is the one case where Connection/Upgrade must reach the upstream.
    headers.connection = 'Upgrade';
    if (req.headers.upgrade) headers.upgrade = req.headers.upgrade;

    // A dedicated socket: an upgraded connection can never return to a keep-alive pool.
    const upstreamReq = transport.request({ ...upstreamOptions(req, headers), agent: false });

    socket.on('error', () => upstreamReq.destroy());

    upstreamReq.on('upgrade', (upstreamRes, upstreamSocket: Socket, upstreamHead: Buffer) => {
      if (socket.destroyed) {
        upstreamSocket.destroy();
        return;
      }
      socket.write(
        responseHead(
          upstreamRes.statusCode ?? 101,
          upstreamRes.statusMessage,
          upstreamRes.rawHeaders,
        ),
      );
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.setNoDelay(true);
      tunnel(socket, upstreamSocket);
    });

    // The upstream declined to upgrade (401, 404, …): relay its answer and close.
    upstreamReq.on('response', (upstreamRes) => {
      const rawHeaders = stripRawHeaders(upstreamRes.rawHeaders, [
        'transfer-encoding',
        'connection',
      ]);
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
      const body = JSON.stringify(unreachableBody(target, error));
      socket.end(
        responseHead(502, 'Bad Gateway', [
          'Content-Type',
          'application/json',
          'Content-Length',
          String(Buffer.byteLength(body)),
          'Connection',
          'close',
        ]) + body,
      );
    });

    upstreamReq.end();
  }

  function tunnel(client: Duplex, upstream: Socket): void {
    tunnels.add(client).add(upstream);
    const closeBoth = () => {
      tunnels.delete(client);
      tunnels.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
    client.pipe(upstream);
    upstream.pipe(client);
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
export function unreachableBody(target: URL, error: Error & { code?: string }) {
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

function sendUnreachable(res: ServerResponse, target: URL, error: Error): void {
  const body = JSON.stringify(unreachableBody(target, error));
  res.writeHead(502, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
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
  const headers: http.OutgoingHttpHeaders = withoutHopByHop(req.headers);
  // Name-based virtual hosting in front of a participant routes on Host, so it must name the target.
  headers.host = target.host;
  const clientAddress = req.socket.remoteAddress;
  if (clientAddress) {
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${clientAddress}` : clientAddress;
  }
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

function stripRawHeaders(rawHeaders: readonly string[], names: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (!names.includes(name.toLowerCase())) result.push(name, rawHeaders[i + 1] ?? '');
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

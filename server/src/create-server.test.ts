import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { JS_CANTON_ERROR_KEYS, listen } from '../../sandbox/src/testing/index';
import { CONTENT_SECURITY_POLICY, closeServer, createServer } from './create-server';

// ── a real upstream on loopback: plain HTTP routes plus a websocket endpoint ──────────────────

type Echo = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyLength: number;
  bodySha256: string;
};

/** What a participant, or a gateway in front of it, might add; none of it may reach the browser. */
const ORIGIN_POLICY_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Allow-Headers': 'Authorization',
  'Access-Control-Expose-Headers': 'X-Upstream',
  'Content-Security-Policy': "default-src *; script-src * 'unsafe-inline'",
  'Content-Security-Policy-Report-Only': "default-src 'none'",
  'Clear-Site-Data': '"storage"',
};
const DROPPED = [...Object.keys(ORIGIN_POLICY_HEADERS), 'Set-Cookie'].map((name) =>
  name.toLowerCase(),
);
const rawPolicyHeaders = Object.entries({ ...ORIGIN_POLICY_HEADERS, 'Set-Cookie': 'c=3' })
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

let releaseStream: () => void = () => undefined;
let firstUploadChunk: (chunk: string) => void = () => undefined;

function startUpstream() {
  const upstream = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/v2/stream')) {
      // Sends one chunk, then waits for the test: proves the proxy does not buffer responses.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[{"first":true}');
      releaseStream = () => {
        res.end(',{"last":true}]');
      };
      return;
    }
    if (url.startsWith('/v2/upload-stream')) {
      // Answers after the first chunk of the body: proves the proxy does not buffer requests.
      req.once('data', (chunk: Buffer) => {
        firstUploadChunk(chunk.toString());
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('got the first chunk');
        req.resume();
      });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (url.startsWith('/v2/dars')) {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(body);
      } else if (url === '/readyz') {
        res
          .writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' })
          .end('[+] ledger ok (SERVING)\nreadyz check passed\n');
      } else if (url.startsWith('/v2/commands/submit-and-wait')) {
        res
          .writeHead(400, { 'Content-Type': 'text/plain; charset=UTF-8' })
          .end('Invalid value for: body (exhausted input)');
      } else if (url.startsWith('/v2/unknown')) {
        const legacy = {
          errors: [`HttpMethod(GET), uri: ${url}`],
          status: 404,
          ledgerApiError: null,
        };
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(legacy));
      } else {
        const echo: Echo = {
          method: req.method ?? '',
          url,
          headers: req.headers,
          bodyLength: body.length,
          bodySha256: createHash('sha256').update(body).digest('hex'),
        };
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.writeHead(201, 'Created Here', {
          'Content-Type': 'application/json',
          'X-Upstream': 'yes',
          ...ORIGIN_POLICY_HEADERS,
        });
        res.end(JSON.stringify(echo));
      }
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    // Like Canton: the JWT rides in an offered subprotocol, and the server picks `daml.ws.auth`.
    handleProtocols: (protocols) => (protocols.has('daml.ws.auth') ? 'daml.ws.auth' : false),
  });
  wss.on('headers', (headers) => {
    headers.push(...rawPolicyHeaders.split('\r\n').filter(Boolean));
  });
  upstream.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (req.url === '/v2/forbidden') {
      const body = JSON.stringify({
        code: 'NA',
        cause: 'A security-sensitive error has been received',
      });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n${rawPolicyHeaders}Content-Length: ${String(body.length)}\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(
        JSON.stringify({
          url: req.url,
          offeredProtocols: req.headers['sec-websocket-protocol'],
          authorization: req.headers.authorization ?? null,
        }),
      );
      ws.on('message', (data: Buffer, isBinary) => {
        ws.send(isBinary ? data : `echo: ${data.toString()}`, { binary: isBinary });
      });
    });
  });
  return { upstream, wss };
}

async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    probe.close(() => {
      resolve();
    });
  });
  return port;
}

function openSocket(url: string, protocols: string[], headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, protocols, { headers });
  const messages: (string | Buffer)[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    messages.push(isBinary ? data : data.toString());
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    ws,
    opened: new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        resolve();
      });
      ws.once('error', reject);
    }),
    async nextMessage(): Promise<string | Buffer> {
      while (messages.length === 0) {
        await new Promise<void>((wake) => {
          waiters.push(wake);
        });
      }
      const next = messages.shift();
      if (next === undefined) throw new Error('woken without a message');
      return next;
    },
  };
}

function rejectedStatus(
  url: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      reject(new Error('the upgrade was expected to fail'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    ws.once('error', () => undefined);
  });
}

// ── fixtures ─────────────────────────────────────────────────────────────────────────────────

let distDir: string;
let upstream: http.Server;
let wss: WebSocketServer;
let upstreamUrl: string;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'ledger-console-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Ledger Console</title>');
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log("app")');
  await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

  ({ upstream, wss } = startUpstream());
  upstreamUrl = await listen(upstream);
  server = createServer({ distDir, ledgerUrl: upstreamUrl });
  baseUrl = await listen(server);
});

afterAll(async () => {
  await closeServer(server);
  wss.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => {
    upstream.close(() => {
      resolve();
    });
  });
  await rm(distDir, { recursive: true, force: true });
});

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────────

describe('proxying HTTP to the ledger', () => {
  it('forwards a GET with its path, query and Authorization header', async () => {
    const response = await fetch(`${baseUrl}/v2/users?pageSize=2&pageToken=a%2Fb`, {
      headers: { Authorization: 'Bearer token-1', 'X-Custom': 'kept' },
    });
    const echo = (await response.json()) as Echo;

    expect(echo.method).toBe('GET');
    expect(echo.url).toBe('/v2/users?pageSize=2&pageToken=a%2Fb');
    expect(echo.headers.authorization).toBe('Bearer token-1');
    expect(echo.headers['x-custom']).toBe('kept');
    expect(echo.headers.host).toBe(new URL(upstreamUrl).host);
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('drops hop-by-hop headers, including those the Connection header names', async () => {
    // fetch() refuses to set Connection, so speak plain node:http here.
    const echo = await new Promise<Echo>((resolve, reject) => {
      const req = http.request(`${baseUrl}/v2/users`, {
        headers: {
          Connection: 'keep-alive, X-Hop-Secret',
          'X-Hop-Secret': 'must not leave the proxy',
          'Proxy-Authorization': 'Basic c2VjcmV0',
          'X-End-To-End': 'kept',
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          resolve(JSON.parse(body) as Echo);
        });
      });
      req.on('error', reject);
      req.end();
    });

    expect(echo.headers['x-end-to-end']).toBe('kept');
    expect(echo.headers).not.toHaveProperty('x-hop-secret');
    expect(echo.headers).not.toHaveProperty('proxy-authorization');
  });

  it('forwards a POST with its JSON body', async () => {
    const body = JSON.stringify({ user: { id: 'alice' }, rights: [] });
    const response = await fetch(`${baseUrl}/v2/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    const echo = (await response.json()) as Echo;

    expect(echo.method).toBe('POST');
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.bodyLength).toBe(Buffer.byteLength(body));
    expect(echo.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('passes the upstream status, status text and headers back', async () => {
    const response = await fetch(`${baseUrl}/v2/parties`);

    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Created Here');
    expect(response.headers.get('x-upstream')).toBe('yes');
  });

  it('drops CORS grants, cookies and the policy headers of the answer, and sets its own CSP', async () => {
    const response = await fetch(`${baseUrl}/v2/parties`);

    for (const name of DROPPED.filter((name) => name !== 'content-security-policy')) {
      expect(response.headers.get(name), name).toBeNull();
    }
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('keeps a binary body intact both ways', async () => {
    const dar = randomBytes(3 * 1024 * 1024 + 17);
    const response = await fetch(`${baseUrl}/v2/dars?vetAllPackages=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: dar,
    });

    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(dar)).toBe(true);
  });

  it('passes a text/plain 400 through unchanged', async () => {
    const response = await fetch(`${baseUrl}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '',
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await response.text()).toBe('Invalid value for: body (exhausted input)');
  });

  it('sends unknown /v2 paths to the ledger, not to the SPA', async () => {
    const response = await fetch(`${baseUrl}/v2/unknown/thing`);

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: ['HttpMethod(GET), uri: /v2/unknown/thing'],
      status: 404,
      ledgerApiError: null,
    });
  });

  it('proxies the health endpoints', async () => {
    const ready = await fetch(`${baseUrl}/readyz`);
    const live = (await (await fetch(`${baseUrl}/livez`)).json()) as Echo;

    expect(await ready.text()).toBe('[+] ledger ok (SERVING)\nreadyz check passed\n');
    expect(live.url).toBe('/livez');
  });

  it('streams the response: the first chunk arrives before the upstream has finished', async () => {
    const response = await fetch(`${baseUrl}/v2/stream`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();

    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('[{"first":true}');

    releaseStream();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value);
    }
    expect(rest).toBe(',{"last":true}]');
  });

  it('streams the request: the upstream sees the first chunk before the upload has finished', async () => {
    const firstChunkSeen = new Promise<string>((resolve) => {
      firstUploadChunk = resolve;
    });
    let finishUpload: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part one'));
        finishUpload = () => {
          controller.close();
        };
      },
    });
    const responsePromise = fetch(`${baseUrl}/v2/upload-stream`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);

    expect(await firstChunkSeen).toBe('part one');
    finishUpload();
    expect(await (await responsePromise).text()).toBe('got the first chunk');
  });

  it('keeps a path prefix of the ledger URL', async () => {
    const prefixed = createServer({ distDir, ledgerUrl: `${upstreamUrl}/api/json/` });
    const prefixedUrl = await listen(prefixed);
    try {
      const echo = (await (await fetch(`${prefixedUrl}/v2/version?x=1`)).json()) as Echo;
      expect(echo.url).toBe('/api/json/v2/version?x=1');
    } finally {
      await closeServer(prefixed);
    }
  });
});

describe('a console of one participant', () => {
  it('lists it as the default participant, named participant, also at its prefix', async () => {
    const listed = (await (await fetch(`${baseUrl}/__console/participants`)).json()) as unknown;
    expect(listed).toEqual({
      participants: [
        {
          name: 'participant',
          apiPath: '/participants/participant',
          pagePath: '/p/participant',
          default: true,
        },
      ],
    });
    const echo = (await (
      await fetch(`${baseUrl}/participants/participant/v2/users?pageSize=2`)
    ).json()) as Echo;
    // The participant gets the API's own path: the console's prefix stays with the console.
    expect(echo.url).toBe('/v2/users?pageSize=2');

    const socket = openSocket(
      `${baseUrl.replace('http', 'ws')}/participants/participant/v2/updates`,
      ['daml.ws.auth'],
    );
    await socket.opened;
    expect(JSON.parse(String(await socket.nextMessage()))).toMatchObject({ url: '/v2/updates' });
    socket.ws.close();
  });
});

describe('when the ledger is unreachable', () => {
  it('answers 502 with a JsCantonError-shaped body naming the target', async () => {
    const deadLedger = `http://127.0.0.1:${String(await unusedPort())}`;
    const orphan = createServer({ distDir, ledgerUrl: deadLedger });
    const orphanUrl = await listen(orphan);
    try {
      const response = await fetch(`${orphanUrl}/v2/version`);
      const body = (await response.json()) as Record<string, unknown>;

      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(body).toMatchObject({
        code: 'LEDGER_UNREACHABLE',
        errorCategory: 1,
        grpcCodeValue: 14,
        context: { target: deadLedger, reason: 'ECONNREFUSED' },
      });
      expect(body.cause).toContain(deadLedger);
      expect(Object.keys(body)).toEqual(JS_CANTON_ERROR_KEYS);

      const upgrade = await rejectedStatus(`${orphanUrl.replace('http', 'ws')}/v2/updates`);
      expect(upgrade.status).toBe(502);
      expect(JSON.parse(upgrade.body)).toMatchObject({ code: 'LEDGER_UNREACHABLE' });
    } finally {
      await closeServer(orphan);
    }
  });
});

// ── websockets ──────────────────────────────────────────────────────────────────────────────

describe('proxying websockets to the ledger', () => {
  it('upgrades with the offered subprotocols and relays messages both ways', async () => {
    const socket = openSocket(`${baseUrl.replace('http', 'ws')}/v2/updates?limit=5`, [
      'jwt.token.abc',
      'daml.ws.auth',
    ]);
    await socket.opened;

    expect(socket.ws.protocol).toBe('daml.ws.auth');
    expect(JSON.parse(String(await socket.nextMessage()))).toEqual({
      url: '/v2/updates?limit=5',
      // Exactly as the client sent it (ws joins offers with a bare comma).
      offeredProtocols: 'jwt.token.abc,daml.ws.auth',
      authorization: null,
    });

    socket.ws.send('{"beginExclusive":0}');
    expect(await socket.nextMessage()).toBe('echo: {"beginExclusive":0}');

    const binary = randomBytes(70_000);
    socket.ws.send(binary);
    expect(Buffer.from(await socket.nextMessage()).equals(binary)).toBe(true);

    socket.ws.close();
  });

  it('forwards an Authorization header on the upgrade request', async () => {
    const socket = openSocket(
      `${baseUrl.replace('http', 'ws')}/v2/state/active-contracts`,
      ['daml.ws.auth'],
      {
        Authorization: 'Bearer token-2',
      },
    );
    await socket.opened;

    expect(JSON.parse(String(await socket.nextMessage()))).toMatchObject({
      authorization: 'Bearer token-2',
    });
    socket.ws.close();
  });

  it('relays the ledger refusing an upgrade, without CORS grants, cookies or policies', async () => {
    const refused = await rejectedStatus(`${baseUrl.replace('http', 'ws')}/v2/forbidden`);

    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'NA' });
    expect(refused.headers['content-type']).toBe('application/json');
    for (const name of DROPPED) expect(refused.headers[name], name).toBeUndefined();
  });

  it('relays the upgrade answer without CORS grants, cookies or policies', async () => {
    const socket = openSocket(`${baseUrl.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
    const upgrade = new Promise<http.IncomingHttpHeaders>((resolve) => {
      socket.ws.once('upgrade', (response: IncomingMessage) => {
        resolve(response.headers);
      });
    });
    await socket.opened;
    const headers = await upgrade;

    expect(headers['sec-websocket-protocol']).toBe('daml.ws.auth');
    for (const name of DROPPED) expect(headers[name], name).toBeUndefined();
    socket.ws.close();
  });

  it('refuses upgrades outside the ledger paths', async () => {
    const refused = await rejectedStatus(`${baseUrl.replace('http', 'ws')}/users/alice`);

    expect(refused.status).toBe(404);
  });

  it('ends open tunnels when the server closes', async () => {
    const closing = createServer({ distDir, ledgerUrl: upstreamUrl });
    const closingUrl = await listen(closing);
    const socket = openSocket(`${closingUrl.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
    await socket.opened;
    const closed = new Promise<void>((resolve) => {
      socket.ws.once('close', () => {
        resolve();
      });
    });

    await closeServer(closing);

    await closed;
    expect(socket.ws.readyState).toBe(WebSocket.CLOSED);
  });
});

// ── the SPA ─────────────────────────────────────────────────────────────────────────────────

describe('serving the SPA', () => {
  it('answers client-side routes with index.html', async () => {
    for (const route of ['/', '/users/alice', '/users/alice.smith', '/parties/alice::1220ab']) {
      const response = await fetch(`${baseUrl}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type'), route).toContain('text/html');
      expect(response.headers.get('cache-control'), route).toBe('no-cache');
      expect(await response.text(), route).toContain('<title>Ledger Console</title>');
    }
  });

  it('serves static files, fingerprinted assets as immutable', async () => {
    const asset = await fetch(`${baseUrl}/assets/index-abc123.js`);
    const icon = await fetch(`${baseUrl}/favicon.svg`);

    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('answers a missing asset with 404 rather than index.html', async () => {
    const response = await fetch(`${baseUrl}/assets/index-old999.js`);

    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Not Found');
  });

  it('refuses writes to page paths', async () => {
    const response = await fetch(`${baseUrl}/users/alice`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

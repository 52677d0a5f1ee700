import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/index';
import {
  JS_CANTON_ERROR_KEYS,
  listen,
  send,
  type SentResponse,
} from '../../sandbox/src/testing/index';
import { CONTENT_SECURITY_POLICY, closeServer, createServer } from './create-server';

// The request guard in front of the console (ADR 010), against a loopback upstream that records
// every request and handshake it receives, and against a real sandbox in jwt mode.

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders };

const seen: Seen[] = [];

function startRecordingUpstream() {
  const upstream = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  upstream.on('upgrade', (req, socket, head) => {
    seen.push({ method: 'UPGRADE', url: req.url ?? '', headers: req.headers });
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ origin: req.headers.origin ?? null }));
    });
  });
  return { upstream, wss };
}

/** Opens a websocket; resolves with its first message, or with the status of a refusal. */
function handshake(
  url: string,
  headers: Record<string, string>,
): Promise<{ opened: true; message: string } | { opened: false; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5000 });
    ws.once('message', (data: Buffer) => {
      resolve({ opened: true, message: data.toString() });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        resolve({ opened: false, status: res.statusCode ?? 0, body });
      });
    });
    ws.once('error', reject);
  });
}

function errorBody(response: SentResponse) {
  expect(response.headers['content-type']).toBe('application/json');
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(JS_CANTON_ERROR_KEYS);
  return body;
}

let distDir: string;
let upstream: http.Server;
let wss: WebSocketServer;
let server: http.Server;
let baseUrl: string;
let host: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'ledger-console-guard-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Ledger Console</title>');
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log("app")');
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js.map'), '{"version":3}');
  ({ upstream, wss } = startRecordingUpstream());
  const upstreamUrl = await listen(upstream);
  // As with --ledger: no /__sandbox prefix, so those paths must never reach the upstream.
  server = createServer({ distDir, ledgerUrl: upstreamUrl });
  baseUrl = await listen(server);
  host = new URL(baseUrl).host;
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

const createUser = JSON.stringify({
  user: { id: 'mallory', primaryParty: '', isDeactivated: false, identityProviderId: '' },
  rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
});

describe('writes through the console', () => {
  it('refuses a POST from a foreign origin before it reaches the participant', async () => {
    seen.length = 0;
    const response = await send(baseUrl, {
      method: 'POST',
      path: '/v2/users',
      headers: {
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
        'Content-Type': 'application/json',
      },
      body: createUser,
    });

    expect(response.status).toBe(403);
    expect(errorBody(response)).toMatchObject({
      code: 'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST',
      context: { origin: 'https://evil.example', secFetchSite: 'cross-site' },
    });
    expect(seen).toEqual([]);
  });

  it.each([
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ])('refuses %s with a 415, whatever the origin', async (contentType) => {
    seen.length = 0;
    const response = await send(baseUrl, {
      method: 'POST',
      path: '/v2/users',
      headers: { 'Content-Type': contentType },
      body: createUser,
    });

    expect(response.status).toBe(415);
    expect(errorBody(response).code).toBe('LEDGER_CONSOLE_UNSUPPORTED_CONTENT_TYPE');
    expect(seen).toEqual([]);
  });

  it("passes the console's own page's POST on, without the page's Origin", async () => {
    seen.length = 0;
    const response = await send(baseUrl, {
      method: 'POST',
      path: '/v2/users',
      headers: {
        Origin: baseUrl,
        'Sec-Fetch-Site': 'same-origin',
        'Sec-Fetch-Mode': 'cors',
        'Content-Type': 'application/json',
      },
      body: createUser,
    });

    expect(response.status).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers).not.toHaveProperty('origin');
    expect(seen[0]?.headers).not.toHaveProperty('sec-fetch-site');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('passes on curl-like requests: no Origin, no Content-Type, octet-stream uploads', async () => {
    seen.length = 0;
    const plain = await send(baseUrl, { method: 'POST', path: '/v2/users', body: createUser });
    const fromNodeFetch = await fetch(`${baseUrl}/v2/dars`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array([80, 75, 3, 4]),
    });

    expect(plain.status).toBe(200);
    expect(fromNodeFetch.status).toBe(200);
    expect(seen.map((request) => request.url)).toEqual(['/v2/users', '/v2/dars']);
  });
});

describe('the Host header', () => {
  it('refuses a foreign Host (DNS rebinding), even for a GET of the SPA', async () => {
    for (const target of ['/', '/v2/users']) {
      const response = await send(baseUrl, {
        path: target,
        headers: { Host: 'rebound.evil.example' },
      });

      expect(response.status, target).toBe(403);
      expect(errorBody(response), target).toMatchObject({
        code: 'LEDGER_CONSOLE_HOST_NOT_ALLOWED',
        context: { host: 'rebound.evil.example' },
      });
    }
  });

  it('accepts loopback names on any port', async () => {
    for (const name of ['localhost:1234', host, '[::1]']) {
      const response = await send(baseUrl, { path: '/', headers: { Host: name } });
      expect(response.status, name).toBe(200);
    }
  });

  it('accepts the names a deployment allows', async () => {
    const deployed = createServer({
      distDir,
      ledgerUrl: 'http://127.0.0.1:1',
      allowedHosts: ['console.example.com'],
    });
    const deployedUrl = await listen(deployed);
    try {
      const allowed = await send(deployedUrl, {
        path: '/',
        headers: { Host: 'console.example.com' },
      });
      const other = await send(deployedUrl, { path: '/', headers: { Host: 'other.example.com' } });

      expect(allowed.status).toBe(200);
      expect(other.status).toBe(403);
    } finally {
      await closeServer(deployed);
    }
  });
});

describe('paths', () => {
  it.each([
    '/v2/../__sandbox/tokens',
    '/v2/%2e%2e/__sandbox/tokens',
    '/v2/%2E%2E/__sandbox/tokens',
    '/v2/users/.%2e/.%2E/__sandbox/tokens',
    '/v2/x%2F..%2F..%2F__sandbox/tokens',
    '/v2/..%2F__sandbox/tokens',
    '/v2\\..\\__sandbox/tokens',
    '/readyz/..',
  ])('refuses %s with a 400 before deciding where it goes', async (target) => {
    seen.length = 0;
    for (const method of ['GET', 'POST']) {
      const response = await send(baseUrl, {
        method,
        path: target,
        headers: { 'Content-Type': 'application/json' },
        body: method === 'POST' ? '{"userId":"participant_admin"}' : undefined,
      });

      expect(response.status, `${method} ${target}`).toBe(400);
      expect(errorBody(response)).toMatchObject({
        code: 'LEDGER_CONSOLE_INVALID_PATH',
        context: { path: target },
      });
    }
    expect(seen).toEqual([]);
  });

  it('proxies ordinary paths unchanged, dots inside segments included', async () => {
    seen.length = 0;
    const response = await send(baseUrl, { path: '/v2/users/alice...smith?pageToken=a%2Fb' });

    expect(response.status).toBe(200);
    expect(seen.map((request) => request.url)).toEqual(['/v2/users/alice...smith?pageToken=a%2Fb']);
  });

  it('proxies an IdP id holding a slash (a LedgerString may), encoded as the SPA sends it', async () => {
    seen.length = 0;
    const response = await send(baseUrl, { path: '/v2/idps/corp%2Feu' });

    expect(response.status).toBe(200);
    expect(seen.map((request) => request.url)).toEqual(['/v2/idps/corp%2Feu']);
  });
});

describe('websocket handshakes', () => {
  const wsUrl = () => `${baseUrl.replace('http', 'ws')}/v2/updates`;

  it('refuses a handshake from a foreign origin before it reaches the participant', async () => {
    seen.length = 0;
    const result = await handshake(wsUrl(), { Origin: 'https://evil.example' });

    expect(result).toMatchObject({ opened: false, status: 403 });
    expect(JSON.parse(result.opened ? '' : result.body)).toMatchObject({
      code: 'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST',
    });
    expect(seen).toEqual([]);
  });

  it('refuses a handshake naming a foreign Host', async () => {
    const result = await handshake(wsUrl(), { Host: 'rebound.evil.example', Origin: baseUrl });

    expect(result).toMatchObject({ opened: false, status: 403 });
  });

  it("opens the console's own page's handshake, without the page's Origin upstream", async () => {
    const result = await handshake(wsUrl(), { Origin: baseUrl });

    expect(result).toEqual({ opened: true, message: '{"origin":null}' });
  });
});

describe("the console's own endpoints", () => {
  // The recording upstream answers 200 to a tokenless GET /v2/idps, like a participant without
  // auth: the discovery endpoint then acts for anyone, so only the guard stands in the way.
  const discovery = `/__console/oidc-discovery?issuer=${encodeURIComponent('http://127.0.0.1:1/realm')}`;

  it.each([
    ['another site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a sibling on another port', { 'Sec-Fetch-Site': 'same-site' }],
    ['a page elsewhere, by Origin', { Origin: 'https://evil.example' }],
  ])('refuses a GET from %s before the server acts on it', async (_who, headers) => {
    seen.length = 0;
    const response = await send(baseUrl, { path: discovery, headers });

    expect(response.status).toBe(403);
    expect(errorBody(response).code).toBe('LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST');
    expect(seen).toEqual([]);
    const providers = await send(baseUrl, { path: '/__console/sign-in-providers', headers });
    expect(providers.status).toBe(403);
  });

  it("answers the console's own page, a typed URL and clients without a browser", async () => {
    const callers: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' },
      { 'Sec-Fetch-Site': 'same-origin', Origin: baseUrl },
      { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' },
      {},
    ];
    for (const headers of callers) {
      seen.length = 0;
      const providers = await send(baseUrl, { path: '/__console/sign-in-providers', headers });
      expect(providers.status).toBe(200);
      expect(JSON.parse(providers.body)).toEqual({ providers: [] });
      // Acted on: the participant was asked, then the (unreachable) issuer.
      const response = await send(baseUrl, { path: discovery, headers });
      expect(errorBody(response).code).toBe('LEDGER_CONSOLE_DISCOVERY_UNREACHABLE');
      expect(seen.map((request) => request.url)).toEqual(['/v2/idps']);
    }
  });

  it('still lets any page GET the SPA and the ledger paths, whose answers it cannot read', async () => {
    const headers = { 'Sec-Fetch-Site': 'cross-site' };
    expect((await send(baseUrl, { path: '/users/alice', headers })).status).toBe(200);
    expect((await send(baseUrl, { path: '/livez', headers })).status).toBe(200);
  });
});

describe('the SPA', () => {
  it('ships a Content-Security-Policy with index.html, also for client-side routes', async () => {
    for (const route of ['/', '/index.html', '/users/alice']) {
      const response = await send(baseUrl, { path: route, headers: { Host: host } });

      expect(response.headers['content-security-policy'], route).toBe(CONTENT_SECURITY_POLICY);
    }
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('does not serve source maps unless asked to', async () => {
    const hidden = await send(baseUrl, { path: '/assets/index-abc123.js.map' });
    const withMaps = createServer({
      distDir,
      ledgerUrl: 'http://127.0.0.1:1',
      serveSourceMaps: true,
    });
    const withMapsUrl = await listen(withMaps);
    try {
      const shown = await send(withMapsUrl, { path: '/assets/index-abc123.js.map' });

      expect(hidden.status).toBe(404);
      expect(shown.status).toBe(200);
      expect(shown.body).toBe('{"version":3}');
    } finally {
      await closeServer(withMaps);
    }
  });
});

describe('with the embedded sandbox in jwt mode', () => {
  let sandbox: RunningSandbox;
  let console_: http.Server;
  let consoleUrl: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, auth: 'jwt', seed: 'none' });
    console_ = createServer({
      distDir,
      ledgerUrl: sandbox.url,
      extraProxyPrefixes: ['/__sandbox'],
    });
    consoleUrl = await listen(console_);
  });

  afterAll(async () => {
    await closeServer(console_);
    await sandbox.close();
  });

  const mint = (headers: Record<string, string>) =>
    send(consoleUrl, {
      method: 'POST',
      path: '/__sandbox/tokens',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: '{"userId":"participant_admin"}',
    });

  it('refuses to mint tokens for a foreign Host', async () => {
    const response = await mint({ Host: 'rebound.evil.example' });

    expect(response.status).toBe(403);
    expect(response.body).not.toContain('token"');
    expect(errorBody(response).code).toBe('LEDGER_CONSOLE_HOST_NOT_ALLOWED');
  });

  it('refuses to mint tokens for a foreign page', async () => {
    const response = await mint({ Origin: 'https://evil.example' });

    expect(response.status).toBe(403);
    expect(errorBody(response).code).toBe('LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST');
  });

  it("mints for the console's own page, through the sandbox's own guard", async () => {
    const response = await mint({ Origin: consoleUrl, 'Sec-Fetch-Site': 'same-origin' });

    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ userId: 'participant_admin' });
  });
});

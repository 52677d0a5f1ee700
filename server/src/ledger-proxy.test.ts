import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bodyOf, rawExchange } from '../../sandbox/src/testing/index';
import { createLedgerProxy, type LedgerProxyOptions } from './ledger-proxy';

type Seen = {
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyBytes: number;
  complete: boolean;
};

/** A loopback upstream that records what reaches it; `/v2/hang` and upgrades never answer. */
function startUpstream() {
  const seen: Seen[] = [];
  const hanging = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const entry: Seen = { url: req.url ?? '', headers: req.headers, bodyBytes: 0, complete: false };
    seen.push(entry);
    req.on('data', (chunk: Buffer) => {
      entry.bodyBytes += chunk.length;
    });
    req.on('end', () => {
      entry.complete = true;
      if (req.url === '/v2/hang') return;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: net.Socket) => {
    // Never answers the handshake: the proxy's upstream request stays pending until destroyed.
    hanging.add(socket);
    seen.push({ url: req.url ?? '', headers: req.headers, bodyBytes: 0, complete: false });
    // Read, so that the proxy hanging up is noticed.
    socket.resume();
    // An http.Server allows half-open sockets: the proxy's end arrives as 'end', not 'close'.
    socket.on('end', () => socket.destroy());
    socket.on('close', () => {
      hanging.delete(socket);
    });
  });
  return { server, seen, hanging };
}

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startProxy(upstreamUrl: string, options: LedgerProxyOptions) {
  const proxy = createLedgerProxy(upstreamUrl, options);
  const server = http.createServer((req, res) => {
    proxy.handleRequest(req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    proxy.handleUpgrade(req, socket, head);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: async () => {
      proxy.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

const until = async (condition: () => boolean, timeoutMs = 3000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('ledger proxy limits', () => {
  const upstream = startUpstream();
  let upstreamUrl = '';
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    upstreamUrl = `http://127.0.0.1:${String(await listen(upstream.server))}`;
    proxy = await startProxy(upstreamUrl, {
      maxRequestBytes: 1024,
      maxDarBytes: 4096,
      responseTimeoutMs: 300,
    });
  });
  afterAll(async () => {
    await proxy.close();
    for (const socket of upstream.hanging) socket.destroy();
    upstream.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      upstream.server.close(() => {
        resolve();
      }),
    );
  });
  afterEach(() => {
    upstream.seen.length = 0;
  });

  it('refuses a body announced over the limit without contacting the participant', async () => {
    const { response, elapsedMs } = await rawExchange(
      proxy.url,
      'POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000000000000\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(bodyOf(response))).toEqual({
      code: 'REQUEST_ENTITY_TOO_LARGE',
      cause: 'The request body of 1000000000000 bytes exceeds the limit of 1024 bytes',
      correlationId: null,
      traceId: null,
      context: { limit: '1024' },
      resources: [],
      errorCategory: 8,
      grpcCodeValue: 3,
      retryInfo: null,
      definiteAnswer: null,
    });
    expect(elapsedMs).toBeLessThan(2000);
    expect(upstream.seen).toEqual([]);
  });

  it('lets DAR uploads through up to their own, larger limit', async () => {
    const upload = (path: string, bytes: number) =>
      fetch(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      });
    expect((await upload('/v2/dars', 3000)).status).toBe(200);
    expect((await upload('/v2/packages', 3000)).status).toBe(200);
    expect((await upload('/v2/dars/validate?synchronizerId=x', 5000)).status).toBe(413);
    expect((await upload('/v2/parties', 3000)).status).toBe(413);
  });

  it('cuts a chunked body once it passes the limit, and the upstream request with it', async () => {
    const chunk = 'x'.repeat(700);
    const { response } = await rawExchange(
      proxy.url,
      'POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n' +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(bodyOf(response))).toMatchObject({
      code: 'REQUEST_ENTITY_TOO_LARGE',
      cause: 'The request body exceeds the limit of 1024 bytes',
    });
    // The participant saw at most what came before the limit, and never a complete request.
    await until(() => upstream.seen.length === 0 || upstream.seen[0]?.bodyBytes !== undefined);
    expect(upstream.seen.every((seen) => !seen.complete && seen.bodyBytes <= 1024)).toBe(true);
  });

  it('answers 504 when the participant accepts but never answers', async () => {
    const started = performance.now();
    const response = await fetch(`${proxy.url}/v2/hang`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({
      code: 'LEDGER_RESPONSE_TIMEOUT',
      cause: `Ledger Console got no answer from the participant at ${upstreamUrl} within 300 ms`,
      errorCategory: 3,
      grpcCodeValue: 4,
      definiteAnswer: false,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('replaces what the client says about earlier hops, and never forwards cookies', async () => {
    await fetch(`${proxy.url}/v2/users`, {
      headers: {
        Cookie: 'session=secret',
        'X-Forwarded-For': '203.0.113.9',
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Port': '443',
        Forwarded: 'for=203.0.113.9',
        Authorization: 'Bearer user-token',
      },
    });
    const [seen] = upstream.seen;
    expect(seen?.headers.cookie).toBeUndefined();
    expect(seen?.headers.forwarded).toBeUndefined();
    expect(seen?.headers['x-forwarded-port']).toBeUndefined();
    expect(seen?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen?.headers['x-forwarded-host']).toBe(new URL(proxy.url).host);
    expect(seen?.headers['x-forwarded-proto']).toBe('http');
    expect(seen?.headers.authorization).toBe('Bearer user-token');
  });

  it('destroys the upstream handshake when the client leaves before it is answered', async () => {
    const proxyWithoutTimeout = await startProxy(upstreamUrl, {});
    try {
      const client = net.connect(Number(new URL(proxyWithoutTimeout.url).port), '127.0.0.1');
      client.on('error', () => undefined);
      client.write(
        'GET /v2/updates HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      await until(() => upstream.hanging.size === 1);
      client.destroy();
      await until(() => upstream.hanging.size === 0);
    } finally {
      await proxyWithoutTimeout.close();
    }
  });

  it('drops a client that floods a handshake the participant has not answered yet', async () => {
    const patient = await startProxy(upstreamUrl, { responseTimeoutMs: 5000 });
    try {
      const client = net.connect(Number(new URL(patient.url).port), '127.0.0.1');
      client.on('error', () => undefined);
      const closed = new Promise((resolve) => client.once('close', resolve));
      client.write(
        'GET /v2/updates HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      await until(() => upstream.hanging.size === 1);
      // Well before the 5 s response timeout: the close comes from the flood.
      const started = performance.now();
      client.write(Buffer.alloc(128 * 1024));
      await closed;
      expect(performance.now() - started).toBeLessThan(2000);
      await until(() => upstream.hanging.size === 0);
    } finally {
      await patient.close();
    }
  });

  it('answers a handshake the participant never answers with 504', async () => {
    const outcome = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/v2/updates`);
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      ws.on('error', () => undefined);
    });
    expect(outcome.status).toBe(504);
    expect(JSON.parse(outcome.body)).toMatchObject({ code: 'LEDGER_RESPONSE_TIMEOUT' });
  });
});

describe('ledger proxy connect timeout', () => {
  it('answers 504 when the participant does not accept the connection in time', async () => {
    // A listener whose thread is blocked never accepts: once its backlog is full, the kernel
    // drops further SYNs and a connect hangs (loopback only, unblocked within 5 s at most).
    const lock = new Int32Array(new SharedArrayBuffer(4));
    const listener = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         parentPort.postMessage(server.address().port);
         Atomics.wait(workerData.lock, 0, 0, 5000);
         process.exit(0);
       });`,
      { eval: true, workerData: { lock } },
    );
    const fillers: net.Socket[] = [];
    try {
      const port = await new Promise<number>((resolve) => listener.once('message', resolve));
      // Fill the backlog: these complete at TCP level without ever being accepted.
      for (let i = 0; i < 2; i++) {
        const socket = net.connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        fillers.push(socket);
      }
      const proxy = await startProxy(`http://127.0.0.1:${String(port)}`, {
        connectTimeoutMs: 300,
      });
      try {
        const started = performance.now();
        const response = await fetch(`${proxy.url}/v2/version`);
        expect(response.status).toBe(504);
        expect(await response.json()).toMatchObject({
          code: 'LEDGER_CONNECT_TIMEOUT',
          errorCategory: 1,
          grpcCodeValue: 14,
          retryInfo: '1 second',
        });
        expect(performance.now() - started).toBeLessThan(3000);
      } finally {
        await proxy.close();
      }
    } finally {
      for (const socket of fillers) socket.destroy();
      Atomics.store(lock, 0, 1);
      Atomics.notify(lock, 0);
      await listener.terminate();
    }
  });
});

/**
 * An upstream that serves one request per connection, then resets the connection when the proxy
 * reuses it: what a participant's keep-alive timeout does at the wrong moment.
 */
async function resettingUpstream(answerAfterMs = 0, keepAliveHint?: string) {
  const served = new WeakSet<net.Socket>();
  const counts = { resets: 0 };
  const upstream = http.createServer((req, res) => {
    if (served.has(req.socket)) {
      counts.resets += 1;
      req.socket.resetAndDestroy();
      return;
    }
    served.add(req.socket);
    setTimeout(() => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        Connection: 'keep-alive',
        ...(keepAliveHint === undefined ? {} : { 'Keep-Alive': keepAliveHint }),
      });
      res.end(JSON.stringify({ path: req.url, method: req.method }));
    }, answerAfterMs);
  });
  const port = await listen(upstream);
  return {
    url: `http://127.0.0.1:${String(port)}`,
    counts,
    close: async () => {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) =>
        upstream.close(() => {
          resolve();
        }),
      );
    },
  };
}

describe('ledger proxy keep-alive', () => {
  it('sends a read again when the participant closed the pooled socket it was sent on', async () => {
    const upstream = await resettingUpstream();
    const proxy = await startProxy(upstream.url, {});
    try {
      const first = await fetch(`${proxy.url}/v2/users`);
      expect(first.status).toBe(200);
      const second = await fetch(`${proxy.url}/v2/users?pageSize=1000`);
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual({ path: '/v2/users?pageSize=1000', method: 'GET' });
      expect(upstream.counts.resets).toBe(1);

      // A write is never sent twice: the participant may have acted on it. (The read before it
      // leaves a pooled connection for it: the retry above took a connection of its own.)
      expect((await fetch(`${proxy.url}/v2/users`)).status).toBe(200);
      const write = await fetch(`${proxy.url}/v2/users`, { method: 'POST', body: '{}' });
      expect(write.status).toBe(502);
      expect(await write.json()).toMatchObject({ code: 'LEDGER_UNREACHABLE' });
      expect(upstream.counts.resets).toBe(2);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('sends the read again on a new connection, not on another pooled one closed as well', async () => {
    // Every pooled socket is gone at once, as after the participant's keep-alive timeout. Slow
    // answers, so that two reads at once take two connections.
    const upstream = await resettingUpstream(50);
    const proxy = await startProxy(upstream.url, {});
    try {
      const both = await Promise.all([
        fetch(`${proxy.url}/v2/users?one`),
        fetch(`${proxy.url}/v2/users?two`),
      ]);
      expect(both.map((response) => response.status)).toEqual([200, 200]);
      const third = await fetch(`${proxy.url}/v2/users?three`);
      expect(third.status).toBe(200);
      expect(await third.json()).toEqual({ path: '/v2/users?three', method: 'GET' });
      expect(upstream.counts.resets).toBe(1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('closes a pooled connection before the participant’s keep-alive timeout, so a write is not lost', async () => {
    // The participant says it keeps an idle connection 2 s; this one resets any it is sent again.
    const upstream = await resettingUpstream(0, 'timeout=2');
    const proxy = await startProxy(upstream.url, {});
    try {
      const first = await fetch(`${proxy.url}/v2/users`, { method: 'POST', body: '{}' });
      expect(first.status).toBe(200);
      // Past the proxy's own idle limit for it (2 s less a second), within the participant's.
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const second = await fetch(`${proxy.url}/v2/users`, { method: 'POST', body: '{}' });
      expect(second.status).toBe(200);
      expect(upstream.counts.resets).toBe(0);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

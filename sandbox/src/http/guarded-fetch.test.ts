import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSandbox } from '../create-sandbox';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { send } from '../testing/raw-http';
import { guardFetch } from './guarded-fetch';

// The sandbox's own server (`npm run sandbox`) behind the request guard (ADR 010), over real HTTP
// on loopback.

function handshake(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['daml.ws.auth'], { headers, handshakeTimeout: 5000 });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

const userBody = (id: string) =>
  JSON.stringify({
    user: { id, primaryParty: '', isDeactivated: false, identityProviderId: '' },
    rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
  });

describe('the sandbox started on a port, auth none', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  const createUser = (id: string, headers: Record<string, string>) =>
    send(sandbox.url, { method: 'POST', path: '/v2/users', headers, body: userBody(id) });
  const userExists = async (id: string) =>
    (await send(sandbox.url, { path: `/v2/users/${id}` })).status === 200;

  it('refuses a POST from a foreign origin, and creates no user', async () => {
    const response = await createUser('mallory', {
      Origin: 'https://evil.example',
      'Content-Type': 'application/json',
    });

    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST',
      errorCategory: 7,
    });
    expect(await userExists('mallory')).toBe(false);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuses a %s body it would otherwise parse as JSON',
    async (contentType) => {
      const response = await createUser('trudy', { 'Content-Type': contentType });

      expect(response.status).toBe(415);
      expect(JSON.parse(response.body)).toMatchObject({
        code: 'LEDGER_CONSOLE_UNSUPPORTED_CONTENT_TYPE',
      });
      expect(await userExists('trudy')).toBe(false);
    },
  );

  it('accepts curl-like requests, with or without a Content-Type', async () => {
    expect((await createUser('carol', { 'Content-Type': 'application/json' })).status).toBe(200);
    expect((await createUser('dave', {})).status).toBe(200);
    expect(await userExists('carol')).toBe(true);
    expect(await userExists('dave')).toBe(true);
  });

  it("accepts a browser POST from the sandbox's own origin (the dev server's proxy keeps Host)", async () => {
    const response = await createUser('erin', {
      Origin: sandbox.url,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
    });

    expect(response.status).toBe(200);
  });

  it('refuses a foreign Host, whatever the path resolves to', async () => {
    for (const path of ['/v2/users', '/livez', '/v2/%2e%2e/__sandbox/info']) {
      const response = await send(sandbox.url, {
        path,
        headers: { Host: 'rebound.evil.example' },
      });

      expect(response.status, path).toBe(403);
      expect(JSON.parse(response.body), path).toMatchObject({
        code: 'LEDGER_CONSOLE_HOST_NOT_ALLOWED',
      });
    }
  });

  it('refuses a websocket handshake from a foreign origin and opens a same-origin one', async () => {
    const url = `${sandbox.url.replace('http', 'ws')}/v2/updates`;

    expect(await handshake(url, { Origin: 'https://evil.example' })).toBe(403);
    expect(await handshake(url, { Host: 'rebound.evil.example' })).toBe(403);
    expect(await handshake(url, { Origin: sandbox.url })).toBe(101);
    expect(await handshake(url, {})).toBe(101);
  });
});

describe('the sandbox started on a port, auth jwt', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, auth: 'jwt', seed: 'none' });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  const mint = (headers: Record<string, string>) =>
    send(sandbox.url, {
      method: 'POST',
      path: '/__sandbox/tokens',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: '{"userId":"participant_admin"}',
    });

  it('mints no token for a rebound Host or a foreign page, and does for a local client', async () => {
    const rebound = await mint({ Host: 'rebound.evil.example' });
    const foreign = await mint({ Origin: 'https://evil.example' });
    const local = await mint({});

    expect(rebound.status).toBe(403);
    expect(foreign.status).toBe(403);
    expect(local.status).toBe(200);
    expect(JSON.parse(local.body)).toHaveProperty('token');
  });

  it('resolves dot segments before routing, so they escape no rule (the sandbox has no prefixes)', async () => {
    for (const path of ['/v2/../__sandbox/tokens', '/v2/%2e%2e/__sandbox/tokens']) {
      const foreign = await send(sandbox.url, {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
        body: '{"userId":"participant_admin"}',
      });
      const local = await send(sandbox.url, {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json' },
        body: '{"userId":"participant_admin"}',
      });

      expect(foreign.status, path).toBe(403);
      expect(JSON.parse(local.body), path).toHaveProperty('token');
    }
  });

  it('answers a configured public name', async () => {
    const deployed = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      allowedHosts: ['ledger.example.com'],
    });
    try {
      const response = await send(deployed.url, {
        path: '/livez',
        headers: { Host: 'ledger.example.com' },
      });

      expect(response.status).toBe(200);
    } finally {
      await deployed.close();
    }
  });
});

describe('guardFetch in process', () => {
  it('takes the host from the URL of a Request that has no Host header', async () => {
    const sandbox = createSandbox();
    const fetch = guardFetch(sandbox.fetch, { bindHost: '127.0.0.1' });
    try {
      const local = await fetch(new Request('http://localhost:3000/livez'));
      const foreign = await fetch(new Request('http://evil.example/livez'));

      expect(local.status).toBe(200);
      expect(foreign.status).toBe(403);
    } finally {
      sandbox.close();
    }
  });
});

import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ACTIVE_CONTRACT_COUNTS_PATH,
  AUDIT_LOG_PATH,
  PARTICIPANTS_PATH,
  SIGN_IN_PROVIDERS_PATH,
  type ActiveContractCounts,
  type AuditPage,
  type ConsoleParticipants,
} from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/index';
import { JS_CANTON_ERROR_KEYS } from '../../sandbox/src/testing/index';
import { createAuditLog, type AuditLog } from './audit/audit-log';
import { newUser, tinyDist } from './audit/audit-testing';
import { closeServer, createServer } from './create-server';
import type { SignInProvider } from './sign-in-providers';

// A console addressing a fleet (ADR 022) over real loopback HTTP: two sandboxes under their own
// names (participant1 seeded with the demo, participant2 empty) and a third "participant" that
// accepts connections and never answers, for the proxy's timeout behind a prefix.

const MAX_REQUEST_BYTES = 64 * 1024;

let distDir: string;
let participant1: RunningSandbox;
let participant2: RunningSandbox;
let silent: http.Server;
/** A participant's URL where nothing listens any more. */
let goneUrl: string;
let audit: AuditLog;
let server: http.Server;
let consoleUrl: string;

function provider(id: string, participants?: string[]): SignInProvider {
  return {
    id,
    name: id,
    issuer: `https://${id}.example.com`,
    clientId: 'ledger-console',
    scopes: ['openid'],
    extraAuthorizeParams: {},
    identityProviderId: '',
    ...(participants === undefined ? {} : { participants }),
  };
}

async function listen(target: http.Server): Promise<string> {
  await new Promise<void>((resolve) => {
    target.listen(0, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${String((target.address() as AddressInfo).port)}`;
}

beforeAll(async () => {
  distDir = await tinyDist();
  [participant1, participant2] = await Promise.all([
    startSandbox({ port: 0, quiet: true, seed: 'demo', participantName: 'participant1' }),
    startSandbox({ port: 0, quiet: true, seed: 'none', participantName: 'participant2' }),
  ]);
  // Takes the request and says nothing: the console's response timeout must answer.
  silent = http.createServer(() => undefined);
  const silentUrl = await listen(silent);
  const closed = http.createServer();
  goneUrl = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  audit = await createAuditLog({ location: { kind: 'memory' } });
  server = createServer({
    distDir,
    participants: [
      { name: 'participant1', ledgerUrl: participant1.url, extraProxyPrefixes: ['/__sandbox'] },
      { name: 'participant2', ledgerUrl: participant2.url },
      { name: 'silent', ledgerUrl: silentUrl },
      { name: 'gone', ledgerUrl: goneUrl },
    ],
    audit,
    proxy: { maxRequestBytes: MAX_REQUEST_BYTES, responseTimeoutMs: 300 },
    signInProviders: [
      provider('shared'),
      provider('first-only', ['participant1']),
      provider('second-and-silent', ['participant2', 'silent']),
    ],
  });
  consoleUrl = await listen(server);
}, 60_000);

afterAll(async () => {
  if ((server as http.Server | undefined) !== undefined) await closeServer(server);
  await audit.close();
  silent.closeAllConnections();
  silent.close();
  await Promise.all([participant1.close(), participant2.close()]);
  await rm(distDir, { recursive: true, force: true });
});

/** A JSON answer; the caller names the shape it expects, as a cast of `response.json()` would. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- that cast, once
async function json<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${consoleUrl}${path}`, init);
  return { status: response.status, body: (await response.json()) as T };
}

/** A request as a hand-made client sends it, Host and Origin included (fetch forbids both). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // Host, port and path apart: a URL string would resolve the dot segments before sending.
    const { hostname, port } = new URL(consoleUrl);
    const req = http.request({ hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The messages of a websocket stream until the participant closes it. */
function streamed(url: string, request: unknown): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['daml.ws.auth']);
    const messages: unknown[] = [];
    ws.once('open', () => {
      ws.send(JSON.stringify(request));
    });
    ws.on('message', (data: Buffer) => {
      messages.push(JSON.parse(data.toString('utf8')));
    });
    ws.once('close', () => {
      resolve(messages);
    });
    ws.once('error', reject);
  });
}

function handshakeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      reject(new Error('the handshake was expected to fail'));
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', () => undefined);
  });
}

async function ledgerEnd(prefix: string): Promise<number> {
  const { body } = await json<{ offset: number }>(`${prefix}/v2/state/ledger-end`);
  return body.offset;
}

const anyParty = { filtersForAnyParty: { cumulative: [] }, verbose: false };

describe('addressing participants by name', () => {
  it('lists the participants, the first as the default', async () => {
    const { status, body } = await json<ConsoleParticipants>(PARTICIPANTS_PATH);
    expect(status).toBe(200);
    expect(body).toEqual({
      participants: [
        {
          name: 'participant1',
          apiPath: '/participants/participant1',
          pagePath: '/p/participant1',
          default: true,
        },
        {
          name: 'participant2',
          apiPath: '/participants/participant2',
          pagePath: '/p/participant2',
          default: false,
        },
        { name: 'silent', apiPath: '/participants/silent', pagePath: '/p/silent', default: false },
        { name: 'gone', apiPath: '/participants/gone', pagePath: '/p/gone', default: false },
      ],
    } satisfies ConsoleParticipants);
  });

  it('proxies each name to its own participant, and the unprefixed paths to the first', async () => {
    const idOf = async (prefix: string) =>
      (await json<{ participantId: string }>(`${prefix}/v2/parties/participant-id`)).body
        .participantId;
    expect(await idOf('/participants/participant1')).toBe(participant1.participantId);
    expect(await idOf('/participants/participant2')).toBe(participant2.participantId);
    expect(await idOf('')).toBe(participant1.participantId);
    expect(participant1.participantId).not.toBe(participant2.participantId);

    for (const prefix of ['', '/participants/participant1', '/participants/participant2']) {
      const live = await fetch(`${consoleUrl}${prefix}/livez`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${consoleUrl}${prefix}/readyz`);
      expect(ready.status).toBe(200);
    }
  });

  it('keeps the query string when it takes the prefix off', async () => {
    const { status, body } = await json<{ users: { id: string }[] }>(
      '/participants/participant1/v2/users?pageSize=1',
    );
    expect(status).toBe(200);
    expect(body.users).toHaveLength(1);
  });

  it('streams websockets from the participant the prefix names', async () => {
    const request = (offset: number) => ({ activeAtOffset: offset, eventFormat: anyParty });
    const first = await streamed(
      `${consoleUrl.replace('http', 'ws')}/participants/participant1/v2/state/active-contracts`,
      request(await ledgerEnd('/participants/participant1')),
    );
    const unprefixed = await streamed(
      `${consoleUrl.replace('http', 'ws')}/v2/state/active-contracts`,
      request(await ledgerEnd('')),
    );
    const second = await streamed(
      `${consoleUrl.replace('http', 'ws')}/participants/participant2/v2/state/active-contracts`,
      request(await ledgerEnd('/participants/participant2')),
    );
    // The demo seed's contracts are participant1's; participant2 holds none.
    expect(first.length).toBeGreaterThan(0);
    expect(unprefixed).toHaveLength(first.length);
    expect(second).toEqual([]);
  });

  it('answers an unknown name with a 404 naming the participants it has', async () => {
    for (const path of ['/participants/nobody/v2/users', '/participants/NOBODY/livez']) {
      const { status, body } = await json<Record<string, unknown>>(path);
      expect(status).toBe(404);
      expect(Object.keys(body).sort()).toEqual([...JS_CANTON_ERROR_KEYS].sort());
      expect(body.code).toBe('LEDGER_CONSOLE_UNKNOWN_PARTICIPANT');
      expect(body.cause).toContain('participant1, participant2, silent, gone');
    }
    expect(
      await handshakeStatus(
        `${consoleUrl.replace('http', 'ws')}/participants/nobody/v2/state/active-contracts`,
      ),
    ).toBe(404);
  });

  it('serves neither pages nor other paths below a participant’s API prefix', async () => {
    for (const path of [
      '/participants/participant1',
      '/participants/participant1/',
      '/participants/participant1/users',
      '/participants/participant1/assets/index.js',
      // Sandbox controls only where the participant is an embedded sandbox.
      '/participants/participant2/__sandbox/info',
    ]) {
      const { status, body } = await json<{ code: string }>(path);
      expect(status, path).toBe(404);
      expect(body.code).toBe('LEDGER_CONSOLE_NOT_FOUND');
    }
    const controls = await fetch(`${consoleUrl}/participants/participant1/__sandbox/info`);
    expect(controls.status).toBe(200);
  });

  it('serves the SPA at /p/NAME/… page paths, with the console’s policy', async () => {
    for (const path of [
      '/p/participant2/',
      '/p/participant2/contracts',
      '/p/participant1/users/alice.smith',
    ]) {
      const response = await fetch(`${consoleUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await response.text()).toContain('<title>Ledger Console</title>');
    }
  });
});

describe('the console’s own endpoints per participant', () => {
  it('counts active contracts on the participant the prefix names', async () => {
    const count = async (prefix: string) =>
      json<ActiveContractCounts>(`${prefix}${ACTIVE_CONTRACT_COUNTS_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ activeAtOffset: await ledgerEnd(prefix), eventFormat: anyParty }),
      });
    const first = await count('/participants/participant1');
    const unprefixed = await count('');
    const second = await count('/participants/participant2');
    expect(first.status).toBe(200);
    expect(first.body.total).toBeGreaterThan(0);
    expect(unprefixed.body).toEqual(first.body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      total: 0,
      byTemplateId: {},
      isComplete: true,
      stakeholders: [],
    } satisfies ActiveContractCounts);
  });

  it('offers each participant the sign-in providers that serve it', async () => {
    const ids = async (prefix: string) =>
      (
        await json<{ providers: { id: string }[] }>(`${prefix}${SIGN_IN_PROVIDERS_PATH}`)
      ).body.providers.map((served) => served.id);
    expect(await ids('')).toEqual(['shared', 'first-only']);
    expect(await ids('/participants/participant1')).toEqual(['shared', 'first-only']);
    expect(await ids('/participants/participant2')).toEqual(['shared', 'second-and-silent']);
    expect(await ids('/participants/silent')).toEqual(['shared', 'second-and-silent']);
  });

  it('asks the participant the prefix names whether the caller may discover an issuer', async () => {
    // Nothing listens at the issuer: participant1 (no auth: everyone is its admin) lets the
    // console try, and the fetch fails; the gone participant cannot be asked at all.
    const issuer = encodeURIComponent(goneUrl);
    const first = await json<{ code: string }>(
      `/participants/participant1/__console/oidc-discovery?issuer=${issuer}`,
    );
    const gone = await json<{ code: string; cause: string }>(
      `/participants/gone/__console/oidc-discovery?issuer=${issuer}`,
    );
    expect(first.body.code).toBe('LEDGER_CONSOLE_DISCOVERY_UNREACHABLE');
    expect(gone.status).toBe(502);
    expect(gone.body.code).toBe('LEDGER_UNREACHABLE');
    expect(gone.body.cause).toContain('who the caller is');
  });

  it('lists the participants at the console’s path only', async () => {
    const response = await fetch(`${consoleUrl}/participants/participant2${PARTICIPANTS_PATH}`);
    expect(response.status).toBe(404);
  });

  it('records each call with the participant it went to, and reads each participant’s entries there', async () => {
    const create = async (prefix: string, id: string) => {
      const response = await fetch(`${consoleUrl}${prefix}/v2/users`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(newUser(id)),
      });
      expect(response.status).toBe(200);
    };
    await create('/participants/participant2', 'fleet-on-second');
    await create('', 'fleet-on-first');

    const newest = (await audit.read({ kind: 'all' }, {}, 2)).entries;
    expect(
      newest.map((entry) => [entry.resource, entry.participantName, entry.participant]),
    ).toEqual([
      ['fleet-on-first', 'participant1', participant1.participantId],
      ['fleet-on-second', 'participant2', participant2.participantId],
    ]);
    // The path as the participant got it: the console's prefix is not part of the call.
    expect(newest[1]?.path).toBe('/v2/users');

    const read = async (prefix: string) =>
      (await json<AuditPage>(`${prefix}${AUDIT_LOG_PATH}?text=fleet-on`)).body.entries.map(
        (entry) => entry.resource,
      );
    expect(await read('/participants/participant2')).toEqual(['fleet-on-second']);
    expect(await read('/participants/participant1')).toEqual(['fleet-on-first']);
    expect(await read('')).toEqual(['fleet-on-first']);
  });
});

describe('request guards on prefixed paths', () => {
  const host = () => new URL(consoleUrl).host;

  it('refuses a foreign Host', async () => {
    const { status, body } = await raw('GET', '/participants/participant2/v2/users', {
      Host: 'attacker.example',
    });
    expect(status).toBe(403);
    expect(body).toContain('LEDGER_CONSOLE_HOST_NOT_ALLOWED');
  });

  it('refuses another site’s write, and its read of a console endpoint', async () => {
    const write = await raw(
      'POST',
      '/participants/participant2/v2/users',
      { Host: host(), Origin: 'https://attacker.example', 'Content-Type': 'application/json' },
      JSON.stringify(newUser('from-attacker')),
    );
    expect(write.status).toBe(403);
    expect(write.body).toContain('LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST');
    const read = await raw('GET', `/participants/participant2${SIGN_IN_PROVIDERS_PATH}`, {
      Host: host(),
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(read.status).toBe(403);
    const handshake = await handshakeStatus(
      `${consoleUrl.replace('http', 'ws')}/participants/participant2/v2/state/active-contracts`,
      { Origin: 'https://attacker.example' },
    );
    expect(handshake).toBe(403);
    const users = await json<{ users: { id: string }[] }>('/participants/participant2/v2/users');
    expect(users.body.users.map((user) => user.id)).not.toContain('from-attacker');
  });

  it('refuses a form’s content type', async () => {
    const { status } = await raw(
      'POST',
      '/participants/participant2/v2/users',
      { Host: host(), 'Content-Type': 'text/plain' },
      JSON.stringify(newUser('from-a-form')),
    );
    expect(status).toBe(415);
  });

  it('refuses paths a later hop could resolve elsewhere', async () => {
    for (const path of [
      '/participants/participant2/v2/../../__sandbox/reset',
      '/participants/participant2/%2e%2e/participant1/v2/users',
      '/participants/..%2Fparticipant1/v2/users',
    ]) {
      const { status, body } = await raw('GET', path, { Host: host() });
      expect(status, path).toBe(400);
      expect(body).toContain('LEDGER_CONSOLE_INVALID_PATH');
    }
  });

  it('refuses a body over the limit before the participant sees it', async () => {
    const { status, body } = await raw(
      'POST',
      '/participants/participant2/v2/users',
      { Host: host(), 'Content-Type': 'application/json' },
      JSON.stringify({ ...newUser('too-large'), padding: 'x'.repeat(MAX_REQUEST_BYTES) }),
    );
    expect(status).toBe(413);
    expect(body).toContain('REQUEST_ENTITY_TOO_LARGE');
  });

  it('answers for a participant that says nothing with the console’s timeout', async () => {
    const { status, body } = await json<{ code: string }>('/participants/silent/v2/users');
    expect(status).toBe(504);
    expect(body.code).toBe('LEDGER_RESPONSE_TIMEOUT');
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OIDC_DISCOVERY_PATH } from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/index';
import { listen, send } from '../../sandbox/src/testing/index';
import { closeServer, createServer } from './create-server';

// The discovery endpoint over real loopback HTTP: a console in front of a sandbox with --auth
// oidc (whose tokens say who is a participant admin), a tiny discovery server that records every
// request it gets, and the sandbox's own embedded provider as a real issuer.

const TIMEOUT_MS = 800;
const MAX_BYTES = 16 * 1024;

type Seen = { url: string; authorization: string | undefined };
const seen: Seen[] = [];
let distDir: string;
let sandbox: RunningSandbox;
let openSandbox: RunningSandbox;
let issuers: http.Server;
let issuersUrl: string;
let consoleServer: http.Server;
let consoleUrl: string;
let openConsole: http.Server;
let openConsoleUrl: string;
let adminToken: string;
let userToken: string;

/** The discovery server's documents, by path; `slow` never answers. */
function discoveryServer(): http.Server {
  return http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const base = issuersUrl;
    const json = (body: unknown, type = 'application/json') => {
      res.writeHead(200, { 'Content-Type': type }).end(JSON.stringify(body));
    };
    const route = req.url ?? '';
    const config = (name: string, extra: Record<string, unknown> = {}) => ({
      issuer: `${base}/${name}`,
      jwks_uri: `${base}/${name}/jwks`,
      authorization_endpoint: `${base}/${name}/auth`,
      ...extra,
    });
    const keys = {
      keys: [
        { kid: 'key-1', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'AQAB', e: 'AQAB' },
        { kid: 'enc-1', kty: 'RSA', alg: 'RSA-OAEP', use: 'enc', n: 'AQAB', e: 'AQAB' },
      ],
    };
    switch (route) {
      case '/good/.well-known/openid-configuration':
        json(config('good'));
        return;
      case '/good/jwks':
        json(keys, 'application/jwk-set+json');
        return;
      case '/mismatch/.well-known/openid-configuration':
        json(config('elsewhere'));
        return;
      case '/foreign-jwks/.well-known/openid-configuration':
        json(config('foreign-jwks', { jwks_uri: 'http://keys.example.com/jwks' }));
        return;
      case '/big/.well-known/openid-configuration': {
        // No Content-Length: the limit must cut the stream, not trust a header.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const padding = 'x'.repeat(1024);
        res.write(`{"issuer":"${base}/big","pad":[`);
        const write = (left: number) => {
          if (left === 0 || res.destroyed) {
            res.end('""]}');
            return;
          }
          res.write(`"${padding}",`, () => {
            write(left - 1);
          });
        };
        write(64);
        res.on('error', () => undefined);
        return;
      }
      case '/slow/.well-known/openid-configuration':
        // Headers now, body never: the time limit covers reading too.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"issuer":');
        return;
      case '/redirect/.well-known/openid-configuration':
        res.writeHead(302, { Location: 'http://127.0.0.2:1/.well-known/openid-configuration' });
        res.end();
        return;
      case '/html/.well-known/openid-configuration':
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
        return;
      default:
        res.writeHead(404).end();
    }
  });
}

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'ledger-console-discovery-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Ledger Console</title>');
  sandbox = await startSandbox({
    port: 0,
    quiet: true,
    auth: 'oidc',
    seed: 'demo',
    oidc: { port: 0, consoleOrigins: ['http://127.0.0.1:4999'] },
  });
  openSandbox = await startSandbox({ port: 0, quiet: true });
  const oidc = sandbox.oidc;
  if (!oidc) throw new Error('no provider in oidc mode');
  adminToken = await oidc.issueAccessToken('default', 'participant_admin');
  userToken = await oidc.issueAccessToken('default', 'alice.anderson');
  issuers = discoveryServer();
  issuersUrl = await listen(issuers);
  const limits = { documentTimeoutMs: TIMEOUT_MS, maxDocumentBytes: MAX_BYTES };
  consoleServer = createServer({ distDir, ledgerUrl: sandbox.url, oidcDiscovery: limits });
  consoleUrl = await listen(consoleServer);
  openConsole = createServer({ distDir, ledgerUrl: openSandbox.url, oidcDiscovery: limits });
  openConsoleUrl = await listen(openConsole);
}, 30_000);

afterAll(async () => {
  await Promise.all([closeServer(consoleServer), closeServer(openConsole)]);
  issuers.closeAllConnections();
  await new Promise((resolve) => issuers.close(resolve));
  await Promise.all([sandbox.close(), openSandbox.close()]);
  await rm(distDir, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
});

/** `token` null sends no Authorization header. */
async function discover(issuer: string, token: string | null = adminToken, url = consoleUrl) {
  const response = await send(url, {
    path: `${OIDC_DISCOVERY_PATH}?${new URLSearchParams({ issuer }).toString()}`,
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
  });
  return { ...response, json: JSON.parse(response.body) as Record<string, unknown> };
}

describe(`GET ${OIDC_DISCOVERY_PATH}`, () => {
  it('reads a good issuer’s discovery document and keys, without the caller’s token', async () => {
    const response = await discover(`${issuersUrl}/good`);

    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json).toEqual({
      issuer: `${issuersUrl}/good`,
      jwksUrl: `${issuersUrl}/good/jwks`,
      jwks: {
        keys: [
          { kid: 'key-1', kty: 'RSA', alg: 'RS256', use: 'sig' },
          { kid: 'enc-1', kty: 'RSA', alg: 'RSA-OAEP', use: 'enc' },
        ],
      },
      checks: [
        {
          name: 'Issuer',
          status: 'ok',
          detail: `The discovery document names exactly ${issuersUrl}/good.`,
        },
        {
          name: 'JWKS location',
          status: 'ok',
          detail: `${issuersUrl}/good/jwks, on the issuer's host ${new URL(issuersUrl).host}.`,
        },
        { name: 'Signing keys', status: 'ok', detail: '1 signing key (RS256).' },
        {
          name: 'Algorithms',
          status: 'ok',
          detail: 'At least one key the participant can verify (RS256, ES256 or ES512).',
        },
      ],
    });
    // Exactly the two documents, and the participant's token never went to the issuer.
    expect(seen).toEqual([
      { url: '/good/.well-known/openid-configuration', authorization: undefined },
      { url: '/good/jwks', authorization: undefined },
    ]);
  });

  it('reads the sandbox’s embedded provider as a real issuer', async () => {
    const acme = sandbox.oidc?.issuers.acme;
    const response = await discover(acme?.issuer ?? '');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ issuer: acme?.issuer, jwksUrl: acme?.jwksUri });
    expect((response.json.jwks as { keys: unknown[] }).keys).toEqual([
      expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig' }),
    ]);
  });

  it('refuses an issuer whose document names another issuer, before fetching its keys', async () => {
    const response = await discover(`${issuersUrl}/mismatch`);
    expect(response.status).toBe(502);
    expect(response.json).toMatchObject({
      code: 'LEDGER_CONSOLE_ISSUER_MISMATCH',
      context: { requested: `${issuersUrl}/mismatch`, discovered: `${issuersUrl}/elsewhere` },
      errorCategory: 1,
    });
    expect(response.json.cause).toContain('names the issuer');
    expect(seen.map((request) => request.url)).toEqual([
      '/mismatch/.well-known/openid-configuration',
    ]);
  });

  it('refuses http to a host that is not loopback without fetching anything', async () => {
    for (const issuer of [
      'http://idp.example.com/realms/x',
      'http://10.0.0.1/x',
      'ftp://127.0.0.1/x',
    ]) {
      const response = await discover(issuer);
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        code: 'LEDGER_CONSOLE_INVALID_ISSUER',
        errorCategory: 8,
      });
      expect(response.json.cause).toContain('Nothing was fetched');
    }
    const withQuery = await discover(`${issuersUrl}/good?x=1`);
    expect(withQuery.status).toBe(400);
    expect(seen).toEqual([]);
  });

  it('fetches over http from localhost, resolved to a loopback address only', async () => {
    const viaName = `http://localhost:${new URL(issuersUrl).port}/good`;
    const response = await discover(viaName);
    // Reached (the document names the 127.0.0.1 issuer, not the one typed), so: a mismatch.
    expect(response.json).toMatchObject({
      code: 'LEDGER_CONSOLE_ISSUER_MISMATCH',
      context: { requested: viaName, discovered: `${issuersUrl}/good` },
    });
    expect(seen.map((request) => request.url)).toEqual(['/good/.well-known/openid-configuration']);
  });

  it('refuses a jwks_uri over http to another host, without fetching it', async () => {
    const response = await discover(`${issuersUrl}/foreign-jwks`);
    expect(response.status).toBe(502);
    expect(response.json).toMatchObject({
      code: 'LEDGER_CONSOLE_DISCOVERY_INVALID',
      context: { jwksUri: 'http://keys.example.com/jwks' },
    });
    expect(seen.map((request) => request.url)).toEqual([
      '/foreign-jwks/.well-known/openid-configuration',
    ]);
  });

  it('cuts a document past the size limit while it streams', async () => {
    const response = await discover(`${issuersUrl}/big`);
    expect(response.status).toBe(502);
    expect(response.json).toMatchObject({ code: 'LEDGER_CONSOLE_DISCOVERY_TOO_LARGE' });
    expect(response.json.cause).toContain('larger than 16 KiB');
  });

  it('gives up on a slow issuer at the time limit', async () => {
    const started = Date.now();
    const response = await discover(`${issuersUrl}/slow`);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    expect(response.json).toMatchObject({ code: 'LEDGER_CONSOLE_DISCOVERY_TIMEOUT' });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it('follows no redirect and takes JSON only', async () => {
    const redirect = await discover(`${issuersUrl}/redirect`);
    expect(redirect.status).toBe(502);
    expect(redirect.json.cause).toContain('which the console does not follow');
    const html = await discover(`${issuersUrl}/html`);
    expect(html.status).toBe(502);
    expect(html.json.cause).toContain('text/html, not JSON');
    expect(seen.map((request) => request.url)).toEqual([
      '/redirect/.well-known/openid-configuration',
      '/html/.well-known/openid-configuration',
    ]);
  });

  it('refuses a caller who is not a participant admin (403), fetching nothing', async () => {
    const response = await discover(`${issuersUrl}/good`, userToken);
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({
      code: 'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED',
      errorCategory: 7,
    });
    expect(response.json.cause).toContain('alice.anderson has no ParticipantAdmin right');
    const idpAdmin = (await sandbox.oidc?.issueAccessToken('acme', 'acme-admin')) ?? '';
    expect((await discover(`${issuersUrl}/good`, idpAdmin)).status).toBe(403);
    expect(seen).toEqual([]);
  });

  it('refuses a caller without a token the participant accepts (401), fetching nothing', async () => {
    const none = await discover(`${issuersUrl}/good`, null);
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: 'LEDGER_CONSOLE_UNAUTHENTICATED', errorCategory: 6 });
    expect((await discover(`${issuersUrl}/good`, 'not-a-jwt')).status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('counts every caller as admin on a participant without auth', async () => {
    const response = await discover(`${issuersUrl}/good`, null, openConsoleUrl);
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ issuer: `${issuersUrl}/good` });
    const withToken = await discover(`${issuersUrl}/good`, userToken, openConsoleUrl);
    expect(withToken.status).toBe(200);
  });

  it('refuses a signed token whose subject is no user id, though the participant answers it INVALID_TOKEN', async () => {
    // Any delegated IdP can sign such a token; a participant with auth then answers
    // authenticated-user exactly as one without auth does.
    const oddSubject = (await sandbox.oidc?.issueAccessToken('acme', 'not a user id!')) ?? '';
    const who = await send(sandbox.url, {
      path: '/v2/authenticated-user',
      headers: { Authorization: `Bearer ${oddSubject}` },
    });
    expect(who.status).toBe(400);
    expect(JSON.parse(who.body)).toMatchObject({ code: 'INVALID_TOKEN' });

    const response = await discover(`${issuersUrl}/good`, oddSubject);
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ code: 'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED' });
    expect(response.json.cause).toContain('400 INVALID_TOKEN');
    expect(seen).toEqual([]);
  });

  it('is never proxied and answers GET only', async () => {
    const post = await send(consoleUrl, {
      method: 'POST',
      path: `${OIDC_DISCOVERY_PATH}?issuer=${encodeURIComponent(`${issuersUrl}/good`)}`,
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    const head = await send(consoleUrl, {
      method: 'HEAD',
      path: `${OIDC_DISCOVERY_PATH}?issuer=${encodeURIComponent(`${issuersUrl}/good`)}`,
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET');
    const twice = await send(consoleUrl, {
      path: `${OIDC_DISCOVERY_PATH}?issuer=a&issuer=b`,
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(twice.status).toBe(400);
    expect(seen).toEqual([]);
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIGN_IN_PROVIDERS_PATH } from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, send } from '../../sandbox/src/testing/index';
import {
  CONTENT_SECURITY_POLICY,
  closeServer,
  contentSecurityPolicy,
  createServer,
} from './create-server';
import { parseSignInConfig } from './sign-in-providers';

// The console's own sign-in configuration endpoint over real loopback HTTP, with an upstream that
// records anything that reaches it: the endpoint must never be proxied to the participant.

const seen: string[] = [];
let distDir: string;
let upstream: http.Server;
let configured: http.Server;
let bare: http.Server;
let configuredUrl: string;
let bareUrl: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'ledger-console-sign-in-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Ledger Console</title>');
  upstream = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"upstream":true}');
  });
  const ledgerUrl = await listen(upstream);
  const parsed = parseSignInConfig(
    'sign-in.json',
    JSON.stringify({
      providers: [
        {
          id: 'corp',
          name: 'Corporate SSO',
          issuer: 'https://login.corp.example/realms/canton',
          clientId: 'ledger-console',
          scopes: ['openid'],
          audience: 'https://daml.com/jwt/aud/participant/p1',
          extraAuthorizeParams: { prompt: 'login' },
          identityProviderId: 'corp-idp',
        },
      ],
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  configured = createServer({ distDir, ledgerUrl, signInProviders: parsed.providers });
  configuredUrl = await listen(configured);
  bare = createServer({ distDir, ledgerUrl });
  bareUrl = await listen(bare);
});

afterAll(async () => {
  await Promise.all([closeServer(configured), closeServer(bare), closeServer(upstream)]);
  await rm(distDir, { recursive: true, force: true });
});

describe(`GET ${SIGN_IN_PROVIDERS_PATH}`, () => {
  it("serves the providers as oidc-client-ts settings, never cached, never the participant's", async () => {
    const response = await send(configuredUrl, { path: SIGN_IN_PROVIDERS_PATH });

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(response.body)).toEqual({
      providers: [
        {
          id: 'corp',
          name: 'Corporate SSO',
          identityProviderId: 'corp-idp',
          oidc: {
            authority: 'https://login.corp.example/realms/canton',
            client_id: 'ledger-console',
            scope: 'openid',
            extraQueryParams: {
              prompt: 'login',
              audience: 'https://daml.com/jwt/aud/participant/p1',
            },
          },
        },
      ],
    });
    expect(seen).toEqual([]);
  });

  it("lets the page connect to each provider's issuer origin, the policy otherwise unchanged", async () => {
    const page = await send(configuredUrl, { path: '/' });
    const policy = page.headers['content-security-policy'];

    expect(policy).toBe(
      CONTENT_SECURITY_POLICY.replace(
        "connect-src 'self'",
        "connect-src 'self' https://login.corp.example",
      ),
    );
    expect((await send(bareUrl, { path: '/users/alice' })).headers['content-security-policy']).toBe(
      CONTENT_SECURITY_POLICY,
    );
    // One entry per origin, whatever the issuers' paths.
    const issuers = ['http://127.0.0.1:4401/default', 'http://127.0.0.1:4401/acme'];
    const sandboxProviders = issuers.map((issuer, index) => ({
      id: `p${String(index)}`,
      name: 'p',
      issuer,
      clientId: 'ledger-console',
      scopes: ['openid'],
      extraAuthorizeParams: {},
      identityProviderId: '',
    }));
    expect(contentSecurityPolicy(sandboxProviders)).toContain(
      "; connect-src 'self' http://127.0.0.1:4401; ",
    );
  });

  it('answers an empty list when no provider is configured', async () => {
    const response = await send(bareUrl, { path: `${SIGN_IN_PROVIDERS_PATH}?x=1` });

    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ providers: [] });
  });

  it('answers HEAD without a body, and refuses other methods', async () => {
    const head = await send(configuredUrl, { method: 'HEAD', path: SIGN_IN_PROVIDERS_PATH });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');

    const post = await send(configuredUrl, {
      method: 'POST',
      path: SIGN_IN_PROVIDERS_PATH,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    expect(seen).toEqual([]);
  });

  it('keeps /__console to itself: another path there is a 404, not the SPA page', async () => {
    for (const target of ['/__console', '/__console/', '/__console/sign-in-providers/x']) {
      const response = await send(configuredUrl, { path: target });
      expect(response.status, target).toBe(404);
      expect(response.body, target).not.toContain('<title>');
    }
    expect(seen).toEqual([]);
  });

  it('stands behind the request guard', async () => {
    const foreignHost = await send(configuredUrl, {
      path: SIGN_IN_PROVIDERS_PATH,
      headers: { Host: 'rebound.evil.example' },
    });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).not.toContain('login.corp.example');
  });
});

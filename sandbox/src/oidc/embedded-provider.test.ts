import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { participantAudience } from './embedded-provider';

// Never listened on: the flow ends at a redirect to it, which is all a test needs to read.
const CONSOLE = 'http://127.0.0.1:4999';
const REDIRECT_URI = `${CONSOLE}/sign-in/callback`;
const FOREIGN = 'https://evil.example';

let sandbox: RunningSandbox;
let oidc: NonNullable<RunningSandbox['oidc']>;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    quiet: true,
    auth: 'oidc',
    seed: 'demo',
    oidc: { port: 0, consoleOrigins: [CONSOLE, 'http://localhost:4999'], accessTokenTtl: 120 },
  });
  if (!sandbox.oidc) throw new Error('no provider in oidc mode');
  oidc = sandbox.oidc;
}, 20_000);

afterAll(async () => {
  await sandbox.close();
});

/** A browser's cookies for the provider's one origin; paths do not matter to these tests. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

type Discovery = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint: string;
  code_challenge_methods_supported: string[];
};

async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  expect(response.status).toBe(200);
  return (await response.json()) as Discovery;
}

/** Starts a code + PKCE sign-in and follows it to the provider's login page. */
async function openLoginPage(issuer: string) {
  const discovery = await discover(issuer);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: 'ledger-console',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    state,
    nonce: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const jar = new CookieJar();
  const first = await fetch(authorize, { redirect: 'manual' });
  jar.store(first);
  expect(first.status).toBe(303);
  const loginUrl = new URL(first.headers.get('location') ?? '', issuer);
  const page = await fetch(loginUrl, { headers: { cookie: jar.header() } });
  expect(page.status).toBe(200);
  return { discovery, verifier, state, jar, loginUrl, html: await page.text() };
}

/** Posts the login page's form for `sub` and follows redirects to the console's callback. */
async function signIn(issuer: string, sub: string) {
  const login = await openLoginPage(issuer);
  const action = /<form method="post" action="([^"]+\/login)"/.exec(login.html)?.[1];
  expect(action).toBeDefined();
  let response = await fetch(new URL(action ?? '', issuer), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: login.jar.header(),
      origin: new URL(issuer).origin,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ sub }).toString(),
  });
  let location = '';
  for (let hop = 0; hop < 5; hop++) {
    login.jar.store(response);
    expect(response.status).toBe(303);
    location = new URL(response.headers.get('location') ?? '', issuer).href;
    if (location.startsWith(CONSOLE)) break;
    response = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: login.jar.header() },
    });
  }
  const callback = new URL(location);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(callback.searchParams.get('state')).toBe(login.state);
  const code = callback.searchParams.get('code') ?? '';
  const token = await fetch(login.discovery.token_endpoint, {
    method: 'POST',
    headers: { origin: CONSOLE, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: 'ledger-console',
      code_verifier: login.verifier,
    }).toString(),
  });
  expect(token.status).toBe(200);
  // The SPA reads this answer from another origin.
  expect(token.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  const tokens = (await token.json()) as {
    access_token: string;
    id_token: string;
    refresh_token: string;
    expires_in: number;
  };
  return { ...tokens, jar: login.jar, discovery: login.discovery };
}

const authenticatedUser = (token: string) =>
  fetch(`${sandbox.url}/v2/authenticated-user`, { headers: { authorization: `Bearer ${token}` } });

describe('the embedded OpenID provider (--auth oidc)', () => {
  it('issues an audience-based RS256 access token the participant accepts (default IdP)', async () => {
    const tokens = await signIn(oidc.issuers.default.issuer, 'participant_admin');
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe('RS256');
    const claims = decodeJwt(tokens.access_token);
    expect(claims.iss).toBe(oidc.issuers.default.issuer);
    expect(claims.sub).toBe('participant_admin');
    expect(claims.aud).toBe(participantAudience(sandbox.participantId));
    expect(tokens.expires_in).toBe(120);
    const idToken = decodeJwt(tokens.id_token);
    expect(idToken.name).toBe('participant_admin');
    expect(idToken.email).toBe('participant_admin@default.sandbox.invalid');

    const response = await authenticatedUser(tokens.access_token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: string; identityProviderId: string } };
    expect(body.user.id).toBe('participant_admin');
    expect(body.user.identityProviderId).toBe('');
  });

  it('signs acme-idp users in at the acme issuer, with that IdP’s audience', async () => {
    const tokens = await signIn(oidc.issuers.acme.issuer, 'acme-admin');
    const claims = decodeJwt(tokens.access_token);
    expect(claims.iss).toBe(oidc.issuers.acme.issuer);
    expect(claims.aud).toBe('https://ledger.acme.example');
    const response = await authenticatedUser(tokens.access_token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: string; identityProviderId: string } };
    expect(body.user).toMatchObject({ id: 'acme-admin', identityProviderId: 'acme-idp' });
  });

  it('lists the IdP’s users live, marks the deactivated one and offers one not onboarded', async () => {
    const { html } = await openLoginPage(oidc.issuers.default.issuer);
    expect(html).toContain('Sandbox OpenID provider — for development only');
    expect(html).toContain('>Sign in as participant_admin</button>');
    expect(html).toContain('>Sign in as alice.anderson</button>');
    expect(html).not.toContain('Sign in as acme-admin');
    expect(html).toMatch(/former-employee<\/code><span class="tag">deactivated/);
    expect(html).toMatch(/new-hire<\/code><span class="tag">not onboarded on the participant/);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"<\s]+\.(css|js|woff)/);
    const acme = await openLoginPage(oidc.issuers.acme.issuer);
    expect(acme.html).toContain('>Sign in as acme-admin</button>');
    expect(acme.html).toContain('>Sign in as acme-new-hire</button>');
    expect(acme.html).not.toContain('Sign in as participant_admin');
  });

  it('gives the participant’s 403 to a subject it has no user for', async () => {
    const tokens = await signIn(oidc.issuers.default.issuer, 'new-hire');
    const response = await authenticatedUser(tokens.access_token);
    expect(response.status).toBe(403);
    // PERMISSION_DENIED (gRPC 7), redacted as the participant redacts it, marked a token problem.
    expect(await response.json()).toMatchObject({
      code: 'NA',
      grpcCodeValue: 7,
      context: { ledger_api_error: 'invalid token' },
    });
  });

  it('refreshes without a resource parameter, rotating the refresh token', async () => {
    const tokens = await signIn(oidc.issuers.default.issuer, 'alice.anderson');
    const { token_endpoint } = await discover(oidc.issuers.default.issuer);
    const response = await fetch(token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: 'ledger-console',
      }).toString(),
    });
    expect(response.status).toBe(200);
    const refreshed = (await response.json()) as { access_token: string; refresh_token: string };
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token).aud).toBe(participantAudience(sandbox.participantId));
    expect((await authenticatedUser(refreshed.access_token)).status).toBe(200);
  });

  it('signs in at the globex issuer only the users of the IdP a participant admin creates for it', async () => {
    const globex = oidc.issuers.globex;
    expect(globex.issuer).toBe(`${oidc.url}/globex`);
    const before = await openLoginPage(globex.issuer);
    expect(before.html).toContain(
      'none yet: no IdP configuration on the participant names this issuer',
    );
    expect(before.html).toContain('>Sign in as globex-new-hire</button>');
    expect(before.html.match(/>Sign in as /g)).toHaveLength(1);

    const admin = await oidc.issueAccessToken('default', 'participant_admin');
    const call = (path: string, body: unknown) =>
      fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const idp = await call('/v2/idps', {
      identityProviderConfig: {
        identityProviderId: 'globex-idp',
        issuer: globex.issuer,
        jwksUrl: globex.jwksUri,
        audience: '',
        isDeactivated: false,
      },
    });
    expect(idp.status).toBe(200);
    const user = await call('/v2/users', {
      user: {
        id: 'globex-admin',
        primaryParty: '',
        isDeactivated: false,
        identityProviderId: 'globex-idp',
      },
      rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
    });
    expect(user.status).toBe(200);

    // Once onboarded, the not-onboarded subject is listed once, as the user it now is.
    const onboarded = await call('/v2/users', {
      user: {
        id: 'globex-new-hire',
        primaryParty: '',
        isDeactivated: false,
        identityProviderId: 'globex-idp',
      },
      rights: [],
    });
    expect(onboarded.status).toBe(200);
    const after = await openLoginPage(globex.issuer);
    expect(after.html.match(/>Sign in as globex-new-hire</g)).toHaveLength(1);
    expect(after.html).not.toContain('not onboarded on the participant');
    expect(after.html).toContain('IdP globex-idp');
    expect(after.html).toContain('>Sign in as globex-admin</button>');
    expect(after.html).not.toContain('Sign in as acme-admin');
    const tokens = await signIn(globex.issuer, 'globex-admin');
    expect(decodeJwt(tokens.access_token).aud).toBe(participantAudience(sandbox.participantId));
    const response = await authenticatedUser(tokens.access_token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: string; identityProviderId: string } };
    expect(body.user).toMatchObject({ id: 'globex-admin', identityProviderId: 'globex-idp' });
  });

  it('refuses a token with the right issuer signed by another key (401)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    for (const issuer of [oidc.issuers.default.issuer, oidc.issuers.acme.issuer]) {
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
        .setIssuer(issuer)
        .setSubject('participant_admin')
        .setAudience(participantAudience(sandbox.participantId))
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      expect((await authenticatedUser(forged)).status).toBe(401);
    }
  });

  it('refuses a login posted from another origin, and a cancel returns access_denied', async () => {
    const login = await openLoginPage(oidc.issuers.default.issuer);
    const post = (origin: string, path: string, body = '') =>
      fetch(new URL(`${login.loginUrl.pathname}/${path}`, oidc.url), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: login.jar.header(),
          origin,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
    expect((await post(FOREIGN, 'login', 'sub=participant_admin')).status).toBe(403);
    expect((await post(CONSOLE, 'login', 'sub=participant_admin')).status).toBe(403);
    const cancel = await post(oidc.url, 'abort');
    expect(cancel.status).toBe(303);
    login.jar.store(cancel);
    const back = await fetch(new URL(cancel.headers.get('location') ?? '', oidc.url), {
      redirect: 'manual',
      headers: { cookie: login.jar.header() },
    });
    const callback = new URL(back.headers.get('location') ?? '');
    expect(callback.origin).toBe(CONSOLE);
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('answers CORS for the console’s origins only', async () => {
    const { token_endpoint, jwks_uri } = await discover(oidc.issuers.default.issuer);
    const discoveryUrl = `${oidc.issuers.default.issuer}/.well-known/openid-configuration`;
    for (const origin of [CONSOLE, 'http://localhost:4999']) {
      const preflight = await fetch(token_endpoint, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      for (const url of [discoveryUrl, jwks_uri]) {
        const response = await fetch(url, { headers: { origin } });
        expect(response.headers.get('access-control-allow-origin')).not.toBeNull();
      }
    }
    const foreign = await fetch(token_endpoint, {
      method: 'OPTIONS',
      headers: { origin: FOREIGN, 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    for (const url of [discoveryUrl, jwks_uri]) {
      const response = await fetch(url, { headers: { origin: FOREIGN } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('signs out on a sandbox-marked confirmation page, back to the console', async () => {
    const { id_token, jar, discovery } = await signIn(oidc.issuers.default.issuer, 'bob.brown');
    const end = new URL(discovery.end_session_endpoint);
    end.search = new URLSearchParams({
      id_token_hint: id_token,
      post_logout_redirect_uri: `${CONSOLE}/sign-in`,
      client_id: 'ledger-console',
    }).toString();
    const page = await fetch(end, { headers: { cookie: jar.header() } });
    jar.store(page);
    const html = await page.text();
    expect(html).toContain('Sandbox OpenID provider — for development only');
    expect(html).toMatch(/<button[^>]*>Sign out of the sandbox provider<\/button>/);
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${CONSOLE}`);
    const form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(
      /<input type="hidden" name="(\w+)" value="([^"]*)"/g,
    )) {
      form.set(name ?? '', value ?? '');
    }
    form.set('logout', 'yes');
    const action = /<form [^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await fetch(new URL(action, oidc.url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        origin: oidc.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${CONSOLE}/sign-in`);
  });

  it('answers loopback names only, and registers the console’s redirect URIs', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${oidc.issuers.default.issuer}/.well-known/openid-configuration`,
        { headers: { host: 'rebound.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect(oidc.redirectUris).toEqual([
      `${CONSOLE}/sign-in/callback`,
      `${CONSOLE}/sign-in/popup-callback`,
      'http://localhost:4999/sign-in/callback',
      'http://localhost:4999/sign-in/popup-callback',
    ]);
    const info = await fetch(`${sandbox.url}/__sandbox/info`);
    expect(await info.json()).toEqual({ sandbox: true, auth: 'oidc', canMintTokens: false });
  });
});

describe('--oidc-port', () => {
  it('says whose port is taken', async () => {
    const taken = Number(new URL(oidc.url).port);
    await expect(
      startSandbox({
        port: 0,
        quiet: true,
        auth: 'oidc',
        seed: 'none',
        oidc: { port: taken, consoleOrigins: [CONSOLE] },
      }),
    ).rejects.toThrow(
      `The sandbox's OpenID provider cannot listen on 127.0.0.1:${String(taken)} (--oidc-port)`,
    );
  });
});

describe('--auth oidc with --data-dir', () => {
  it('points the stored acme-idp at the new run’s issuer, so its users still sign in', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-oidc-'));
    try {
      const options = {
        port: 0,
        quiet: true,
        auth: 'oidc' as const,
        seed: 'demo' as const,
        dataDir,
        oidc: { consoleOrigins: [CONSOLE] },
      };
      const first = await startSandbox(options);
      const firstIssuer = first.oidc?.issuers.acme.issuer;
      await first.close();
      const second = await startSandbox(options);
      try {
        const acme = second.oidc?.issuers.acme;
        expect(acme?.issuer).not.toBe(firstIssuer);
        const admin = await second.oidc?.issueAccessToken('default', 'participant_admin');
        const idp = await fetch(`${second.url}/v2/idps/acme-idp`, {
          headers: { authorization: `Bearer ${admin ?? ''}` },
        });
        expect(await idp.json()).toMatchObject({
          identityProviderConfig: { issuer: acme?.issuer, jwksUrl: acme?.jwksUri },
        });
        const token = await second.oidc?.issueAccessToken('acme', 'acme-trader');
        const me = await fetch(`${second.url}/v2/authenticated-user`, {
          headers: { authorization: `Bearer ${token ?? ''}` },
        });
        expect(me.status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 20_000);

  it('points a configuration of an earlier run’s globex issuer at this run’s', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-oidc-'));
    try {
      const options = {
        port: 0,
        quiet: true,
        auth: 'oidc' as const,
        seed: 'none' as const,
        dataDir,
        oidc: { consoleOrigins: [CONSOLE] },
      };
      const first = await startSandbox(options);
      const earlier = first.oidc?.issuers.globex;
      const admin = await first.oidc?.issueAccessToken('default', 'participant_admin');
      const created = await fetch(`${first.url}/v2/idps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          identityProviderConfig: {
            identityProviderId: 'globex corp',
            issuer: earlier?.issuer,
            jwksUrl: earlier?.jwksUri,
            audience: '',
            isDeactivated: false,
          },
        }),
      });
      expect(created.status).toBe(200);
      await first.close();
      const second = await startSandbox(options);
      try {
        const globex = second.oidc?.issuers.globex;
        expect(globex?.issuer).not.toBe(earlier?.issuer);
        const token = await second.oidc?.issueAccessToken('default', 'participant_admin');
        const idp = await fetch(`${second.url}/v2/idps/globex%20corp`, {
          headers: { authorization: `Bearer ${token ?? ''}` },
        });
        expect(await idp.json()).toMatchObject({
          identityProviderConfig: { issuer: globex?.issuer, jwksUrl: globex?.jwksUri },
        });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 20_000);
});

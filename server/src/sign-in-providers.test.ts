import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_SIGN_IN_CONFIG_BYTES,
  MAX_SIGN_IN_PROVIDERS,
  parseSignInConfig,
  providerFromFlags,
  readSignInConfigFile,
  servedSignInProviders,
} from './sign-in-providers';

const ACME = {
  id: 'acme',
  name: 'Acme SSO',
  issuer: 'https://login.acme.example/realms/canton',
  clientId: 'ledger-console',
  scopes: ['openid', 'daml_ledger_api'],
};

/** The message for a file with `ACME` changed by `change` as its second provider. */
function messageFor(change: Record<string, unknown>, drop: string[] = []): string {
  const second: Record<string, unknown> = { ...ACME, id: 'acme', ...change };
  for (const key of drop) Reflect.deleteProperty(second, key);
  const first = { ...ACME, id: 'first' };
  const result = parseSignInConfig('sign-in.json', JSON.stringify({ providers: [first, second] }));
  expect(result.ok).toBe(false);
  return result.ok ? '' : result.message;
}

describe('parseSignInConfig', () => {
  it('accepts several providers, with defaults for the optional fields', () => {
    const result = parseSignInConfig(
      'sign-in.json',
      JSON.stringify({
        providers: [
          ACME,
          {
            id: 'partner-idp',
            name: 'Partner',
            issuer: 'https://partner.example/',
            clientId: 'console',
            scopes: ['openid'],
            audience: 'https://daml.com/jwt/aud/participant/p1',
            resource: 'https://ledger.example/api',
            extraAuthorizeParams: { prompt: 'login', kc_idp_hint: 'saml' },
            identityProviderId: 'partner-idp',
          },
        ],
      }),
    );
    expect(result).toEqual({
      ok: true,
      providers: [
        { ...ACME, extraAuthorizeParams: {}, identityProviderId: '' },
        {
          id: 'partner-idp',
          name: 'Partner',
          issuer: 'https://partner.example/',
          clientId: 'console',
          scopes: ['openid'],
          audience: 'https://daml.com/jwt/aud/participant/p1',
          resource: 'https://ledger.example/api',
          extraAuthorizeParams: { prompt: 'login', kc_idp_hint: 'saml' },
          identityProviderId: 'partner-idp',
        },
      ],
    });
  });

  it('names the file, the provider by index and id, and the field', () => {
    expect(messageFor({ issuer: 'ftp://acme.example' })).toBe(
      'sign-in.json: providers[1] ("acme"): issuer: must be an absolute https URL (http only on loopback)',
    );
  });

  it('names a provider without a usable id by its index alone', () => {
    expect(messageFor({}, ['id'])).toBe('sign-in.json: providers[1]: id: is required');
  });

  it('reports every problem, one per line', () => {
    expect(messageFor({ name: '', clientId: 7 }).split('\n')).toEqual([
      'sign-in.json: providers[1] ("acme"): name: must not be empty',
      'sign-in.json: providers[1] ("acme"): clientId: must be a string',
    ]);
  });

  it('refuses a document that is not JSON, not an object, or has no providers', () => {
    expect(parseSignInConfig('s.json', '{"providers": [')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^s\.json: is not valid JSON \(/) as unknown,
    });
    expect(parseSignInConfig('s.json', '[]')).toEqual({
      ok: false,
      message: 's.json: must be a JSON object with a "providers" array',
    });
    expect(parseSignInConfig('s.json', '{}')).toEqual({
      ok: false,
      message: 's.json: providers: must be an array of providers',
    });
    expect(parseSignInConfig('s.json', '{"providers": []}')).toEqual({
      ok: false,
      message: 's.json: providers: must list at least one provider',
    });
    expect(parseSignInConfig('s.json', '{"providers": [null]}')).toEqual({
      ok: false,
      message: 's.json: providers[0]: must be an object',
    });
  });

  it('refuses unknown keys, at the top and in a provider', () => {
    expect(
      parseSignInConfig('s.json', JSON.stringify({ provider: [], providers: [ACME] })),
    ).toEqual({ ok: false, message: 's.json: provider: unknown field' });
    expect(messageFor({ clientID: 'x' })).toBe(
      'sign-in.json: providers[1] ("acme"): clientID: unknown field',
    );
  });

  it('refuses a client secret: the console is a public client', () => {
    expect(messageFor({ clientSecret: 's3cret' })).toBe(
      'sign-in.json: providers[1] ("acme"): clientSecret: not allowed: the console is a public client (Authorization Code + PKCE) and keeps no secret',
    );
  });

  it('refuses duplicate ids', () => {
    expect(messageFor({ id: 'first' })).toBe(
      'sign-in.json: providers[1] ("first"): id: duplicates providers[0]',
    );
  });

  it('bounds the number of providers', () => {
    const providers = Array.from({ length: MAX_SIGN_IN_PROVIDERS + 1 }, (_, index) => ({
      ...ACME,
      id: `p${String(index)}`,
    }));
    expect(parseSignInConfig('s.json', JSON.stringify({ providers }))).toEqual({
      ok: false,
      message: `s.json: providers: at most ${String(MAX_SIGN_IN_PROVIDERS)} providers, got ${String(MAX_SIGN_IN_PROVIDERS + 1)}`,
    });
    const most = providers.slice(0, MAX_SIGN_IN_PROVIDERS);
    expect(parseSignInConfig('s.json', JSON.stringify({ providers: most })).ok).toBe(true);
  });

  it('checks the id: a short lowercase slug', () => {
    const problem = 'id: must be 1 to 64 lowercase letters, digits and inner hyphens';
    for (const id of ['Acme', 'acme sso', '-acme', 'acme-', 'a'.repeat(65), 'a/b']) {
      expect(messageFor({ id })).toContain(problem);
    }
    expect(
      parseSignInConfig('s.json', JSON.stringify({ providers: [{ ...ACME, id: 'a' }] })).ok,
    ).toBe(true);
  });

  it('checks the text fields: required, strings, not blank, short, single-line', () => {
    const where = 'sign-in.json: providers[1] ("acme"): ';
    expect(messageFor({}, ['name'])).toBe(`${where}name: is required`);
    expect(messageFor({}, ['clientId'])).toBe(`${where}clientId: is required`);
    expect(messageFor({}, ['issuer'])).toBe(`${where}issuer: is required`);
    expect(messageFor({ name: '  ' })).toBe(`${where}name: must not be empty`);
    expect(messageFor({ name: 'x'.repeat(256) })).toBe(
      `${where}name: is longer than 255 characters`,
    );
    expect(messageFor({ clientId: 'a\nb' })).toBe(
      `${where}clientId: must not contain control characters`,
    );
    expect(messageFor({ audience: '' })).toBe(`${where}audience: must not be empty`);
  });

  it('takes an https issuer, and http only on loopback', () => {
    const ok = (issuer: string) =>
      parseSignInConfig('s.json', JSON.stringify({ providers: [{ ...ACME, issuer }] })).ok;
    expect(ok('https://login.example')).toBe(true);
    expect(ok('http://127.0.0.1:4001')).toBe(true);
    expect(ok('http://localhost:4001/oidc')).toBe(true);
    expect(ok('http://[::1]:4001')).toBe(true);
    expect(ok('http://console.localhost:4001')).toBe(true);
    expect(ok('http://login.example')).toBe(false);
    expect(ok('http://10.0.0.1')).toBe(false);
    expect(ok('login.example')).toBe(false);
    expect(ok('/oidc')).toBe(false);
  });

  it('refuses an issuer with credentials, a query or a fragment', () => {
    const where = 'sign-in.json: providers[1] ("acme"): issuer: ';
    expect(messageFor({ issuer: 'https://u:p@login.example' })).toBe(
      `${where}must not contain credentials`,
    );
    expect(messageFor({ issuer: 'https://login.example/?tenant=a' })).toBe(
      `${where}must not have a query or fragment`,
    );
    expect(messageFor({ issuer: 'https://login.example/#' })).toBe(
      `${where}must not have a query or fragment`,
    );
  });

  it('checks the scopes: single tokens, no repeats, openid among them', () => {
    const where = 'sign-in.json: providers[1] ("acme"): scopes: ';
    expect(messageFor({}, ['scopes'])).toBe(
      `${where}is required, e.g. ["openid", "daml_ledger_api"]`,
    );
    expect(messageFor({ scopes: 'openid' })).toBe(`${where}must be an array of strings`);
    expect(messageFor({ scopes: ['openid', 1] })).toBe(`${where}must be an array of strings`);
    expect(messageFor({ scopes: ['openid daml_ledger_api'] })).toBe(
      `${where}"openid daml_ledger_api" is not a single scope`,
    );
    expect(messageFor({ scopes: ['openid', ''] })).toBe(`${where}"" is not a single scope`);
    expect(messageFor({ scopes: ['openid', 'openid'] })).toBe(`${where}lists a scope twice`);
    expect(messageFor({ scopes: ['daml_ledger_api'] })).toBe(`${where}must include "openid"`);
  });

  it('takes a resource only as an absolute URI without a fragment', () => {
    const where = 'sign-in.json: providers[1] ("acme"): resource: ';
    expect(messageFor({ resource: 'ledger-api' })).toBe(
      `${where}must be an absolute URI without a fragment`,
    );
    expect(messageFor({ resource: 'https://ledger.example/#api' })).toBe(
      `${where}must be an absolute URI without a fragment`,
    );
    expect(messageFor({ resource: 'https://ledger.example/#' })).toBe(
      `${where}must be an absolute URI without a fragment`,
    );
  });

  it('checks the extra authorize parameters', () => {
    const where = 'sign-in.json: providers[1] ("acme"): extraAuthorizeParams';
    expect(messageFor({ extraAuthorizeParams: ['prompt=login'] })).toBe(
      `${where}: must be an object of strings`,
    );
    expect(messageFor({ extraAuthorizeParams: { max_age: 300 } })).toBe(
      `${where}.max_age: must be a string`,
    );
    expect(messageFor({ extraAuthorizeParams: { prompt: 'a\r\nb' } })).toBe(
      `${where}.prompt: must not contain control characters`,
    );
    expect(messageFor({ extraAuthorizeParams: { '': 'x' } })).toBe(
      `${where}.: is not a parameter name`,
    );
    expect(messageFor({ extraAuthorizeParams: { 'a\nb': 'x' } })).toBe(
      `${where}.a\nb: is not a parameter name`,
    );
    expect(messageFor({ extraAuthorizeParams: { redirect_uri: 'https://evil.example' } })).toBe(
      `${where}.redirect_uri: is set by the sign-in flow itself`,
    );
    expect(messageFor({ extraAuthorizeParams: { scope: 'openid' } })).toBe(
      `${where}.scope: is set by the sign-in flow itself`,
    );
    expect(messageFor({ extraAuthorizeParams: { audience: 'x' } })).toBe(
      `${where}.audience: is set by the sign-in flow itself (use the "audience" field)`,
    );
  });

  it("takes the Canton IdP as '' (the default one) or a Ledger String", () => {
    const idpOf = (identityProviderId: unknown) => {
      const result = parseSignInConfig(
        's.json',
        JSON.stringify({ providers: [{ ...ACME, identityProviderId }] }),
      );
      return result.ok ? result.providers[0]?.identityProviderId : result.message;
    };
    expect(idpOf('')).toBe('');
    expect(idpOf('corp-idp.eu:1#a/b')).toBe('corp-idp.eu:1#a/b');
    const where = 's.json: providers[0] ("acme"): identityProviderId: ';
    expect(idpOf('corp@idp')).toBe(
      `${where}"@" is not allowed in an identity provider id (letters, digits, space and ._:-#/ only); "" is the default IdP`,
    );
    expect(idpOf('x'.repeat(256))).toBe(`${where}is longer than 255 characters`);
    expect(idpOf(3)).toBe(`${where}must be a string`);
  });
});

describe('providerFromFlags', () => {
  it('gives nothing without any --oidc-* flag', () => {
    expect(providerFromFlags({})).toBeUndefined();
  });

  it('builds one provider, named after the issuer host, with the daml_ledger_api scope', () => {
    expect(
      providerFromFlags({ issuer: 'https://login.example/realms/c', clientId: 'console' }),
    ).toEqual({
      ok: true,
      providers: [
        {
          id: 'default',
          name: 'login.example',
          issuer: 'https://login.example/realms/c',
          clientId: 'console',
          scopes: ['openid', 'daml_ledger_api'],
          extraAuthorizeParams: {},
          identityProviderId: '',
        },
      ],
    });
  });

  it('asks only for openid with an audience or resource, and takes explicit scopes and the rest', () => {
    const withAudience = providerFromFlags({
      issuer: 'https://login.example',
      clientId: 'console',
      audience: 'https://daml.com/jwt/aud/participant/p1',
    });
    expect(withAudience).toMatchObject({ ok: true, providers: [{ scopes: ['openid'] }] });
    const withResource = providerFromFlags({
      issuer: 'https://login.example',
      clientId: 'console',
      resource: 'https://ledger.example',
    });
    expect(withResource).toMatchObject({ ok: true, providers: [{ scopes: ['openid'] }] });
    expect(
      providerFromFlags({
        issuer: 'http://127.0.0.1:4001',
        clientId: 'console',
        scopes: 'openid, daml_ledger_api offline_access',
        name: 'Corporate SSO',
        identityProviderId: 'corp',
      }),
    ).toMatchObject({
      ok: true,
      providers: [
        {
          name: 'Corporate SSO',
          scopes: ['openid', 'daml_ledger_api', 'offline_access'],
          identityProviderId: 'corp',
        },
      ],
    });
  });

  it('names the flags in its messages', () => {
    expect(providerFromFlags({ name: 'SSO' })).toEqual({
      ok: false,
      message: '--oidc-issuer: is required\n--oidc-client-id: is required',
    });
    expect(
      providerFromFlags({
        issuer: 'http://login.example',
        clientId: 'console',
        scopes: 'daml_ledger_api',
        identityProviderId: 'a@b',
      }),
    ).toEqual({
      ok: false,
      message: [
        '--oidc-issuer: must be an absolute https URL (http only on loopback)',
        '--oidc-scope: must include "openid"',
        '--oidc-idp: "@" is not allowed in an identity provider id (letters, digits, space and ._:-#/ only); "" is the default IdP',
      ].join('\n'),
    });
  });
});

describe('readSignInConfigFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sign-in-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and checks the file, naming it as given', async () => {
    const file = path.join(dir, 'good.json');
    await writeFile(file, JSON.stringify({ providers: [ACME] }));
    expect(readSignInConfigFile(file)).toMatchObject({ ok: true, providers: [{ id: 'acme' }] });
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ providers: [{ ...ACME, clientId: '' }] }));
    expect(readSignInConfigFile(bad)).toEqual({
      ok: false,
      message: `${bad}: providers[0] ("acme"): clientId: must not be empty`,
    });
  });

  it('refuses a missing file, a directory, and a file over the size limit', async () => {
    const missing = path.join(dir, 'missing.json');
    expect(readSignInConfigFile(missing)).toEqual({
      ok: false,
      message: `${missing}: cannot be read (ENOENT)`,
    });
    expect(readSignInConfigFile(dir)).toEqual({
      ok: false,
      message: `${dir}: is not a regular file`,
    });
    const big = path.join(dir, 'big.json');
    const padding = ' '.repeat(MAX_SIGN_IN_CONFIG_BYTES);
    await writeFile(big, `${JSON.stringify({ providers: [ACME] })}${padding}`);
    expect(readSignInConfigFile(big)).toEqual({
      ok: false,
      message: `${big}: is larger than 256 KiB`,
    });
  });
});

describe('servedSignInProviders', () => {
  it('maps each provider onto oidc-client-ts settings, audience and resource as query params', () => {
    const result = parseSignInConfig(
      's.json',
      JSON.stringify({
        providers: [
          {
            ...ACME,
            audience: 'https://daml.com/jwt/aud/participant/p1',
            resource: 'https://ledger.example',
            extraAuthorizeParams: { prompt: 'login' },
            identityProviderId: 'corp',
          },
        ],
      }),
    );
    if (!result.ok) throw new Error(result.message);
    expect(servedSignInProviders(result.providers)).toEqual([
      {
        id: 'acme',
        name: 'Acme SSO',
        identityProviderId: 'corp',
        oidc: {
          authority: 'https://login.acme.example/realms/canton',
          client_id: 'ledger-console',
          scope: 'openid daml_ledger_api',
          extraQueryParams: {
            prompt: 'login',
            audience: 'https://daml.com/jwt/aud/participant/p1',
            resource: 'https://ledger.example',
          },
        },
      },
    ]);
  });
});

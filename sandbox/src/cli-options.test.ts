import { describe, expect, it } from 'vitest';
import { exposedApi, parseSandboxArgs } from './cli-options';

describe('parseSandboxArgs', () => {
  it('takes --allowed-hosts and --public-origin for a deployment behind a proxy', () => {
    const options = parseSandboxArgs([
      '--allowed-hosts',
      'Ledger.example.com',
      '--public-origin',
      'https://ledger.example.com',
    ]);

    expect(options.allowedHosts).toEqual(['ledger.example.com']);
    expect(options.publicOrigins).toEqual(['https://ledger.example.com']);
  });

  it('reports traffic cost only with --traffic-cost', () => {
    expect(parseSandboxArgs([])).not.toHaveProperty('trafficCost');
    expect(parseSandboxArgs(['--traffic-cost']).trafficCost).toBe(true);
  });

  it('leaves them out by default and refuses malformed ones', () => {
    const options = parseSandboxArgs([]);

    expect(options).not.toHaveProperty('allowedHosts');
    expect(options).not.toHaveProperty('publicOrigins');
    expect(() => parseSandboxArgs(['--allowed-hosts', 'a:1'])).toThrow(/--allowed-hosts/);
    expect(() => parseSandboxArgs(['--public-origin', 'a.example.com'])).toThrow(/--public-origin/);
  });

  it('takes --auth oidc with the provider’s defaults, and its flags', () => {
    expect(parseSandboxArgs(['--auth', 'oidc']).oidc).toEqual({
      port: 0,
      accessTokenTtl: 600,
      refreshTokenTtl: 28_800,
      consoleOrigins: ['http://127.0.0.1:4173', 'http://localhost:4173', 'http://127.0.0.1:5173'],
    });
    const options = parseSandboxArgs([
      '--auth',
      'oidc',
      '--oidc-port',
      '4401',
      '--oidc-access-token-ttl',
      '30',
      '--oidc-refresh-token-ttl',
      '3600',
      '--oidc-redirect-origin',
      'http://127.0.0.1:9000,http://localhost:9000/',
      '--oidc-redirect-origin',
      'https://console.example.com',
    ]);
    expect(options.oidc).toEqual({
      port: 4401,
      accessTokenTtl: 30,
      refreshTokenTtl: 3600,
      consoleOrigins: [
        'http://127.0.0.1:9000',
        'http://localhost:9000',
        'https://console.example.com',
      ],
    });
    expect(parseSandboxArgs(['--auth', 'jwt'])).not.toHaveProperty('oidc');
  });

  it.each([
    [['--auth', 'saml'], '--auth must be "none", "jwt" or "oidc", got "saml"'],
    [['--oidc-port', '4401'], '--oidc-port needs --auth oidc'],
    [
      ['--auth', 'jwt', '--oidc-access-token-ttl', '60'],
      '--oidc-access-token-ttl needs --auth oidc',
    ],
    [['--oidc-redirect-origin', 'http://a.test'], '--oidc-redirect-origin needs --auth oidc'],
    [
      ['--auth', 'oidc', '--oidc-port', '65536'],
      '--oidc-port must be a whole number from 0 to 65535, got "65536"',
    ],
    [
      ['--auth', 'oidc', '--oidc-port=-1'],
      '--oidc-port must be a whole number from 0 to 65535, got "-1"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '4'],
      '--oidc-access-token-ttl must be a whole number from 5 to 86400, got "4"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '1.5'],
      '--oidc-access-token-ttl must be a whole number from 5 to 86400, got "1.5"',
    ],
    [
      ['--auth', 'oidc', '--oidc-refresh-token-ttl', '2592001'],
      '--oidc-refresh-token-ttl must be a whole number from 60 to 2592000, got "2592001"',
    ],
    [
      ['--auth', 'oidc', '--oidc-refresh-token-ttl', 'soon'],
      '--oidc-refresh-token-ttl must be a whole number from 60 to 2592000, got "soon"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '7200', '--oidc-refresh-token-ttl', '3600'],
      '--oidc-refresh-token-ttl (3600) must not be shorter than --oidc-access-token-ttl (7200)',
    ],
    [
      ['--auth', 'oidc', '--oidc-redirect-origin', 'http://127.0.0.1:4173/sign-in'],
      '--oidc-redirect-origin must be origins like https://console.example.com (scheme, host, optional port), got http://127.0.0.1:4173/sign-in',
    ],
    [
      ['--auth', 'oidc', '--jwt-secret', 's'],
      '--jwt-secret does not apply to --auth oidc: its tokens are verified through the provider’s JWKS only',
    ],
  ])('refuses %j', (args, message) => {
    expect(() => parseSandboxArgs(args)).toThrow(message);
  });
});

describe('exposedApi', () => {
  it('is nothing in oidc mode: every request needs a token from a loopback-only provider', () => {
    expect(exposedApi(parseSandboxArgs(['--auth', 'oidc']))).toBeUndefined();
  });

  it('is the API itself without auth, token minting with jwt', () => {
    expect(exposedApi(parseSandboxArgs([]))).toEqual({ kind: 'no-auth' });
    expect(exposedApi(parseSandboxArgs(['--auth', 'jwt']))).toEqual({ kind: 'token-minting' });
  });
});

describe('body limits on the command line', () => {
  it('takes --max-request-bytes and --max-dar-bytes, and refuses anything but a byte count', () => {
    const options = parseSandboxArgs(['--max-request-bytes', '1024', '--max-dar-bytes', '4096']);
    expect(options).toMatchObject({ maxRequestBytes: 1024, maxDarBytes: 4096 });
    expect(parseSandboxArgs([])).not.toHaveProperty('maxRequestBytes');
    for (const value of ['0', '-1', '8MiB', '1.5']) {
      expect(() => parseSandboxArgs([`--max-request-bytes=${value}`])).toThrow(
        /--max-request-bytes must be a positive number of bytes/,
      );
    }
  });
});

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

  it('leaves them out by default and refuses malformed ones', () => {
    const options = parseSandboxArgs([]);

    expect(options).not.toHaveProperty('allowedHosts');
    expect(options).not.toHaveProperty('publicOrigins');
    expect(() => parseSandboxArgs(['--allowed-hosts', 'a:1'])).toThrow(/--allowed-hosts/);
    expect(() => parseSandboxArgs(['--public-origin', 'a.example.com'])).toThrow(/--public-origin/);
  });
});

describe('exposedApi', () => {
  it('is the API itself without auth, token minting with jwt', () => {
    expect(exposedApi(parseSandboxArgs([]))).toEqual({ kind: 'no-auth' });
    expect(exposedApi(parseSandboxArgs(['--auth', 'jwt']))).toEqual({ kind: 'token-minting' });
  });
});

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

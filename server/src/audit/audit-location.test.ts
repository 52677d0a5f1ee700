import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditStoreLocation } from './audit-location';

describe('auditStoreLocation', () => {
  it('defaults to audit.db under --data-dir, else memory', () => {
    expect(auditStoreLocation(undefined, undefined)).toEqual({ kind: 'memory' });
    expect(auditStoreLocation(undefined, '/var/lib/console')).toEqual({
      kind: 'file',
      path: '/var/lib/console/audit.db',
    });
  });

  it('takes a path, a file: URL or :memory:', () => {
    expect(auditStoreLocation('logs/audit.db', '/elsewhere')).toEqual({
      kind: 'file',
      path: path.resolve('logs/audit.db'),
    });
    expect(auditStoreLocation('file:///srv/shared%20disk/audit.db', undefined)).toEqual({
      kind: 'file',
      path: '/srv/shared disk/audit.db',
    });
    expect(auditStoreLocation(':memory:', '/data')).toEqual({ kind: 'memory' });
  });

  it('takes a libsql server’s URL, with its token only from the environment', () => {
    expect(
      auditStoreLocation('libsql://audit.example.com', undefined, {
        LEDGER_CONSOLE_AUDIT_DB_TOKEN: 'tok',
      }),
    ).toEqual({ kind: 'remote', url: 'libsql://audit.example.com', authToken: 'tok' });
    expect(auditStoreLocation('https://audit.example.com:8443/', undefined)).toEqual({
      kind: 'remote',
      url: 'https://audit.example.com:8443/',
    });
  });

  it.each([
    ['', 'must not be empty'],
    ['libsql://audit.example.com?authToken=abc', 'put the token in LEDGER_CONSOLE_AUDIT_DB_TOKEN'],
    ['https://user:pw@audit.example.com', 'must not carry credentials'],
    ['postgres://db/audit', 'got postgres:'],
    ['file:///tmp/a.db?mode=ro', 'takes no query'],
  ])('refuses %s', (value, message) => {
    expect(() => auditStoreLocation(value, undefined)).toThrow(message);
  });
});

import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where the audit log is kept (ADR 020), from `--audit-db` and `--data-dir`: a SQLite file on
 * this machine, a libsql server several console replicas share, or memory.
 */
export type AuditStoreLocation =
  | { kind: 'memory' }
  | { kind: 'file'; path: string }
  /** The auth token comes only from the environment (LEDGER_CONSOLE_AUDIT_DB_TOKEN), never a flag. */
  | { kind: 'remote'; url: string; authToken?: string };

/** How long entries are kept, and how many at most, unless `--audit-retention-days` / `--audit-max-entries` say otherwise. */
export const DEFAULT_AUDIT_RETENTION = { days: 90, maxEntries: 1_000_000 } as const;

/** The file name of the audit log under `--data-dir`. */
export const AUDIT_DB_FILE = 'audit.db';
export const AUDIT_DB_TOKEN_ENV = 'LEDGER_CONSOLE_AUDIT_DB_TOKEN';

/**
 * The store named by `--audit-db` (a path, a `file:` URL, `libsql://`/`http(s)://` URL or
 * `:memory:`), else `<dataDir>/audit.db`, else memory. Throws with a message for the command line.
 */
export function auditStoreLocation(
  value: string | undefined,
  dataDir: string | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
): AuditStoreLocation {
  if (value === undefined) {
    return dataDir === undefined
      ? { kind: 'memory' }
      : { kind: 'file', path: path.resolve(dataDir, AUDIT_DB_FILE) };
  }
  if (value === '') throw new Error('--audit-db must not be empty');
  if (value === ':memory:') return { kind: 'memory' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  // One letter before the colon is a Windows drive (C:\…), not a scheme.
  if (scheme === undefined || scheme.length === 1) {
    return { kind: 'file', path: path.resolve(value) };
  }
  if (scheme === 'file') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`--audit-db: ${value} is not a valid file: URL`);
    }
    if (url.search || url.hash) throw new Error('--audit-db: a file: URL takes no query');
    return { kind: 'file', path: decodeURIComponent(url.pathname) };
  }
  if (scheme !== 'libsql' && scheme !== 'http' && scheme !== 'https') {
    throw new Error(
      `--audit-db must be a file path, a file: URL, or a libsql://, https:// or http:// URL of a libsql server, got ${scheme}:`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--audit-db: ${value} is not a valid URL`);
  }
  // Flags show up in process lists and shell history: a secret never rides in one.
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(
      `--audit-db must not carry credentials or a query (authToken=…); put the token in ${AUDIT_DB_TOKEN_ENV}`,
    );
  }
  const authToken = env[AUDIT_DB_TOKEN_ENV];
  return { kind: 'remote', url: url.href, ...(authToken ? { authToken } : {}) };
}

/** The `file:` URL @libsql/client opens for a path. */
export function fileUrlOf(location: { path: string }): string {
  return pathToFileURL(location.path).href;
}

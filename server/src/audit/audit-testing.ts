import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AUDIT_LOG_PATH, type AuditPage } from '@ledger-console/edge/console-api';
import { closeServer, createServer, type CreateServerOptions } from '../create-server';
import { createAuditLog, type AuditLog, type AuditLogOptions } from './audit-log';

/** Test code only: a console with an audit log in front of a participant, over loopback. */

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/** A dist/ with just an index.html: these tests are about the API paths, not the SPA. */
export async function tinyDist(): Promise<string> {
  const distDir = await mkdtemp(path.join(tmpdir(), 'ledger-console-audit-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Ledger Console</title>');
  return distDir;
}

export type AuditedConsole = {
  url: string;
  log: AuditLog;
  server: http.Server;
  close(): Promise<void>;
};

export async function startAuditedConsole(
  distDir: string,
  ledgerUrl: string,
  logOptions: AuditLogOptions,
  serverOptions: Partial<CreateServerOptions> = {},
): Promise<AuditedConsole> {
  const log = await createAuditLog(logOptions);
  const server = createServer({ distDir, ledgerUrl, audit: log, ...serverOptions });
  const url = await listen(server);
  return {
    url,
    log,
    server,
    close: async () => {
      await closeServer(server);
      await log.close();
    },
  };
}

/** `GET /__console/audit` as `token` (null: no Authorization header). */
export async function readAudit(
  consoleUrl: string,
  token: string | null,
  query: Record<string, string> = {},
): Promise<{ status: number; page: AuditPage; body: string }> {
  const response = await fetch(
    `${consoleUrl}${AUDIT_LOG_PATH}?${new URLSearchParams(query).toString()}`,
    { headers: token === null ? {} : { Authorization: `Bearer ${token}` } },
  );
  const body = await response.text();
  return { status: response.status, page: JSON.parse(body) as AuditPage, body };
}

/** A JSON call through the console, as the SPA makes it. */
export async function callLedger(
  consoleUrl: string,
  method: string,
  pathAndQuery: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${consoleUrl}${pathAndQuery}`, {
    method,
    headers: {
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** The body of `POST /v2/users` for a user without rights. */
export function newUser(id: string, identityProviderId = '', annotations = {}) {
  return {
    user: {
      id,
      primaryParty: '',
      isDeactivated: false,
      identityProviderId,
      metadata: { resourceVersion: '', annotations },
    },
    rights: [],
  };
}

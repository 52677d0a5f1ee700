import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { onTestFinished, vi } from 'vitest';
import { PARTICIPANTS_PATH } from '@ledger-console/edge/console-api';
import { env } from '@/env';
import { tinyDist } from '../../server/src/audit/audit-testing';
import { closeServer, createServer } from '../../server/src/create-server';
import { startSandbox } from '../../sandbox/src/index';

// Node's own fetch, taken before any test stubs the global one for the app under test.
const nodeFetch = globalThis.fetch.bind(globalThis);

/**
 * A real sandbox on loopback (no auth) with the real console server in front of it, and the app's
 * requests (to the API base) sent to the console: for the console server's own endpoints that
 * read the participant's websockets, which the in-process sandbox cannot serve to Node.
 * `ledger` is the sandbox's own URL, for seeding. Closed when the test finishes.
 */
export async function routeFetchToConsoleServer(): Promise<{ ledger: string; console: string }> {
  const sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
  const distDir = await tinyDist();
  const server = createServer({ distDir, ledgerUrl: sandbox.url });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const consoleUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  onTestFinished(async () => {
    await closeServer(server);
    await sandbox.close();
    await rm(distDir, { recursive: true, force: true });
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = request.url.replace(env.API_BASE_URL, consoleUrl);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return nodeFetch(url, {
      method: request.method,
      headers: request.headers,
      ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      signal: request.signal,
    });
  });
  return { ledger: sandbox.url, console: consoleUrl };
}

/**
 * The console server's own answer to `GET /__console/participants` for a fleet of these names
 * (in order, the first the default), asked of a real server: tests of the SPA read the list as
 * the server words it, never a hand-written copy. The participants' URLs are never contacted.
 * Returns a handler for routeFetchToParticipants' `console` option.
 */
export async function consoleParticipantList(
  names: readonly string[],
): Promise<(request: Request) => Promise<Response | undefined>> {
  const distDir = await tinyDist();
  const server = createServer({
    distDir,
    participants: names.map((name) => ({ name, ledgerUrl: 'http://127.0.0.1:9' })),
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const consoleUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  let body: string;
  try {
    body = await (await nodeFetch(`${consoleUrl}${PARTICIPANTS_PATH}`)).text();
  } finally {
    await closeServer(server);
    await rm(distDir, { recursive: true, force: true });
  }
  return (request) => {
    const url = new URL(request.url);
    return Promise.resolve(
      url.pathname === PARTICIPANTS_PATH
        ? new Response(body, { headers: { 'Content-Type': 'application/json' } })
        : undefined,
    );
  };
}

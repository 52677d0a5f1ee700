import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { onTestFinished } from 'vitest';
import {
  callLedger,
  newUser,
  startAuditedConsole,
  tinyDist,
  type AuditedConsole,
} from '../../server/src/audit/audit-testing';
import { listen } from '../../sandbox/src/testing/index';
import type { NetworkIntercept, Sandbox } from './sandbox-network';

// Node's own fetch, taken before any test stubs the global one for the app under test.
const nodeFetch = globalThis.fetch.bind(globalThis);

export type AuditedConsoleNetwork = {
  console: AuditedConsole;
  /**
   * Creates a user through the console as `token`'s holder, from outside this browser (a
   * colleague's): the console records it, this browser's own log does not.
   */
  createUserElsewhere: (
    token: string,
    userId: string,
    identityProviderId?: string,
  ) => Promise<void>;
  /** For `renderRoute({ sandbox, intercept })`: every request of the app goes to the console. */
  intercept: NetworkIntercept;
};

/**
 * The real console server with its audit log (in memory) in front of `sandbox`, both on
 * loopback: the app's requests then go through the proxy that records them and reach
 * `GET /__console/audit` as in production; `sandbox` stays at hand for seeding and tokens.
 * Closed when the test finishes.
 */
export async function startAuditedConsoleFor(sandbox: Sandbox): Promise<AuditedConsoleNetwork> {
  const participant = createAdaptorServer({
    fetch: (request: Request) => sandbox.fetch(request),
  }) as Server;
  const ledgerUrl = await listen(participant);
  const distDir = await tinyDist();
  const running = await startAuditedConsole(distDir, ledgerUrl, { location: { kind: 'memory' } });
  onTestFinished(async () => {
    await running.close();
    await new Promise<void>((resolve) => {
      participant.close(() => {
        resolve();
      });
    });
    await rm(distDir, { recursive: true, force: true });
  });
  return {
    console: running,
    createUserElsewhere: async (token, userId, identityProviderId = '') => {
      const { status, text } = await callLedger(
        running.url,
        'POST',
        '/v2/users',
        token,
        newUser(userId, identityProviderId),
      );
      if (status !== 200) throw new Error(`creating ${userId} answered ${String(status)}: ${text}`);
    },
    intercept: async (request) => {
      const url = new URL(request.url);
      const target = new URL(`${url.pathname}${url.search}`, running.url);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return nodeFetch(target, {
        method: request.method,
        headers: request.headers,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      });
    },
  };
}

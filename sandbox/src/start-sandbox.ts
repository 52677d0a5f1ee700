import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type SandboxOptions } from './create-sandbox';
import { guardFetch, refuseUpgrade } from './http/guarded-fetch';
import type { RequestGuardPolicy } from './http/request-guard';
import { attachWebsocketStreams } from './http/websocket-server';
import { streamChannels } from './routes/stream-channels';
import { seedDemo } from './seed/demo-seed';

export type StartSandboxOptions = SandboxOptions & {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  quiet?: boolean;
  /** `demo` fills an empty ledger with demo data through the API (default `none`). */
  seed?: 'demo' | 'none';
  /** Public host names the sandbox is reached by (`--allowed-hosts`), besides loopback. */
  allowedHosts?: readonly string[];
  /** Origins of pages allowed to write, behind a TLS-terminating proxy (`--public-origin`). */
  publicOrigins?: readonly string[];
  /**
   * Holds the demo seed forever once the named step is done (see `SeedOptions.afterStep`), after
   * saying so on stdout: a point where a test can kill the process mid-seed.
   */
  seedPauseAfter?: string;
  /** Largest websocket request message; default 1 MiB (websocket-server.ts). */
  websocketMaxMessageBytes?: number;
  /** How long a websocket may stay open without sending its request; default 30 s. */
  websocketRequestTimeoutMs?: number;
};

export type RunningSandbox = {
  url: string;
  /** The HS256 secret in `jwt` mode (generated when none was given). */
  jwtSecret?: string;
  participantId: string;
  /** Whether the demo seed ran: it is skipped when the ledger already had data. */
  seeded: boolean;
  /** Whether the seed completed one that an interrupted earlier run had started. */
  seedResumed: boolean;
  close(): Promise<void>;
};

/** Serves the sandbox over HTTP on loopback (by default 127.0.0.1:7575). */
export async function startSandbox({
  port = 7575,
  host = '127.0.0.1',
  quiet = false,
  seed = 'none',
  seedPauseAfter,
  allowedHosts = [],
  publicOrigins = [],
  websocketMaxMessageBytes,
  websocketRequestTimeoutMs,
  ...options
}: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const jwtSecret =
    options.auth === 'jwt'
      ? (options.jwtSecret ?? randomBytes(24).toString('base64url'))
      : undefined;
  const sandbox = createSandbox({ ...options, ...(jwtSecret === undefined ? {} : { jwtSecret }) });
  let seeded = false;
  let seedResumed = false;
  if (seed === 'demo') {
    const afterStep = async (step: string) => {
      if (step !== seedPauseAfter) return;
      console.log(`Demo seed paused after ${step}`);
      await new Promise<never>(() => undefined);
    };
    // Before listening, so no client ever sees a half-seeded participant.
    try {
      const result = await seedDemo(sandbox, {
        ...(jwtSecret === undefined ? {} : { jwtSecret }),
        ...(seedPauseAfter === undefined ? {} : { afterStep }),
      });
      seeded = result.seeded;
      seedResumed = result.seeded && result.resumed;
    } catch (error) {
      sandbox.close();
      throw error;
    }
  }
  // Web pages the developer browses must not drive the sandbox on their machine (ADR 010).
  const policy: RequestGuardPolicy = { bindHost: host, allowedHosts, publicOrigins };
  const fetch = guardFetch(sandbox.fetch, policy);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const instance = serve({ fetch, port, hostname: host }, () => {
      resolve(instance);
    });
    instance.once('error', reject);
  });
  const websockets = attachWebsocketStreams(server as Server, {
    channels: streamChannels(sandbox.state),
    authenticate: sandbox.authenticate,
    participantName: sandbox.state.participantName,
    refuseUpgrade: (request) => refuseUpgrade(request, policy),
    ...(websocketMaxMessageBytes === undefined
      ? {}
      : { maxMessageBytes: websocketMaxMessageBytes }),
    ...(websocketRequestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: websocketRequestTimeoutMs }),
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${String(address.port)}`;
  if (!quiet) {
    console.log(`Sandbox participant ${sandbox.state.participantId}`);
    if (sandbox.state.synchronizers.length > 1) {
      const aliases = sandbox.state.synchronizers.map((synchronizer) => synchronizer.alias);
      console.log(
        `Connected to synchronizers ${aliases.join(', ')} (commands are committed on ${aliases[0] ?? ''})`,
      );
    }
    if (seed === 'demo') {
      console.log(
        seedResumed
          ? 'Seeded demo data (completing the seed an interrupted run started)'
          : seeded
            ? 'Seeded demo data'
            : 'Demo seed skipped: the ledger already has data',
      );
    }
    console.log(`JSON Ledger API listening on ${url} (auth: ${options.auth ?? 'none'})`);
  }
  return {
    url,
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    participantId: sandbox.state.participantId,
    seeded,
    seedResumed,
    close: () =>
      new Promise<void>((resolve, reject) => {
        websockets.close();
        server.close((error) => {
          sandbox.close();
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

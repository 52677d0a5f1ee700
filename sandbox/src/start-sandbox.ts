import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { RequestGuardPolicy } from '@ledger-console/edge/request-guard';
import { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox';
import { guardFetch, refuseUpgrade } from './http/guarded-fetch';
import { attachWebsocketStreams } from './http/websocket-server';
import {
  participantAudience,
  startEmbeddedProvider,
  type EmbeddedProvider,
  type EmbeddedProviderOptions,
} from './oidc/embedded-provider';
import { repointEmbeddedIdp } from './oidc/embedded-idp';
import { streamChannels } from './routes/stream-channels';
import { DEMO_IDP, seedDemo } from './seed/demo-seed';

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
  /** `auth: 'oidc'`: the embedded OpenID provider (oidc/embedded-provider.ts). */
  oidc?: OidcSettings;
};

export type OidcSettings = Pick<
  EmbeddedProviderOptions,
  'port' | 'accessTokenTtl' | 'refreshTokenTtl' | 'consoleOrigins'
>;

export type RunningSandbox = {
  url: string;
  /** The HS256 secret in `jwt` mode (generated when none was given). */
  jwtSecret?: string;
  participantId: string;
  /** The embedded OpenID provider in `oidc` mode: its issuers and the client it knows. */
  oidc?: Pick<EmbeddedProvider, 'url' | 'issuers' | 'redirectUris' | 'issueAccessToken'>;
  /** Whether the demo seed ran: it is skipped when the ledger already had data. */
  seeded: boolean;
  /** Whether the seed completed one that an interrupted earlier run had started. */
  seedResumed: boolean;
  close(): Promise<void>;
};

/** Serves the sandbox over HTTP on loopback (by default 127.0.0.1:7575). */
export async function startSandbox(
  startOptions: StartSandboxOptions = {},
): Promise<RunningSandbox> {
  const served = listenOptionsOf(startOptions);
  const { quiet = false, seed = 'none', seedPauseAfter, oidc, ...options } = startOptions;
  const jwtSecret =
    options.auth === 'jwt'
      ? (options.jwtSecret ?? randomBytes(24).toString('base64url'))
      : undefined;
  let provider: EmbeddedProvider | undefined;
  const sandbox = createSandbox({
    ...options,
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    ...(options.auth === 'oidc'
      ? {
          // Like Canton's `jwt-jwks` service with a target audience, for the default IdP.
          authServices: ({ participantId }) =>
            provider
              ? [
                  {
                    kind: 'jwt-jwks' as const,
                    jwksUrl: provider.issuers.default.jwksUri,
                    targetAudience: participantAudience(participantId),
                  },
                ]
              : [],
        }
      : {}),
  });
  if (options.auth === 'oidc') {
    try {
      provider = await startEmbeddedProvider({
        ...oidc,
        consoleOrigins: oidc?.consoleOrigins ?? [],
        participantId: sandbox.state.participantId,
        users: sandbox.state.users,
        idps: sandbox.state.idps,
      });
      // A --data-dir from an earlier run keeps acme-idp pointing at that run's port.
      repointEmbeddedIdp(sandbox.state.idps, DEMO_IDP.identityProviderId, provider.issuers.acme);
    } catch (error) {
      sandbox.close();
      throw error;
    }
  }
  const running = provider;
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
        ...(running === undefined
          ? {}
          : {
              userToken: (userId: string) => running.issueAccessToken('default', userId, 300),
              demoIdp: {
                issuer: running.issuers.acme.issuer,
                jwksUrl: running.issuers.acme.jwksUri,
                audience: DEMO_IDP.audience,
              },
            }),
        ...(seedPauseAfter === undefined ? {} : { afterStep }),
      });
      seeded = result.seeded;
      seedResumed = result.seeded && result.resumed;
    } catch (error) {
      sandbox.close();
      await running?.close();
      throw error;
    }
  }
  let listening: Listening;
  try {
    listening = await listen(sandbox, served);
  } catch (error) {
    // The provider's port would otherwise keep the process alive after the failure is reported.
    await running?.close();
    throw error;
  }
  const { url } = listening;
  if (!quiet) {
    console.log(`Sandbox participant ${sandbox.state.participantId}`);
    if (sandbox.state.synchronizers.length > 1) {
      const aliases = sandbox.state.synchronizers.map((synchronizer) => synchronizer.alias);
      console.log(
        `Connected to synchronizers ${aliases.join(', ')} (commands are committed on ${aliases[0] ?? ''})`,
      );
    }
    if (sandbox.state.trafficCost) {
      console.log('Reporting traffic cost: an inferred model (docs/sandbox-fidelity.md)');
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
    if (running) {
      console.log(
        `OpenID provider (sandbox only): ${running.issuers.default.issuer} (default IdP)`,
      );
      console.log(`                                ${running.issuers.acme.issuer} (acme-idp)`);
    }
  }
  return {
    url,
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    participantId: sandbox.state.participantId,
    ...(running === undefined
      ? {}
      : {
          oidc: {
            url: running.url,
            issuers: running.issuers,
            redirectUris: running.redirectUris,
            issueAccessToken: (issuer, sub, ttlSeconds) =>
              running.issueAccessToken(issuer, sub, ttlSeconds),
          },
        }),
    seeded,
    seedResumed,
    close: () =>
      listening.close().finally(async () => {
        sandbox.close();
        await running?.close();
      }),
  };
}

export type ListenOptions = Required<
  Pick<StartSandboxOptions, 'port' | 'host' | 'allowedHosts' | 'publicOrigins'>
> &
  Pick<StartSandboxOptions, 'websocketMaxMessageBytes' | 'websocketRequestTimeoutMs'>;

type Listening = { url: string; close(): Promise<void> };

/** Where and how a sandbox started with these options listens, defaults applied. */
export function listenOptionsOf(options: StartSandboxOptions): ListenOptions {
  return {
    port: options.port ?? 7575,
    host: options.host ?? '127.0.0.1',
    allowedHosts: options.allowedHosts ?? [],
    publicOrigins: options.publicOrigins ?? [],
    ...(options.websocketMaxMessageBytes === undefined
      ? {}
      : { websocketMaxMessageBytes: options.websocketMaxMessageBytes }),
    ...(options.websocketRequestTimeoutMs === undefined
      ? {}
      : { websocketRequestTimeoutMs: options.websocketRequestTimeoutMs }),
  };
}

/**
 * Puts a sandbox behind a port, with its websocket streams and the request guard; `close` stops
 * listening and leaves the sandbox open.
 */
export async function listen(sandbox: Sandbox, options: ListenOptions): Promise<Listening> {
  const { port, host, websocketMaxMessageBytes, websocketRequestTimeoutMs } = options;
  // Web pages the developer browses must not drive the sandbox on their machine (ADR 010).
  const policy: RequestGuardPolicy = {
    bindHost: host,
    allowedHosts: options.allowedHosts,
    publicOrigins: options.publicOrigins,
  };
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
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${String(address.port)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        websockets.close();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

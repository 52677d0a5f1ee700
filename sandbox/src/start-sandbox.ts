import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type SandboxOptions } from './create-sandbox';

export type StartSandboxOptions = SandboxOptions & {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  quiet?: boolean;
};

export type RunningSandbox = {
  url: string;
  /** The HS256 secret in `jwt` mode (generated when none was given). */
  jwtSecret?: string;
  participantId: string;
  close(): Promise<void>;
};

/** Serves the sandbox over HTTP on loopback (by default 127.0.0.1:7575). */
export async function startSandbox({
  port = 7575,
  host = '127.0.0.1',
  quiet = false,
  ...options
}: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const jwtSecret =
    options.auth === 'jwt'
      ? (options.jwtSecret ?? randomBytes(24).toString('base64url'))
      : undefined;
  const sandbox = createSandbox({ ...options, ...(jwtSecret === undefined ? {} : { jwtSecret }) });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const instance = serve({ fetch: sandbox.fetch, port, hostname: host }, () => {
      resolve(instance);
    });
    instance.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${String(address.port)}`;
  if (!quiet) {
    console.log(`Sandbox participant ${sandbox.state.participantId}`);
    console.log(`JSON Ledger API listening on ${url} (auth: ${options.auth ?? 'none'})`);
  }
  return {
    url,
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    participantId: sandbox.state.participantId,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          sandbox.close();
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

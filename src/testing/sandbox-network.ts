import { vi } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/src/create-sandbox';

export { createSandbox };
export { hs256Token, TEST_SECRET } from '../../sandbox/src/testing/tokens';
export type { Sandbox, SandboxOptions };

export type NetworkHandler = (request: Request) => Promise<Response>;

/**
 * Something in front of the sandbox, as a network or proxy in between would be: to make the
 * participant unreachable, or to answer with a state the sandbox cannot produce.
 */
export type NetworkIntercept = (
  request: Request,
  sandboxFetch: NetworkHandler,
) => Promise<Response>;

export type SandboxNetworkOptions = {
  /** The participant behind the API; a fresh in-process sandbox by default. */
  sandbox?: Sandbox;
  /** In place from the first request on; change it later with `intercept`. */
  intercept?: NetworkIntercept;
};

/**
 * Points `globalThis.fetch` at an in-process sandbox for the current test (vitest's
 * `unstubGlobals` restores it), so the real API client runs end to end without a port.
 */
export function routeFetchToSandbox({
  sandbox = createSandbox(),
  intercept = (request, sandboxFetch) => sandboxFetch(request),
}: SandboxNetworkOptions = {}) {
  const sandboxFetch: NetworkHandler = (request) => Promise.resolve(sandbox.fetch(request));
  let handler: NetworkHandler = (request) => intercept(request, sandboxFetch);
  // Node's Request needs absolute URLs, which vite.config.ts provides through VITE_API_BASE_URL.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init)),
  );
  return {
    sandbox,
    sandboxFetch,
    /** Replaces the intercept for all requests from now on. */
    intercept: (next: NetworkIntercept) => {
      handler = (request) => next(request, sandboxFetch);
    },
  };
}

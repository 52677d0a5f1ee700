import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  checkRequest,
  incomingRequest,
  refusalBody,
  refusalResponseHead,
  type RequestGuardPolicy,
} from '@ledger-console/edge/request-guard';

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * The sandbox's `fetch` with the request guard in front, for its own network server (start-
 * sandbox.ts). In-process callers (tests, benchmarks) use the bare handler: no browser reaches it.
 */
export function guardFetch(fetch: FetchHandler, policy: RequestGuardPolicy): FetchHandler {
  return (request, env) => {
    const url = new URL(request.url);
    const refusal = checkRequest(
      {
        method: request.method,
        target: `${url.pathname}${url.search}`,
        upgrade: false,
        // A Request built in process has no Host header; its URL names the host instead.
        header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : undefined),
      },
      policy,
    );
    if (!refusal) return fetch(request, env);
    // An unread body is drained by @hono/node-server, so the connection survives the refusal.
    return Response.json(refusalBody(refusal, randomBytes(16).toString('hex')), {
      status: refusal.status,
    });
  };
}

/** The same guard for websocket handshakes, which never reach the fetch handler. */
export function refuseUpgrade(
  request: IncomingMessage,
  policy: RequestGuardPolicy,
): string | undefined {
  const refusal = checkRequest(incomingRequest(request, true), policy);
  return refusal && refusalResponseHead(refusal, randomBytes(16).toString('hex'));
}

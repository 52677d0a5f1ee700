import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { createLedgerClient, type Transport } from '../../sandbox/src/scenarios/ledger-client';
import { ledgerSteps, type LedgerSteps } from '../../sandbox/src/scenarios/ledger-steps';

/** A fresh id per call, so tests never collide on one shared sandbox (style guide §B10). */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * Carries the scenario steps' requests through Playwright's request context, which resolves the
 * path against the project's baseURL (the console under test) and shows in its traces.
 */
export function requestContextTransport(request: APIRequestContext): Transport {
  return async (sent) => {
    const { pathname, search } = new URL(sent.url);
    const body = sent.body ? Buffer.from(await sent.arrayBuffer()) : undefined;
    const answer = await request.fetch(`${pathname}${search}`, {
      method: sent.method,
      headers: Object.fromEntries(sent.headers),
      ...(body === undefined ? {} : { data: body }),
    });
    const bytes = await answer.body();
    // A Response for 204 or 304 must have no body at all, not an empty one.
    return new Response(bytes.length > 0 ? new Uint8Array(bytes) : null, {
      status: answer.status(),
      headers: answer.headers(),
    });
  };
}

/**
 * Seeds through the participant's real endpoints, as an administrator would (Keycloak's admin
 * client idea): the scenario steps shared with the demo seed, component tests and benchmarks.
 * `token` is needed against the jwt-mode console. A refused step throws its status and body.
 */
export function seedApi(request: APIRequestContext, token?: string): LedgerSteps {
  return ledgerSteps(
    createLedgerClient({
      transport: requestContextTransport(request),
      ...(token ? { token } : {}),
    }),
  );
}

/** Sandbox only: a token for any user, through the sandbox's own control endpoint. */
export function mintToken(request: APIRequestContext, userId: string): Promise<string> {
  return seedApi(request).mintToken(userId);
}

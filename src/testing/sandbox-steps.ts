import { createLedgerClient } from '../../sandbox/src/scenarios/ledger-client';
import { ledgerSteps, type LedgerSteps } from '../../sandbox/src/scenarios/ledger-steps';
import type { Sandbox } from './sandbox-network';

/** The API base the app under test calls (vite.config.ts); the sandbox ignores the origin. */
const API_BASE = 'http://localhost:3000';

/**
 * The scenario steps (sandbox/src/scenarios) on an in-process sandbox, through its own HTTP API
 * as a client would call it; a refused request fails the test with its status and body. `token`
 * signs every request in jwt mode.
 */
export function sandboxSteps(sandbox: Sandbox, token?: string): LedgerSteps {
  return ledgerSteps(
    createLedgerClient({
      transport: (request) => sandbox.fetch(request),
      baseUrl: API_BASE,
      ...(token ? { token } : {}),
    }),
  );
}

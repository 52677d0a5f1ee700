import type { api } from './client';

/**
 * A typed JSON Ledger API client: the page's own participant's (`api`), or another participant's
 * of the fleet. Request functions that pages also run against other participants (compare
 * projections, search everywhere) take one as their last argument, defaulting to `api`.
 */
export type LedgerClient = typeof api;

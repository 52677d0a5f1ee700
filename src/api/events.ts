import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiClient } from './client';
import type { Schemas } from './schema';
import { eventFormatFor, readScopeKey, type ReadScope } from './updates';

export type ContractCreated = Schemas['JsCreated'];
export type ContractArchived = Schemas['JsArchived'];

/** The events of one contract: its create and, once archived, its archive (ACS-delta view). */
export type ContractEvents = {
  created: ContractCreated | undefined;
  archived: ContractArchived | undefined;
};

// ── requests ───────────────────────────────────────────────────────────────────

/**
 * `events-by-contract-id` for the scope's parties. A contract none of them can see, or one that
 * never existed, is `404 CONTRACT_EVENTS_NOT_FOUND` (ledger-api-behaviour.md §9).
 */
export async function getContractEvents(
  contractId: string,
  scope: ReadScope,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<ContractEvents> {
  const { created, archived } = unwrap(
    await client.POST('/v2/events/events-by-contract-id', {
      body: { contractId, eventFormat: eventFormatFor(scope) },
      ...(signal ? { signal } : {}),
    }),
  );
  return { created, archived };
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const eventQueries = {
  all: () => ['events'] as const,
  byContract: (contractId: string, scope: ReadScope) =>
    queryOptions({
      queryKey: [...eventQueries.all(), 'by-contract', contractId, ...readScopeKey(scope)],
      queryFn: ({ signal }) => getContractEvents(contractId, scope, signal),
    }),
};

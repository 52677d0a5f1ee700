import { queryOptions } from '@tanstack/react-query';
import { isNotFound } from '@/lib/errors/api-error';
import { api, unwrap, type ApiClient } from './client';
import { getContractEvents } from './events';
import type { Schemas } from './schema';
import { readScopeKey, type ReadScope } from './updates';

/**
 * The contract service (`/v2/contracts/contract-by-id`): one contract's payload from the
 * participant's contract store, active or archived, even one created and archived in the same
 * transaction, which the event lookup does not find.
 */

/** What the search box tells of a contract id: visible or not, and then active or archived. */
export type ContractLookup =
  | { status: 'active' | 'archived'; templateId: string }
  /** No contract with this id is visible to the parties read as. */
  | { status: 'missing' };

// ── requests ───────────────────────────────────────────────────────────────────

/** The querying parties of a scope: none means every party, which any-party readers may ask. */
function queryingPartiesOf(scope: ReadScope): string[] {
  return scope.kind === 'any-party' ? [] : [...scope.parties];
}

export async function getContractById(
  contractId: string,
  scope: ReadScope,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<Schemas['GetContractResponse']> {
  const body: Schemas['GetContractRequest'] = {
    contractId,
    queryingParties: queryingPartiesOf(scope),
  };
  return unwrap(
    await client.POST('/v2/contracts/contract-by-id', { body, ...(signal ? { signal } : {}) }),
  );
}

/**
 * Whether the scope's parties can see `contractId`, and whether it is still active: the contract
 * store finds it, the events say if it was archived. A contract the store knows but whose
 * events are not found was created and archived in one transaction (events-by-contract-id reads
 * the ACS delta, where it never appears): archived.
 */
export async function lookUpContract(
  contractId: string,
  scope: ReadScope,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<ContractLookup> {
  let templateId: string;
  try {
    templateId = (await getContractById(contractId, scope, signal, client)).createdEvent.templateId;
  } catch (error) {
    if (isNotFound(error)) return { status: 'missing' };
    throw error;
  }
  try {
    const { archived } = await getContractEvents(contractId, scope, signal, client);
    return { status: archived ? 'archived' : 'active', templateId };
  } catch (error) {
    if (isNotFound(error)) return { status: 'archived', templateId };
    throw error;
  }
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const contractQueries = {
  all: () => ['contracts'] as const,
  lookup: (contractId: string, scope: ReadScope) =>
    queryOptions({
      queryKey: [...contractQueries.all(), 'lookup', contractId, ...readScopeKey(scope)],
      queryFn: ({ signal }) => lookUpContract(contractId, scope, signal),
    }),
};

import { queryOptions } from '@tanstack/react-query';
import { ApiError, DescribedError, isNotFound } from '@/lib/errors/api-error';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { RecognizedId } from '@/lib/values/id-recognition';
import { lookUpContract } from './contracts';
import { getParties } from './parties';
import type { ApiClient } from './client';
import { participantClient, participantKey } from './participants';
import { getCaller } from './session';
import { isEmptyScope, readScopeOf } from './updates';
import { getUpdateView, partiesWithinQueryBudget } from './update-views';
import { getUser } from './users';

/**
 * Reads of one participant made from another participant's page (issue 28): the same update as
 * that participant shows it to the caller signed in there, where parties are hosted, and whether
 * an id is known there. Each takes the participant's client; the caller there is who its stored
 * sign-in says, so its read scope is its own there, not this page's.
 */

/** One participant's view of an update, or why there is none. */
export type Projection =
  | { status: 'found'; tree: TransactionTree }
  /** No such update for the caller's parties there (UPDATE_NOT_FOUND / TRANSACTION_NOT_FOUND). */
  | { status: 'absent' }
  /** The id names a reassignment or topology transaction there. */
  | { status: 'not-a-transaction' }
  /** The participant takes the caller for nobody: no sign-in there, or an expired one. */
  | { status: 'signed-out' }
  /** Signed in, but the user there may read no party. */
  | { status: 'no-read-scope' };

const isSignInRefusal = (error: unknown) => error instanceof ApiError && error.status === 401;

/** The update `updateId` as the participant behind `client` shows it to the caller signed in there. */
export async function getProjection(
  updateId: string,
  client: ApiClient,
  signal?: AbortSignal,
): Promise<Projection> {
  try {
    const scope = readScopeOf(await getCaller(client));
    if (isEmptyScope(scope)) return { status: 'no-read-scope' };
    const view = await getUpdateView({ updateId }, scope, signal, client);
    return view.kind === 'transaction'
      ? { status: 'found', tree: view.tree }
      : { status: 'not-a-transaction' };
  } catch (error) {
    if (isSignInRefusal(error)) return { status: 'signed-out' };
    if (isNotFound(error)) return { status: 'absent' };
    throw error;
  }
}

/**
 * Whether the participant hosts each party (`isLocal`); a party it does not know is not hosted
 * there. Undefined when the caller may not list parties there (party details need an
 * administrator), so hosting stays unknown rather than guessed. Asked in request lines that fit
 * (`partiesWithinQueryBudget`), one after another.
 */
export async function getHosting(
  parties: readonly string[],
  client: ApiClient,
  signal?: AbortSignal,
): Promise<ReadonlyMap<string, boolean> | undefined> {
  const hosted = new Map<string, boolean>(parties.map((party) => [party, false]));
  try {
    for (let rest = [...parties]; rest.length > 0;) {
      const [first, ...others] = partiesWithinQueryBudget(rest);
      if (first === undefined) break;
      for (const details of await getParties([first, ...others], '', signal, client)) {
        if (hosted.has(details.party)) hosted.set(details.party, details.isLocal === true);
      }
      rest = rest.slice(1 + others.length);
    }
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return undefined;
    }
    throw error;
  }
  return hosted;
}

/** What one participant says of an id looked up everywhere. */
export type FoundThere =
  { status: 'found'; detail: string } | { status: 'missing' } | { status: 'signed-out' };

/** The kinds of id looked up on every participant. */
export type FleetSearchId = Extract<
  RecognizedId,
  { kind: 'update' | 'contract' | 'party' | 'user' }
>;

/** How long one participant may take to answer a search everywhere. */
export const FLEET_LOOKUP_TIMEOUT_MS = 5000;

/** The participant did not answer in time: listed as such, not as "not found". */
export class LookupTimeoutError extends DescribedError {
  override readonly name = 'LookupTimeoutError';
  readonly title = 'No answer in time';
  constructor(ms: number) {
    super(`The participant did not answer within ${String(ms / 1000)} s.`);
  }
}

/** Whether the participant behind `client` knows `id`, as the caller signed in there may see. */
export async function findOnParticipant(
  id: FleetSearchId,
  client: ApiClient,
  signal?: AbortSignal,
  timeoutMs: number = FLEET_LOOKUP_TIMEOUT_MS,
): Promise<FoundThere> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await Promise.race([
      lookUp(id, client, bounded),
      new Promise<never>((_, reject) => {
        timeout.addEventListener('abort', () => {
          reject(new LookupTimeoutError(timeoutMs));
        });
      }),
    ]);
  } catch (error) {
    if (timeout.aborted && !(signal?.aborted ?? false)) throw new LookupTimeoutError(timeoutMs);
    throw error;
  }
}

async function lookUp(
  id: FleetSearchId,
  client: ApiClient,
  signal: AbortSignal,
): Promise<FoundThere> {
  try {
    switch (id.kind) {
      case 'update': {
        const projection = await getProjection(id.updateId, client, signal);
        if (projection.status === 'found') {
          const count = projection.tree.order.length;
          return {
            status: 'found',
            detail: `Transaction at offset ${String(projection.tree.offset)}, ${String(count)} ${count === 1 ? 'event' : 'events'} visible`,
          };
        }
        if (projection.status === 'not-a-transaction') {
          return {
            status: 'found',
            detail: 'Not a transaction (a reassignment or topology change)',
          };
        }
        return projection.status === 'signed-out' ? projection : { status: 'missing' };
      }
      case 'contract': {
        const scope = readScopeOf(await getCaller(client));
        if (isEmptyScope(scope)) return { status: 'missing' };
        const found = await lookUpContract(id.contractId, scope, signal, client);
        return found.status === 'missing'
          ? found
          : { status: 'found', detail: found.status === 'active' ? 'Active' : 'Archived' };
      }
      case 'party': {
        const [details] = await getParties([id.party], '', signal, client);
        if (details?.party !== id.party) return { status: 'missing' };
        return {
          status: 'found',
          detail: details.isLocal ? 'Hosted there' : 'Known there, hosted elsewhere',
        };
      }
      case 'user': {
        const user = await getUser({ userId: id.userId, identityProviderId: '' }, client);
        return {
          status: 'found',
          detail: user.isDeactivated ? 'A deactivated user' : 'A user',
        };
      }
    }
  } catch (error) {
    if (isSignInRefusal(error)) return { status: 'signed-out' };
    if (isNotFound(error)) return { status: 'missing' };
    throw error;
  }
}

// ── cache ──────────────────────────────────────────────────────────────────────

/**
 * Reads of a named participant of the fleet (the page's own included), through its client with
 * its stored sign-in; keys start with `['participant', name]` (issue 28's rule).
 */
export const fleetReadQueries = {
  projection: (name: string, updateId: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'updates', 'projection', updateId],
      queryFn: ({ signal }) => getProjection(updateId, participantClient(name), signal),
      retry: false,
    }),
  /** Null where the caller may not list parties there. */
  hosting: (name: string, parties: readonly string[]) =>
    queryOptions({
      queryKey: [...participantKey(name), 'parties', 'hosting', [...parties].sort()],
      queryFn: async ({ signal }) =>
        (await getHosting(parties, participantClient(name), signal)) ?? null,
      retry: false,
      staleTime: 30_000,
    }),
  find: (name: string, id: FleetSearchId) =>
    queryOptions({
      queryKey: [...participantKey(name), 'search', id],
      queryFn: ({ signal }) => findOnParticipant(id, participantClient(name), signal),
      retry: false,
      staleTime: 30_000,
    }),
};

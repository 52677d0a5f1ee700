import { describe, expect, it } from 'vitest';
import type { Caller, UserRight } from '@/lib/access-rights';
import { ApiError } from '@/lib/api-error';
import { routeFetchToSandbox } from '@/testing/sandbox-network';
import { seedFanout, seedIouSplit } from '@/testing/seed-transactions';
import { getContractEvents } from './events';
import {
  getTransactionTree,
  isEndpointMissing,
  listRecentUpdates,
  readScopeOf,
  UPDATES_LIST_LIMIT,
  type ReadScope,
} from './updates';

const ANY: ReadScope = { kind: 'any-party' };

describe('readScopeOf', () => {
  it('reads as any party without a user or with CanReadAsAnyParty, else as its parties', () => {
    expect(readScopeOf({ kind: 'unidentified' })).toEqual(ANY);
    const user = (rights: UserRight[]): Caller => ({
      kind: 'user',
      userId: 'u',
      identityProviderId: '',
      rights,
    });
    expect(readScopeOf(user([{ kind: 'CanReadAsAnyParty' }]))).toEqual(ANY);
    expect(
      readScopeOf(
        user([
          { kind: 'CanActAs', party: 'b::1' },
          { kind: 'CanReadAs', party: 'a::1' },
          { kind: 'CanReadAs', party: 'b::1' },
          { kind: 'CanExecuteAs', party: 'c::1' },
          { kind: 'ParticipantAdmin' },
        ]),
      ),
    ).toEqual({ kind: 'parties', parties: ['a::1', 'b::1'] });
  });
});

describe('isEndpointMissing', () => {
  it('is true for 405/501 and the unknown-path 404, not for a 404 the participant means', () => {
    expect(isEndpointMissing(new ApiError(405, { code: 'HTTP_405', cause: '' }))).toBe(true);
    expect(isEndpointMissing(new ApiError(501, { code: 'HTTP_501', cause: '' }))).toBe(true);
    expect(isEndpointMissing(new ApiError(404, { code: 'HTTP_404', cause: '' }))).toBe(true);
    expect(isEndpointMissing(new ApiError(404, { code: 'UPDATE_NOT_FOUND', cause: '' }))).toBe(
      false,
    );
    expect(isEndpointMissing(new Error('x'))).toBe(false);
  });
});

describe('update requests', () => {
  it('give the same tree from update-by-id, update-by-offset and, where those are gone, the tree lookups', async () => {
    const network = routeFetchToSandbox();
    const { split, owner } = await seedIouSplit(network.sandbox);
    const scope: ReadScope = { kind: 'parties', parties: [owner] };

    const byId = await getTransactionTree({ updateId: split.updateId }, scope);
    expect(byId.order).toEqual([0, 1, 2]);
    expect(byId.roots).toEqual([0]);
    expect(await getTransactionTree({ offset: split.offset }, scope)).toEqual(byId);
    // Any party sees the same nodes, with every witness (the issuer too).
    const byIdForAny = await getTransactionTree({ updateId: split.updateId }, ANY);
    expect(byIdForAny.order).toEqual(byId.order);

    // A participant without the new lookups answers them like any unknown path (§1.10).
    const asked: string[] = [];
    network.intercept((request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      asked.push(pathname);
      if (pathname.startsWith('/v2/updates/update-by-')) {
        return Promise.resolve(
          Response.json(
            { errors: [`POST, uri: ${request.url}`], status: 404, ledgerApiError: null },
            { status: 404 },
          ),
        );
      }
      return sandboxFetch(request);
    });
    expect(await getTransactionTree({ updateId: split.updateId }, scope)).toEqual(byId);
    expect(await getTransactionTree({ offset: split.offset }, scope)).toEqual(byId);
    // Any-party callers ask the tree lookups for every known party.
    expect(await getTransactionTree({ updateId: split.updateId }, ANY)).toEqual(byIdForAny);
    expect(asked).toContain(`/v2/updates/transaction-tree-by-id/${split.updateId}`);
    expect(asked).toContain(`/v2/updates/transaction-tree-by-offset/${String(split.offset)}`);
  });

  it('pass a real not-found on, without trying the deprecated lookups', async () => {
    const network = routeFetchToSandbox();
    const asked: string[] = [];
    network.intercept((request, sandboxFetch) => {
      asked.push(new URL(request.url).pathname);
      return sandboxFetch(request);
    });
    await expect(getTransactionTree({ offset: 99 }, ANY)).rejects.toMatchObject({
      status: 404,
      code: 'UPDATE_NOT_FOUND',
    });
    expect(asked).toEqual(['/v2/updates/update-by-offset']);
  });

  it('list recent transactions newest first in ranges of at most 200 offsets, walking back', async () => {
    const network = routeFetchToSandbox();
    const ranges: { beginExclusive: number; endInclusive: number }[] = [];
    network.intercept(async (request, sandboxFetch) => {
      if (new URL(request.url).pathname === '/v2/updates') {
        const body = (await request.clone().json()) as {
          beginExclusive: number;
          endInclusive: number;
        };
        ranges.push({ beginExclusive: body.beginExclusive, endInclusive: body.endInclusive });
      }
      return sandboxFetch(request);
    });
    // 230 offsets: 200 party allocations, then a split (two transactions, four allocations)
    // and a Fanout of 12 nodes; only transactions are listed.
    await seedIouSplit(network.sandbox);
    const allocations = Array.from({ length: 220 }, (_, i) =>
      network.sandbox.fetch(
        new Request('http://sandbox.test/v2/parties', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ partyIdHint: `filler-${String(i)}` }),
        }),
      ),
    );
    for (const allocation of allocations) await allocation;
    const fanout = await seedFanout(network.sandbox, { width: 10, depth: 1 });

    const first = await listRecentUpdates(ANY, { minimum: 1 });
    expect(first.updates.map((update) => update.updateId)).toEqual([fanout.updateId]);
    expect(first.updates[0]?.eventCount).toBe(12);
    expect(ranges[0]?.endInclusive).toBe(fanout.offset);
    expect(ranges[0]?.beginExclusive).toBe(fanout.offset - UPDATES_LIST_LIMIT);

    const older = await listRecentUpdates(ANY, { endInclusive: first.olderThan ?? 0 });
    expect(older.updates.map((update) => update.offset)).toEqual([4, 3]);
    expect(older.olderThan).toBeNull();
    for (const range of ranges) {
      expect(range.endInclusive - range.beginExclusive).toBeLessThanOrEqual(UPDATES_LIST_LIMIT);
    }
  });
});

describe('getContractEvents', () => {
  it('gives the create and the archive of a contract', async () => {
    const { sandbox } = routeFetchToSandbox();
    const { iouId, create, split, issuer } = await seedIouSplit(sandbox);
    const events = await getContractEvents(iouId, { kind: 'parties', parties: [issuer] });
    expect(events.created?.createdEvent.offset).toBe(create.offset);
    expect(events.archived?.archivedEvent.offset).toBe(split.offset);
    expect(events.archived?.archivedEvent.nodeId).toBe(0);
  });
});

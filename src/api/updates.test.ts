import { describe, expect, it, vi } from 'vitest';
import { STREAM_BATCH_PROTOCOL } from '@ledger-console/edge/console-api';
import type { Caller, UserRight } from '@/lib/access/access-rights';
import { ApiError, describeError, isEndpointMissing } from '@/lib/errors/api-error';
import { routeFetchToSandbox, type Sandbox } from '@/testing/sandbox-network';
import { cantonLikeUpdates } from '@/testing/canton-like-updates';
import { prunedAt } from '@/testing/pruned-at';
import { seedFanout, seedIouSplit } from '@/testing/seed-transactions';
import { sandboxSteps } from '@/testing/sandbox-steps';
import type { LedgerStreamStatus } from './ledger-stream';
import { getContractEvents } from './events';
import {
  clampToPruned,
  findOffsetAtTime,
  getLedgerEnd,
  listNewerUpdates,
  listRecentUpdates,
  readUpdateElement,
  timeInMicros,
  readScopeOf,
  UPDATES_LIST_LIMIT,
  type ReadScope,
} from './updates';
import {
  getTransactionTree,
  NotATransactionError,
  partiesWithinQueryBudget,
  TREE_LOOKUP_QUERY_BUDGET,
} from './update-views';
import { listLatestUpdates, watchUpdates, type LiveUpdatesBatch } from './update-stream';

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

describe('NotATransactionError', () => {
  it('is described for the UI by the one error model', () => {
    expect(describeError(new NotATransactionError({ offset: 4 }))).toEqual({
      title: 'Not a transaction',
      message: 'The update at offset 4 is not a transaction.',
      details: {},
      isAuthProblem: false,
    });
  });
});

describe('clampToPruned', () => {
  it('never begins below the pruning offset, nor below 0', () => {
    expect(clampToPruned(150, 0)).toBe(150);
    expect(clampToPruned(150, 170)).toBe(170);
    expect(clampToPruned(-50, 0)).toBe(0);
    expect(clampToPruned(170, 170)).toBe(170);
  });
});

describe('partiesWithinQueryBudget', () => {
  it('takes parties in order while their query fits, and always the first', () => {
    const parties = Array.from(
      { length: 100 },
      (_, i) => `party-${String(i)}::1220${'ab'.repeat(32)}`,
    );
    const taken = partiesWithinQueryBudget(parties);
    expect(taken.length).toBeGreaterThan(5);
    expect(taken).toEqual(parties.slice(0, taken.length));
    const query = new URLSearchParams(taken.map((party) => ['parties', party])).toString();
    expect(query.length).toBeLessThanOrEqual(TREE_LOOKUP_QUERY_BUDGET);
    expect(partiesWithinQueryBudget(['x'.repeat(5000)])).toHaveLength(1);
    expect(partiesWithinQueryBudget([])).toEqual([]);
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
      if (pathname.startsWith('/v2/')) asked.push(pathname);
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
    // Any-party callers ask the tree lookups for the participant's own parties.
    expect(await getTransactionTree({ updateId: split.updateId }, ANY)).toEqual(byIdForAny);
    expect(asked).toContain(`/v2/updates/transaction-tree-by-id/${split.updateId}`);
    expect(asked).toContain(`/v2/updates/transaction-tree-by-offset/${String(split.offset)}`);
  });

  it('pass a real not-found on, without trying the deprecated lookups', async () => {
    const network = routeFetchToSandbox();
    const asked: string[] = [];
    network.intercept((request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      // The Ledger API only, not the console's own questions (tokenless-access.ts).
      if (pathname.startsWith('/v2/')) asked.push(pathname);
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
    const ranges: UpdatesBody[] = [];
    network.intercept(async (request, sandboxFetch) => {
      if (new URL(request.url).pathname === '/v2/updates') ranges.push(await bodyOf(request));
      return sandboxFetch(request);
    });
    const { fanout, scope, parties } = await seedSparseLedger(network.sandbox);

    const first = await listRecentUpdates(scope, { minimum: 1 });
    // The fanout, and the allocation of its party just before it (a topology transaction).
    expect(first.updates.map((update) => [update.offset, update.kind])).toEqual([
      [fanout.offset, 'transaction'],
      [fanout.offset - 1, 'topology'],
    ]);
    expect(first.updates[0]?.updateId).toBe(fanout.updateId);
    expect(first.updates[0]?.eventCount).toBe(12);
    expect(ranges[0]?.endInclusive).toBe(fanout.offset);
    expect(ranges[0]?.beginExclusive).toBe(fanout.offset - UPDATES_LIST_LIMIT);
    // Newest first from the participant; labelled records, since rows name argument fields.
    expect(ranges[0]?.descendingOrder).toBe(true);
    expect(ranges[0]?.updateFormat.includeTransactions?.eventFormat.verbose).toBe(true);
    expect(ranges[0]?.updateFormat.includeTopologyEvents).toEqual({
      includeParticipantAuthorizationEvents: { parties: parties },
    });

    const older = await listRecentUpdates(scope, { endInclusive: first.olderThan ?? 0 });
    // The Iou's create and split, and the allocations of its bank and owner.
    expect(older.updates.map((update) => update.offset)).toEqual([4, 3, 2, 1]);
    expect(older.olderThan).toBeNull();
    for (const range of ranges) {
      expect(range.endInclusive - range.beginExclusive).toBeLessThanOrEqual(UPDATES_LIST_LIMIT);
    }
  });

  it.each([
    ['newest first', true],
    ['oldest first (descendingOrder ignored, as before 3.5)', false],
  ])(
    'miss no transaction when offset checkpoints fill a list to its limit, read %s',
    async (_, honoursDescending) => {
      const network = routeFetchToSandbox();
      const { fanout, scope } = await seedSparseLedger(network.sandbox);
      network.intercept(cantonLikeUpdates(honoursDescending));

      const first = await listRecentUpdates(scope, { minimum: 1 });
      expect(first.updates.map((update) => update.offset)).toEqual([
        fanout.offset,
        fanout.offset - 1,
      ]);
      const older = await listRecentUpdates(scope, { endInclusive: first.olderThan ?? 0 });
      expect(older.updates.map((update) => update.offset)).toEqual([4, 3, 2, 1]);
    },
  );

  it('begin no range below the pruning offset', async () => {
    const network = routeFetchToSandbox();
    const { split, create } = await seedIouSplit(network.sandbox);
    const ranges: UpdatesBody[] = [];
    network.intercept(async (request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      // The sandbox never prunes: answer as a participant pruned up to the Iou's create.
      if (pathname === '/v2/state/latest-pruned-offsets') {
        return Response.json({
          participantPrunedUpToInclusive: create.offset,
          allDivulgedContractsPrunedUpToInclusive: create.offset,
        });
      }
      if (pathname === '/v2/updates') ranges.push(await bodyOf(request));
      return sandboxFetch(request);
    });

    const page = await listRecentUpdates(ANY);
    expect(page.updates.map((update) => update.offset)).toEqual([split.offset]);
    expect(page.olderThan).toBeNull();
    expect(ranges.map((range) => range.beginExclusive)).toEqual([create.offset]);
  });

  it('ask the tree lookups, for any-party callers, for as many local parties as fit a request line', async () => {
    const network = routeFetchToSandbox();
    const { split } = await seedIouSplit(network.sandbox);
    await allocateParties(network.sandbox, 60, (i) => `${'long-hint-'.repeat(10)}${String(i)}`);
    const queries: string[] = [];
    network.intercept((request, sandboxFetch) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith('/v2/updates/update-by-')) {
        return Promise.resolve(
          Response.json(
            { errors: [`POST, uri: ${request.url}`], status: 404, ledgerApiError: null },
            { status: 404 },
          ),
        );
      }
      if (url.pathname.startsWith('/v2/updates/transaction-tree-by-id/')) {
        queries.push(url.search.slice(1));
      }
      return sandboxFetch(request);
    });
    // Some nodes may be missing (witnessed only by parties left out); the request is not refused.
    await getTransactionTree({ updateId: split.updateId }, ANY).catch((error: unknown) => {
      expect(error).toMatchObject({ status: 404, code: 'UPDATE_NOT_FOUND' });
    });
    const [query = ''] = queries;
    expect(query.length).toBeLessThanOrEqual(TREE_LOOKUP_QUERY_BUDGET);
    const asked = new URLSearchParams(query).getAll('parties');
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThan(62);
  });
});

type UpdatesBody = {
  beginExclusive: number;
  endInclusive: number;
  descendingOrder?: boolean;
  updateFormat: {
    includeTransactions?: { eventFormat: { verbose?: boolean } };
    includeTopologyEvents?: unknown;
  };
};

const bodyOf = async (request: Request) => (await request.clone().json()) as UpdatesBody;

async function allocateParties(sandbox: Sandbox, count: number, hint: (i: number) => string) {
  const allocations = Array.from({ length: count }, (_, i) =>
    sandbox.fetch(
      new Request('http://sandbox.test/v2/parties', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partyIdHint: hint(i) }),
      }),
    ),
  );
  for (const allocation of allocations) await allocation;
}

/**
 * 230 offsets: an Iou and its split (two transactions at 3 and 4, after two parties), 220 party
 * allocations, then a Fanout of 12 nodes at the end; only transactions are listed.
 */
async function seedSparseLedger(sandbox: Sandbox) {
  const split = await seedIouSplit(sandbox);
  await allocateParties(sandbox, 220, (i) => `filler-${String(i)}`);
  const fanout = await seedFanout(sandbox, { width: 10, depth: 1 });
  // The history shows the allocations of the parties it reads (topology transactions): reading
  // for every party but the fillers leaves their offsets empty.
  const parties = sandbox.state.parties
    .page('', '', 10_000)
    .map((record) => record.party)
    .filter((party) => !party.startsWith('filler-'));
  const scope: ReadScope = { kind: 'parties', parties };
  return { split, fanout, scope, parties };
}

describe('the last updates /live starts with', () => {
  it('reads the newest N of every kind, oldest first, up to the end the stream continues from', async () => {
    const network = routeFetchToSandbox();
    const { split, create } = await seedIouSplit(network.sandbox);
    const end = await getLedgerEnd();

    const two = await listLatestUpdates(ANY, 2);
    expect(two.updates.map((update) => update.offset)).toEqual([create.offset, split.offset]);
    expect(two).toMatchObject({ endInclusive: end, shortBecause: null });

    // Fewer exist than asked: all of them (the two party allocations too), and why.
    const ten = await listLatestUpdates(ANY, 10);
    expect(ten.updates.map((update) => update.kind)).toEqual([
      'topology',
      'topology',
      'transaction',
      'transaction',
    ]);
    expect(ten).toMatchObject({ endInclusive: end, shortBecause: 'start', offsetsRead: end });

    const none = await listLatestUpdates(ANY, 0);
    expect(none).toMatchObject({ updates: [], endInclusive: end, shortBecause: null });
  });

  it('stops after a bounded number of offsets when the caller sees little of a long ledger', async () => {
    const network = routeFetchToSandbox();
    const ranges: UpdatesBody[] = [];
    const { owner, split } = await seedIouSplit(network.sandbox);
    await allocateParties(network.sandbox, 1010, (i) => `filler-${String(i)}`);
    network.intercept(async (request, sandboxFetch) => {
      if (new URL(request.url).pathname === '/v2/updates') ranges.push(await bodyOf(request));
      return sandboxFetch(request);
    });

    const latest = await listLatestUpdates({ kind: 'parties', parties: [owner] }, 10);
    // The split lies more than 1,000 offsets back: out of reach, and said so.
    expect(latest.updates).toEqual([]);
    expect(latest.shortBecause).toBe('bound');
    expect(latest.offsetsRead).toBe(5 * UPDATES_LIST_LIMIT);
    expect(ranges.every((range) => range.descendingOrder === true)).toBe(true);
    expect(split.offset).toBeLessThan(latest.endInclusive - latest.offsetsRead);
  }, 30_000);
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

describe('the transactions history', () => {
  it('summarises each transaction from its events', async () => {
    const network = routeFetchToSandbox();
    const { split, create } = await seedIouSplit(network.sandbox);
    const page = await listRecentUpdates(ANY);
    expect(page.updates.map((update) => [update.offset, update.text])).toEqual([
      [
        split.offset,
        expect.stringMatching(
          /^Exercised Iou:Iou_Split; created Iou ×2; archived 1 contract by owner/,
        ),
      ],
      [create.offset, expect.stringMatching(/^Created Iou by bank-/)],
      // The allocations of the owner and the bank, in plain words.
      [
        2,
        expect.stringMatching(
          /^Party owner-\S+ now hosted on participant sandbox with submission permission$/,
        ),
      ],
      [
        1,
        expect.stringMatching(
          /^Party bank-\S+ now hosted on participant sandbox with submission permission$/,
        ),
      ],
    ]);
    expect(page.prunedUpTo).toBe(0);
    // What the rows show beside the line: the key values by field name, the contracts.
    const [splitRow, createRow] = page.updates;
    expect(createRow?.keyValuesText).toMatch(/^owner owner-\S+ · currency USD · amount 100$/);
    expect(createRow?.contractIds).toEqual([expect.stringMatching(/^00[0-9a-f]+$/)]);
    expect(splitRow?.keyValuesText).toBe('splitAmount 30');
    expect(splitRow?.contractCount).toBe(3);
  });

  it('pages forwards from an offset to the ledger end, in ranges of at most 200 offsets', async () => {
    const network = routeFetchToSandbox();
    const ranges: UpdatesBody[] = [];
    network.intercept(async (request, sandboxFetch) => {
      if (new URL(request.url).pathname === '/v2/updates') ranges.push(await bodyOf(request));
      return sandboxFetch(request);
    });
    const { split, fanout, scope } = await seedSparseLedger(network.sandbox);

    const first = await listNewerUpdates(scope, { beginExclusive: 0, minimum: 1 });
    // The bank's and owner's allocations, then their Iou's create and split.
    expect(first.updates.map((update) => update.offset)).toEqual([
      1,
      2,
      split.create.offset,
      split.split.offset,
    ]);
    expect(first.newerThan).toBe(UPDATES_LIST_LIMIT);
    expect(ranges.every((range) => range.descendingOrder === false)).toBe(true);
    expect(first.reachedEnd).toBe(false);
    const next = await listNewerUpdates(scope, { beginExclusive: first.newerThan });
    expect(next.updates.map((update) => update.offset)).toEqual([fanout.offset - 1, fanout.offset]);
    expect(next.updates.at(-1)?.updateId).toBe(fanout.updateId);
    expect(next).toMatchObject({ reachedEnd: true, newerThan: fanout.offset });
    // At the end, a page reads what came since.
    const later = await seedFanout(network.sandbox, { width: 1, depth: 1 });
    const after = await listNewerUpdates(ANY, { beginExclusive: next.newerThan });
    // The new fanout's party allocation, then the fanout.
    expect(after.updates.map((update) => update.offset)).toEqual([later.offset - 1, later.offset]);
    expect(after.updates.at(-1)?.updateId).toBe(later.updateId);
    expect(next.ledgerEnd).toBe(fanout.offset);
    for (const range of ranges) {
      expect(range.endInclusive - range.beginExclusive).toBeLessThanOrEqual(UPDATES_LIST_LIMIT);
    }
  });

  it('pages forwards from no lower than the pruning offset', async () => {
    const network = routeFetchToSandbox();
    const { split, create } = await seedIouSplit(network.sandbox);
    network.intercept(prunedAt(create.offset));
    const page = await listNewerUpdates(ANY, { beginExclusive: 0 });
    expect(page.updates.map((update) => update.offset)).toEqual([split.offset]);
    expect(page.prunedUpTo).toBe(create.offset);
  });

  it('seeks the first update at or after a time in a bounded number of requests', async () => {
    const network = routeFetchToSandbox();
    const { split, create } = await seedIouSplit(network.sandbox);
    await allocateParties(network.sandbox, 40, (i) => `later-${String(i)}`);
    const timeOf = async (offset: number) =>
      (await getTransactionTree({ offset }, ANY)).recordTime ?? '';
    const createdAt = await timeOf(create.offset);
    const splitAt = await timeOf(split.offset);
    expect(timeInMicros(splitAt)).toBeGreaterThan(timeInMicros(createdAt));
    const ledgerEnd = await getLedgerEnd();

    const atSplit = await findOffsetAtTime(ANY, splitAt);
    expect(atSplit.beginExclusive).toBe(split.offset - 1);
    expect(atSplit.requests).toBeLessThanOrEqual(Math.ceil(Math.log2(ledgerEnd + 1)) + 1);
    const page = await listNewerUpdates(ANY, { beginExclusive: atSplit.beginExclusive });
    expect(page.updates[0]?.offset).toBe(split.offset);

    const justAfterCreate = microsLater(createdAt, 1);
    expect((await findOffsetAtTime(ANY, justAfterCreate)).beginExclusive).toBe(split.offset - 1);
    expect((await findOffsetAtTime(ANY, createdAt)).beginExclusive).toBe(create.offset - 1);
    expect((await findOffsetAtTime(ANY, '2000-01-01T00:00:00Z')).beginExclusive).toBe(0);
    expect((await findOffsetAtTime(ANY, '2999-01-01T00:00:00Z')).beginExclusive).toBe(ledgerEnd);

    network.intercept(prunedAt(create.offset));
    expect(await findOffsetAtTime(ANY, '2000-01-01T00:00:00Z')).toMatchObject({
      beginExclusive: create.offset,
      prunedUpTo: create.offset,
    });
  });

  it('compares record times to the microsecond', () => {
    expect(
      timeInMicros('2026-01-01T00:00:00.000002Z') - timeInMicros('2026-01-01T00:00:00.000001Z'),
    ).toBe(1);
    expect(timeInMicros('2026-01-01T01:00:00+01:00')).toBe(timeInMicros('2026-01-01T00:00:00Z'));
    expect(timeInMicros('2026-01-01T00:00:00.5Z') - timeInMicros('2026-01-01T00:00:00Z')).toBe(
      500_000,
    );
    expect(timeInMicros('not a time')).toBeNaN();
  });
});

describe('readUpdateElement', () => {
  it('reads offset checkpoints, reassignments and topology transactions', () => {
    expect(
      readUpdateElement({
        OffsetCheckpoint: {
          value: {
            offset: 12,
            synchronizerTimes: [
              { synchronizerId: 'a::1', recordTime: '2026-01-01T00:00:01.000002Z' },
              { synchronizerId: 'b::1', recordTime: '2026-01-01T00:00:01.000001Z' },
            ],
          },
        },
      }),
    ).toEqual({ offset: 12, summary: null, recordTime: '2026-01-01T00:00:01.000002Z' });
    const reassignment = readUpdateElement({
      Reassignment: {
        value: {
          updateId: 'r',
          offset: 13,
          recordTime: '2026-01-01T00:00:02Z',
          synchronizerId: 'b::1',
          events: [
            {
              JsUnassignedEvent: {
                value: {
                  source: 'a::1',
                  target: 'b::1',
                  submitter: 'alice::1',
                  contractId: `00${'cd'.repeat(33)}`,
                  templateId: 'p:M:Iou',
                  witnessParties: ['alice::1'],
                },
              },
            },
          ],
        },
      },
    });
    expect(reassignment?.summary?.text).toBe('Unassigned Iou 00cdcd…cdcd from a → b by alice');
    const topology = readUpdateElement({
      TopologyTransaction: {
        value: {
          updateId: 't',
          offset: 14,
          recordTime: '2026-01-01T00:00:03Z',
          synchronizerId: 'a::1',
          events: [
            {
              event: {
                ParticipantAuthorizationRevoked: {
                  value: { partyId: 'bob::1', participantId: 'p1::1' },
                },
              },
            },
          ],
        },
      },
    });
    expect(topology).toMatchObject({ offset: 14, summary: { kind: 'topology' } });
    expect(topology?.summary?.text).toBe('Party bob no longer hosted on participant p1');
    expect(topology?.summary).toMatchObject({
      synchronizerId: 'a::1',
      events: [{ kind: 'revoked', partyId: 'bob::1', participantId: 'p1::1' }],
    });
    expect(readUpdateElement(null)).toBeNull();
  });
});

function microsLater(time: string, micros: number): string {
  const total = timeInMicros(time) + micros;
  const seconds = Math.floor(total / 1_000_000);
  const fraction = String(total % 1_000_000).padStart(6, '0');
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

describe('watchUpdates', () => {
  /** The sandbox's websocket, with the sent requests recorded and a way to speak as the participant. */
  function relaySockets() {
    const Base = globalThis.WebSocket;
    const sent: { beginExclusive: number }[] = [];
    const sockets: WebSocket[] = [];
    class Relay extends Base {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
      override send(data: string) {
        sent.push(JSON.parse(data) as { beginExclusive: number });
        super.send(data);
      }
    }
    vi.stubGlobal('WebSocket', Relay);
    /**
     * A message on the newest connection, as the participant would send it: in a batch of its own
     * where the connection carries the console server's batches.
     */
    const receive = (message: unknown) => {
      const socket = sockets.at(-1);
      const text = JSON.stringify(message);
      const data =
        socket?.protocol === STREAM_BATCH_PROTOCOL ? `${String(text.length)}:${text}` : text;
      socket?.dispatchEvent(new MessageEvent('message', { data }));
    };
    return { sent, receive };
  }

  async function until(condition: () => boolean) {
    for (let waited = 0; !condition(); waited += 20) {
      if (waited > 10_000) throw new Error('Timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('resumes after the last offset seen, offset checkpoints included, with no update twice', async () => {
    const network = routeFetchToSandbox();
    const { owner } = await seedIouSplit(network.sandbox);
    const relay = relaySockets();
    const scope: ReadScope = { kind: 'parties', parties: [owner] };
    const batches: LiveUpdatesBatch[] = [];
    const statuses: LedgerStreamStatus[] = [];
    const begin = await getLedgerEnd();
    const stream = watchUpdates({
      scope,
      beginExclusive: begin,
      batchMs: 10,
      onBatch: (batch) => batches.push(batch),
      onStatus: (status) => statuses.push(status),
    });
    const opened = () => statuses.filter((status) => status.kind === 'open').length;
    const updates = () => batches.flatMap((batch) => batch.updates.map((update) => update.offset));
    try {
      await until(() => opened() === 1);
      const steps = sandboxSteps(network.sandbox);
      const issue = () => steps.submit([selfIssuedIou(owner)], { actAs: [owner] });
      const first = await issue();
      await until(() => updates().length === 1);
      expect(batches.at(-1)?.lastOffset).toBe(first.offset);

      // Other parties' allocations move the ledger end past what the owner sees; a checkpoint
      // says the stream has read that far.
      await allocateParties(network.sandbox, 3, (i) => `elsewhere-${String(i)}`);
      const end = await getLedgerEnd();
      relay.receive({
        update: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: [] } } },
      });
      await until(() => batches.at(-1)?.lastOffset === end);

      network.dropStreams();
      await until(() => opened() === 2);
      expect(relay.sent.map((request) => request.beginExclusive)).toEqual([begin, end]);
      expect(statuses.some((status) => status.kind === 'reconnecting')).toBe(true);

      const second = await issue();
      await until(() => updates().length === 2);
      // A checkpoint repeating an offset already passed, and the update at it again, change nothing.
      relay.receive({ update: { OffsetCheckpoint: { value: { offset: first.offset } } } });
      relay.receive({ update: { Transaction: { value: second } } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(updates()).toEqual([first.offset, second.offset]);
      expect(batches.at(-1)?.lastOffset).toBe(second.offset);
    } finally {
      stream.close();
    }
  });
});

/** An Iou of the sandbox's demo package (sandbox/src/ledger/demo-package.ts) issued to oneself. */
const selfIssuedIou = (party: string) => ({
  CreateCommand: {
    templateId: '#sandbox-demo:Demo.Iou:Iou',
    createArguments: { issuer: party, owner: party, currency: 'EUR', amount: '1.0', observers: [] },
  },
});

import { afterEach, describe, expect, it } from 'vitest';
import { WILDCARD_CLAIMS } from '../auth/claims';
import {
  allocateParty,
  createCommand,
  FANOUT,
  IOU,
  submit,
  transactionsOf,
} from '../testing/ledger-history';
import { createTestSandbox, type TestSandbox } from '../testing/test-client';
import { checkpointInjector, type OffsetCheckpoint } from './offset-checkpoints';
import { streamCompletions, streamUpdates } from './update-stream';

const at = (offset: number): OffsetCheckpoint => ({ offset, synchronizerTimes: [] });

describe('checkpointInjector', () => {
  it('sends the checkpoint read at a range start before the first element past it', () => {
    const inject = checkpointInjector(() => at(5));
    expect(inject.mark({ kind: 'rangeBegin', offset: 3 })).toEqual([]);
    expect(inject.mark({ kind: 'element', offset: 4 })).toEqual([]);
    expect(inject.mark({ kind: 'element', offset: 5 })).toEqual([]);
    expect(inject.mark({ kind: 'element', offset: 6 })).toEqual([at(5)]);
    expect(inject.mark({ kind: 'rangeEnd', offset: 8 })).toEqual([]);
  });

  it('sends it at the range end when no element comes after it, and never twice', () => {
    let current = at(8);
    const inject = checkpointInjector(() => current);
    inject.mark({ kind: 'rangeBegin', offset: 3 });
    inject.mark({ kind: 'element', offset: 4 });
    expect(inject.mark({ kind: 'rangeEnd', offset: 8 })).toEqual([at(8)]);
    // The cache has not moved: the next range's start and an idle timeout send nothing.
    expect(inject.mark({ kind: 'rangeBegin', offset: 9 })).toEqual([]);
    expect(inject.mark({ kind: 'rangeEnd', offset: 9 })).toEqual([]);
    expect(inject.mark({ kind: 'timeout' })).toEqual([]);
    current = at(9);
    expect(inject.mark({ kind: 'timeout' })).toEqual([at(9)]);
    expect(inject.mark({ kind: 'timeout' })).toEqual([]);
  });

  it('sends a checkpoint that arrived late at the next range start, when it ends the last one', () => {
    const cache: { current?: OffsetCheckpoint } = {};
    const inject = checkpointInjector(() => cache.current);
    inject.mark({ kind: 'rangeBegin', offset: 1 });
    inject.mark({ kind: 'rangeEnd', offset: 4 });
    cache.current = at(4);
    expect(inject.mark({ kind: 'rangeBegin', offset: 5 })).toEqual([at(4)]);
    // One that predates the previous range's end is never sent.
    const stale = checkpointInjector(() => at(2));
    stale.mark({ kind: 'rangeBegin', offset: 1 });
    stale.mark({ kind: 'rangeEnd', offset: 4 });
    expect(stale.mark({ kind: 'rangeBegin', offset: 5 })).toEqual([]);
    expect(stale.mark({ kind: 'timeout' })).toEqual([]);
  });

  it('sends nothing on an idle timeout in the middle of a range or before any', () => {
    const inject = checkpointInjector(() => at(3));
    expect(inject.mark({ kind: 'timeout' })).toEqual([]);
    inject.mark({ kind: 'rangeBegin', offset: 4 });
    inject.mark({ kind: 'element', offset: 4 });
    expect(inject.mark({ kind: 'timeout' })).toEqual([]);
  });
});

describe('offset checkpoints in streams', () => {
  let t: TestSandbox;
  afterEach(() => {
    t.close();
  });

  /** Alice's Iou, then a Fanout of Bob's that Alice does not see. */
  async function history() {
    const alice = await allocateParty(t, 'Alice');
    const bob = await allocateParty(t, 'Bob');
    submit(
      t,
      [alice],
      [
        createCommand(t, IOU, {
          issuer: alice,
          owner: alice,
          currency: 'USD',
          amount: '1',
          observers: [],
        }),
      ],
    );
    submit(t, [bob], [createCommand(t, FANOUT, { owner: bob, label: 'hidden' })]);
    const { json } = await t.get('/v2/state/ledger-end');
    return { alice, bob, end: json as { offset: number; synchronizerTimes: unknown[] } };
  }

  const updatesRequest = (party: string, beginExclusive: number, endInclusive?: number) => ({
    endpoint: 'updates' as const,
    body: {
      beginExclusive,
      endInclusive: endInclusive ?? null,
      verbose: false,
      updateFormat: transactionsOf([party]),
      descendingOrder: false,
    },
    caller: WILDCARD_CLAIMS,
  });

  const kinds = (elements: any[]) =>
    elements.map((element) => Object.keys(element.update ?? element.completionResponse)[0]);

  /** The next `count` elements; the stream stays open for more. */
  async function take<T>(stream: AsyncGenerator<T>, count: number): Promise<T[]> {
    const out: T[] = [];
    while (out.length < count) {
      const next = await stream.next();
      if (next.done) break;
      out.push(next.value);
    }
    return out;
  }

  it('end a tailing stream that caught up past its last element with the ledger end', async () => {
    t = createTestSandbox({ offsetCheckpoints: { cacheUpdateIntervalMs: 0 } });
    const { alice, end } = await history();
    const stream = streamUpdates(t.state, updatesRequest(alice, 0));
    const elements = await take(stream, 2);
    await stream.return(undefined);
    expect(kinds(elements)).toEqual(['Transaction', 'OffsetCheckpoint']);
    // The ledger end as /v2/state/ledger-end reports it: beyond Alice's transaction.
    expect((elements[1] as any).update.OffsetCheckpoint.value).toEqual(end);
    expect((elements[0] as any).update.Transaction.value.offset).toBe(end.offset - 1);
  });

  it('are left out of closed ranges, and of everything until the cache first knows the end', async () => {
    t = createTestSandbox({ offsetCheckpoints: { cacheUpdateIntervalMs: 0 } });
    const { alice, end } = await history();
    const closed = await t.post('/v2/updates', {
      beginExclusive: 0,
      endInclusive: end.offset,
      updateFormat: transactionsOf([alice]),
    });
    expect(kinds(closed.json)).toEqual(['Transaction']);
    // An open list request is a tailing stream: it ends with the checkpoint.
    const open = await t.post('/v2/updates?stream_idle_timeout_ms=50', {
      beginExclusive: 0,
      updateFormat: transactionsOf([alice]),
    });
    expect(kinds(open.json)).toEqual(['Transaction', 'OffsetCheckpoint']);
    t.close();
    // Canton's default interval: the cache holds the ledger end of startup (none yet).
    t = createTestSandbox();
    const fresh = await history();
    const quiet = await t.post('/v2/updates?stream_idle_timeout_ms=50', {
      beginExclusive: 0,
      updateFormat: transactionsOf([fresh.alice]),
    });
    expect(kinds(quiet.json)).toEqual(['Transaction']);
  });

  it('come while a caught-up stream is idle, once the cache has caught up, once each', async () => {
    const created = Date.now();
    t = createTestSandbox({ offsetCheckpoints: { cacheUpdateIntervalMs: 150, idleTimeoutMs: 50 } });
    const { alice, end } = await history();
    const controller = new AbortController();
    const stream = streamUpdates(t.state, updatesRequest(alice, 0), { signal: controller.signal });
    // The first range is read before the cache (filled at startup, empty) knows any update.
    const [transaction, checkpoint] = await take(stream, 2);
    expect(kinds([transaction, checkpoint])).toEqual(['Transaction', 'OffsetCheckpoint']);
    expect((checkpoint as any).update.OffsetCheckpoint.value).toEqual(end);
    // Not before the cache's first refresh after startup.
    expect(Date.now() - created).toBeGreaterThanOrEqual(150);
    // Idle timeouts keep coming; with nothing new, none sends it again.
    const next = stream.next();
    setTimeout(() => {
      submit(t, [alice], [createCommand(t, FANOUT, { owner: alice, label: 'seen' })]);
    }, 300);
    expect(kinds([(await next).value])).toEqual(['Transaction']);
    expect(kinds([(await stream.next()).value])).toEqual(['OffsetCheckpoint']);
    controller.abort();
    await stream.return(undefined);
  });

  it('come in completion streams too', async () => {
    t = createTestSandbox({ offsetCheckpoints: { cacheUpdateIntervalMs: 0 } });
    const { alice, end } = await history();
    const stream = streamCompletions(t.state, {
      endpoint: 'completions',
      body: { userId: 'alice-app', parties: [alice], beginExclusive: 0 },
      caller: WILDCARD_CLAIMS,
    });
    const elements = await take(stream, 2);
    await stream.return(undefined);
    expect(kinds(elements)).toEqual(['Completion', 'OffsetCheckpoint']);
    expect((elements[1] as any).completionResponse.OffsetCheckpoint.value).toEqual(end);
  });
});

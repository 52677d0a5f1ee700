import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_BATCH_PROTOCOL } from '@ledger-console/edge/console-api';
import { ApiError } from '@/lib/errors/api-error';
import {
  createSandbox,
  hs256Token,
  routeFetchToSandbox,
  TEST_SECRET,
} from '@/testing/sandbox-network';
import { seedFanout, seedIouSplit } from '@/testing/seed-transactions';
import { MemoryStorage } from '@/testing/memory-storage';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { writeAccessToken } from './access-token';
import {
  FIRST_BATCH_MS,
  FIRST_BATCH_SIZE,
  gather,
  isDueOnArrival,
  openLedgerStream,
  type GatheringBatch,
  type LedgerStream,
  type LedgerStreamStatus,
} from './ledger-stream';
import { eventFormatFor, getLedgerEnd, updateFormatFor } from './updates';

const ANY = { kind: 'any-party' } as const;

let stream: LedgerStream | undefined;
beforeEach(() => {
  // Where the browser keeps the access token; unstubbed after each test.
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});
afterEach(() => {
  stream?.close();
  stream = undefined;
});

/** Opens a stream and records what it delivers; `settled` resolves at ended or failed. */
function record(options: Omit<Parameters<typeof openLedgerStream>[0], 'onElements' | 'onStatus'>) {
  const batches: unknown[][] = [];
  const statuses: LedgerStreamStatus[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  stream = openLedgerStream({
    ...options,
    onElements: (elements) => {
      batches.push(elements);
      check();
    },
    onStatus: (status) => {
      statuses.push(status);
      check();
    },
  });
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => {
      waiters.push({ test, resolve });
      check();
    });
  return { batches, statuses, until, elements: () => batches.flat() };
}

const offsetOf = (element: unknown) =>
  (element as { update: { Transaction?: { value: { offset: number } } } }).update.Transaction?.value
    .offset;

describe('openLedgerStream', () => {
  it('streams more active contracts than the list endpoint’s 200, in batches, then ends', async () => {
    const { sandbox } = routeFetchToSandbox();
    await seedFanout(sandbox, { width: 250, depth: 1 });
    const activeAtOffset = await getLedgerEnd();
    const run = record({
      path: '/v2/state/active-contracts',
      request: () => ({ activeAtOffset, eventFormat: eventFormatFor(ANY) }),
    });
    await run.until(() => run.statuses.at(-1)?.kind === 'ended');
    const contracts = run
      .elements()
      .filter(
        (element) =>
          (element as { contractEntry?: { JsActiveContract?: unknown } }).contractEntry
            ?.JsActiveContract,
      );
    expect(contracts).toHaveLength(250);
    expect(run.batches.length).toBeLessThan(50);
    expect(run.statuses.map((status) => status.kind)).toEqual(['connecting', 'open', 'ended']);
  });

  it('reads the console server’s batches and a participant’s own frames alike (ADR 034)', async () => {
    const listed: Record<string, { elements: unknown[]; frames: number; protocol: string }> = {};
    const sandbox = createSandbox();
    await seedFanout(sandbox, { width: 250, depth: 1 });
    for (const streamBatches of [true, false]) {
      routeFetchToSandbox({ sandbox, streamBatches });
      // The page's frames as its handler meets them: how many, and what the socket agreed.
      const Base = globalThis.WebSocket;
      const seen = { frames: 0, protocol: '' };
      class Counting extends Base {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          this.addEventListener('message', () => {
            seen.frames += 1;
            seen.protocol = this.protocol;
          });
        }
      }
      vi.stubGlobal('WebSocket', Counting);
      const activeAtOffset = await getLedgerEnd();
      const run = record({
        path: '/v2/state/active-contracts',
        request: () => ({ activeAtOffset, eventFormat: eventFormatFor(ANY) }),
      });
      await run.until(() => run.statuses.at(-1)?.kind === 'ended');
      listed[String(streamBatches)] = { elements: run.elements(), ...seen };
    }
    const batched = listed.true;
    const plain = listed.false;
    expect(plain?.protocol).toBe('daml.ws.auth');
    expect(plain?.frames).toBe(plain?.elements.length);
    expect(batched?.protocol).toBe(STREAM_BATCH_PROTOCOL);
    expect(batched?.frames).toBeLessThan(10);
    expect(batched?.elements.length).toBeGreaterThanOrEqual(250);
    expect(batched?.elements).toEqual(plain?.elements);
  });

  it('fails on a batch frame it cannot split, and on an error message inside a batch after what came before it', async () => {
    routeFetchToSandbox();
    const Base = globalThis.WebSocket;
    const sockets: WebSocket[] = [];
    class Relay extends Base {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
      override send() {
        // The stream never starts: the test speaks as the console server.
      }
    }
    vi.stubGlobal('WebSocket', Relay);
    const frame = (data: string) => {
      sockets.at(-1)?.dispatchEvent(new MessageEvent('message', { data }));
    };
    const opened = (run: ReturnType<typeof record>) =>
      run.until(() => run.statuses.at(-1)?.kind === 'open');

    const broken = record({ path: '/v2/updates', request: () => ({}) });
    await opened(broken);
    expect(sockets.at(-1)?.protocol).toBe(STREAM_BATCH_PROTOCOL);
    // A length past the frame's end.
    frame('9:{"a":1}');
    const failed = broken.statuses.at(-1) as Extract<LedgerStreamStatus, { kind: 'failed' }>;
    expect(failed.error.code).toBe('STREAM_MESSAGE_UNREADABLE');
    broken.batches.length = 0;

    const erring = record({ path: '/v2/updates', request: () => ({}) });
    await opened(erring);
    const error = JSON.stringify({ code: 'SOME_ERROR', cause: 'no', grpcCodeValue: 5 });
    const element = JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: 3 } } } });
    frame(
      `${String(element.length)}:${element}${String(error.length)}:${error}${String(element.length)}:${element}`,
    );
    const erred = erring.statuses.at(-1) as Extract<LedgerStreamStatus, { kind: 'failed' }>;
    expect(erred.error.code).toBe('SOME_ERROR');
    expect(erred.error.status).toBe(404);
    expect(erring.elements()).toEqual([JSON.parse(element)]);
  });

  it('reports an error message of the stream as the API error, without reconnecting', async () => {
    routeFetchToSandbox();
    const beyond = (await getLedgerEnd()) + 10;
    const run = record({
      path: '/v2/state/active-contracts',
      reconnect: true,
      request: () => ({ activeAtOffset: beyond, eventFormat: eventFormatFor(ANY) }),
    });
    await run.until(() => run.statuses.at(-1)?.kind === 'failed');
    const failed = run.statuses.at(-1) as Extract<LedgerStreamStatus, { kind: 'failed' }>;
    expect(failed.error).toBeInstanceOf(ApiError);
    expect(failed.error.code).toBe('OFFSET_AFTER_LEDGER_END');
    expect(failed.error.status).toBe(400);
    expect(run.statuses.some((status) => status.kind === 'reconnecting')).toBe(false);
  });

  it('explains a refused handshake with the participant’s own answer (401 without a token)', async () => {
    routeFetchToSandbox({ sandbox: createSandbox({ auth: 'jwt', jwtSecret: 'stream-test' }) });
    writeAccessToken(undefined);
    const run = record({
      path: '/v2/updates',
      reconnect: true,
      request: () => ({ beginExclusive: 0, updateFormat: updateFormatFor(ANY) }),
    });
    await run.until(() => run.statuses.at(-1)?.kind === 'failed');
    const failed = run.statuses.at(-1) as Extract<LedgerStreamStatus, { kind: 'failed' }>;
    expect(failed.error.status).toBe(401);
  });

  it('carries the signed-in token so that the participant reads it (the token offered first)', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    routeFetchToSandbox({ sandbox });
    await sandboxSteps(sandbox, await hs256Token('participant_admin')).createUser('reader', {
      rights: [{ kind: 'CanReadAsAnyParty' }],
    });
    writeAccessToken(await hs256Token('reader'));
    const activeAtOffset = await getLedgerEnd();
    const run = record({
      path: '/v2/state/active-contracts',
      request: () => ({ activeAtOffset, eventFormat: eventFormatFor(ANY) }),
    });
    await run.until(() => ['ended', 'failed'].includes(run.statuses.at(-1)?.kind ?? ''));
    // Refused, the handshake would fail (the list endpoint, with the header, would answer).
    expect(run.statuses.at(-1)).toEqual({ kind: 'ended' });
  });

  it('reconnects after a dropped connection and resumes after the last offset seen', async () => {
    const network = routeFetchToSandbox();
    const { sandbox } = network;
    const begin = await getLedgerEnd();
    let lastOffset = begin;
    const requests: number[] = [];
    const run = record({
      path: '/v2/updates',
      reconnect: true,
      batchMs: 10,
      request: () => {
        requests.push(lastOffset);
        return { beginExclusive: lastOffset, updateFormat: updateFormatFor(ANY) };
      },
    });
    const transactionOffsets = () =>
      run.elements().flatMap((element) => {
        const offset = offsetOf(element);
        if (offset !== undefined) lastOffset = Math.max(lastOffset, offset);
        return offset === undefined ? [] : [offset];
      });
    await run.until(() => run.statuses.at(-1)?.kind === 'open');
    await seedIouSplit(sandbox);
    await run.until(() => transactionOffsets().length >= 2);
    network.dropStreams();
    await run.until(() => run.statuses.some((status) => status.kind === 'reconnecting'));
    await sandboxSteps(sandbox).iouSplit();
    await run.until(() => transactionOffsets().length >= 4);
    const offsets = transactionOffsets();
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(requests).toHaveLength(2);
    expect(requests[1]).toBe(offsets[1]);
  });

  it('hands over the first elements after about a frame, then batches every batchMs', async () => {
    const { sandbox } = routeFetchToSandbox();
    await seedIouSplit(sandbox);
    const run = record({
      path: '/v2/updates',
      reconnect: true,
      // Longer than the test waits: only the quick first batch can arrive in time.
      batchMs: 60_000,
      request: () => ({ beginExclusive: 0, updateFormat: updateFormatFor(ANY) }),
    });
    const opened = Date.now();
    await run.until(() => run.batches.length >= 1);
    expect(Date.now() - opened).toBeLessThan(5_000);
    await sandboxSteps(sandbox).iouSplit();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The later updates wait for the next batch.
    expect(run.batches).toHaveLength(1);
  });

  it('hands over the first screenful of a fast stream at once, before its timer is due', async () => {
    const { sandbox } = routeFetchToSandbox();
    await seedFanout(sandbox, { width: 250, depth: 1 });
    const activeAtOffset = await getLedgerEnd();
    const run = record({
      path: '/v2/state/active-contracts',
      // No timer goes off within the test: only the size of the first batch can let it go.
      batchMs: 60_000,
      firstBatchMs: 60_000,
      request: () => ({ activeAtOffset, eventFormat: eventFormatFor(ANY) }),
    });
    await run.until(() => run.batches.length >= 1);
    expect(run.batches[0]).toHaveLength(FIRST_BATCH_SIZE);
    expect(run.statuses.at(-1)?.kind).toBe('open');
  });

  it('hands over an update after a quiet spell after about a frame, not a whole batch later', async () => {
    const { sandbox } = routeFetchToSandbox();
    await seedIouSplit(sandbox);
    // Long enough that the wait below cannot be mistaken for a loaded machine's delay.
    const batchMs = 2_000;
    const run = record({
      path: '/v2/updates',
      reconnect: true,
      batchMs,
      request: () => ({ beginExclusive: 0, updateFormat: updateFormatFor(ANY) }),
    });
    await run.until(() => run.batches.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, batchMs + 100));
    const committing = Date.now();
    await sandboxSteps(sandbox).iouSplit();
    await run.until(() => run.batches.length >= 2);
    // A timer started by the update would have held it for the whole batchMs.
    expect(Date.now() - committing).toBeLessThan(batchMs * 0.75);
  });

  it('stops for good on close(), also while waiting to reconnect', async () => {
    const network = routeFetchToSandbox();
    const run = record({
      path: '/v2/updates',
      reconnect: true,
      request: () => ({ beginExclusive: 0, updateFormat: updateFormatFor(ANY) }),
    });
    await run.until(() => run.statuses.at(-1)?.kind === 'open');
    network.dropStreams();
    await run.until(() => run.statuses.at(-1)?.kind === 'reconnecting');
    stream?.close();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(run.statuses.at(-1)?.kind).toBe('closed');
    expect(network.openStreamCount()).toBe(0);
  });
});

describe('batches as elements come in', () => {
  const batchMs = 100;
  /** The batch as elements arrive at `times` (one each), after a last batch at `lastBatchAt`. */
  function arrivals(times: number[], lastBatchAt: number) {
    let batch: GatheringBatch | undefined;
    return times.map((now) => {
      batch = gather(batch, now, lastBatchAt, batchMs);
      return { ...batch, isDue: isDueOnArrival(batch, now) };
    });
  }

  it('gives the first element after a quiet spell about a frame, and a busy stream batchMs', () => {
    const [quiet] = arrivals([1_000], 0);
    expect(quiet).toMatchObject({ dueAt: 1_000 + FIRST_BATCH_MS, isFirstAfterQuiet: true });
    const [busy] = arrivals([1_030], 1_000);
    expect(busy).toMatchObject({ dueAt: 1_000 + batchMs, isFirstAfterQuiet: false });
  });

  it('lets the first batch after a quiet spell go with the element that finds it due', () => {
    // A flood: elements 1 ms apart, the timer's task never run meanwhile.
    const times = Array.from({ length: 40 }, (_, index) => 5_000 + index);
    const steps = arrivals(times, 0);
    const firstDue = steps.findIndex((step) => step.isDue);
    expect(times[firstDue]).toBe(5_000 + FIRST_BATCH_MS);
    // Within a busy stream a batch keeps to its timer, due or not.
    const busy = arrivals(
      Array.from({ length: 150 }, (_, index) => 1_030 + index),
      1_000,
    );
    expect(busy.some((step) => step.isDue)).toBe(false);
  });

  it('lets the first batch after a quiet spell go once it fills a screen', () => {
    const times = Array.from({ length: FIRST_BATCH_SIZE + 5 }, () => 5_000);
    const steps = arrivals(times, 0);
    expect(steps.findIndex((step) => step.isDue)).toBe(FIRST_BATCH_SIZE - 1);
    // Within a busy stream, size alone lets nothing go.
    const busy = arrivals(times, 4_990);
    expect(busy.some((step) => step.isDue)).toBe(false);
  });
});

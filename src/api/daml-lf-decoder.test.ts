import {
  decodeArchive,
  HASHING_UNAVAILABLE_REASON,
} from '@ledger-console/participant/daml-lf/decode-archive';
import { readDar } from '@ledger-console/participant/daml-lf/read-dar';
import { unzipSync } from 'fflate';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureDar, type FixtureDarName } from '@/testing/seed-packages';
import {
  serveDecodeRequests,
  type DecodeRequest,
  type DecodeResponse,
  type DecodeWorkerScope,
} from './daml-lf-worker';

type Decoder = typeof import('./daml-lf-decoder');

const PING: FixtureDarName = 'workflows';
const PING_MAIN = fixtureDar(PING).main.packageId;
const PING_NAME = fixtureDar(PING).main.name;
const PING_VERSION = fixtureDar(PING).main.version;

/** A fresh, unshared buffer per call: sending one to the worker detaches it. */
function fixture(name: FixtureDarName): ArrayBuffer {
  return fixtureDar(name).bytes().buffer;
}

/** The `ArchivePayload` of the workflows DAR's main package, and another of its packages. */
const payloads = await (async () => {
  const dar = await readDar(new Uint8Array(fixture(PING)));
  const other = dar.packages.find((pkg) => pkg.name === 'fixture-stdlib');
  if (!other) throw new Error('the workflows DAR holds fixture-stdlib');
  return {
    ping: () => dar.main.payload.slice().buffer,
    stdlib: () => other.payload.slice().buffer,
    stdlibId: other.packageId,
  };
})();

/**
 * A stand-in for the browser's `Worker`, running the real worker code (`serveDecodeRequests`) in
 * this thread, asynchronously. Messages are cloned both ways as `postMessage` clones them, and a
 * request's `transfer` list is honoured: the caller's buffers are detached, as in a browser, and
 * recorded so tests can check what was transferred. Answers can be held back and released in any
 * order, and the next one can fail to clone, as an answer `postMessage` cannot send would.
 */
class StubWorker extends EventTarget {
  static spawned: StubWorker[] = [];
  /** Buffers already transferred, hence detached: a browser refuses to send them again. */
  static detached = new WeakSet<Transferable>();

  readonly url: string;
  readonly transferred: Transferable[][] = [];
  terminated = false;
  /** Answers kept until `release`, while holding. */
  private held: DecodeResponse[] | undefined;
  private failNextClone = false;
  /** The worker's side: its global scope's events. */
  private readonly inside = new EventTarget();

  constructor(url: URL | string, options?: WorkerOptions) {
    super();
    this.url = String(url);
    expect(options).toEqual({ type: 'module' });
    StubWorker.spawned.push(this);
    const scope: DecodeWorkerScope = {
      addEventListener: (type: string, listener: (event: MessageEvent) => void) => {
        this.inside.addEventListener(type, listener as EventListener);
      },
      postMessage: (message: DecodeResponse) => {
        this.answer(message);
      },
    };
    serveDecodeRequests(scope);
  }

  postMessage(message: DecodeRequest, transfer: Transferable[] = []): void {
    if (this.terminated) return;
    // The decoder transfers its input instead of copying it; a browser throws for a buffer that
    // is already detached (Node's structuredClone would send it empty).
    const buffers = Object.values(message).filter((value) => value instanceof ArrayBuffer);
    expect(transfer).toEqual(buffers);
    if (transfer.some((buffer) => StubWorker.detached.has(buffer))) {
      throw new DOMException(
        'An ArrayBuffer is detached and could not be cloned.',
        'DataCloneError',
      );
    }
    this.transferred.push(transfer);
    for (const buffer of transfer) StubWorker.detached.add(buffer);
    const data = structuredClone(message, { transfer });
    setTimeout(() => {
      this.inside.dispatchEvent(new MessageEvent('message', { data }));
    }, 0);
  }

  terminate(): void {
    this.terminated = true;
  }

  hold(): void {
    this.held = [];
  }

  /** Delivers the held answers, in the order given by `order` (indexes into what was held). */
  release(order: (held: readonly DecodeResponse[]) => readonly DecodeResponse[] = (h) => h): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const response of order(held)) this.deliver(response);
  }

  heldCount(): number {
    return this.held?.length ?? 0;
  }

  failNextAnswer(): void {
    this.failNextClone = true;
  }

  /** What the worker's side receives when a request cannot be deserialized there. */
  requestUnreadable(): void {
    this.inside.dispatchEvent(new MessageEvent('messageerror'));
  }

  private answer(message: DecodeResponse): void {
    if (this.failNextClone) {
      this.failNextClone = false;
      throw new DOMException('#<Object> could not be cloned.', 'DataCloneError');
    }
    const data = structuredClone(message);
    if (this.held) this.held.push(data);
    else this.deliver(data);
  }

  private deliver(data: DecodeResponse): void {
    setTimeout(() => {
      if (!this.terminated) this.dispatchEvent(new MessageEvent('message', { data }));
    }, 0);
  }
}

/** Waits until `condition` holds, polling across macrotasks (the stub answers in timeouts). */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => {
    expect(condition()).toBe(true);
  });
}

function lastWorker(): StubWorker {
  const worker = StubWorker.spawned.at(-1);
  if (!worker) throw new Error('no worker was spawned');
  return worker;
}

let decoder: Decoder;

beforeEach(async () => {
  StubWorker.spawned = [];
  vi.stubGlobal('Worker', StubWorker);
  // The decoder keeps its worker and pending requests in module state: a fresh module per test.
  vi.resetModules();
  decoder = await import('./daml-lf-decoder');
});

describe('the decoder client, with a Worker', () => {
  it('spawns one worker on first use and transfers the bytes to it', async () => {
    const payload = payloads.ping();
    expect(StubWorker.spawned).toHaveLength(0);

    const contents = await decoder.decodePackagePayload(payload, PING_MAIN);

    expect(contents).toMatchObject({ packageId: PING_MAIN, version: PING_VERSION });
    expect(contents).not.toHaveProperty('internedStrings');
    expect(StubWorker.spawned).toHaveLength(1);
    const worker = lastWorker();
    expect(worker.url).toMatch(/daml-lf-worker\.ts$/);
    // Transferred, not copied: the caller's buffer is now detached.
    expect(worker.transferred).toEqual([[payload]]);
    expect(payload.byteLength).toBe(0);

    await decoder.decodePackageNameVersion(payloads.stdlib(), payloads.stdlibId);
    expect(StubWorker.spawned).toHaveLength(1);
  });

  it('matches answers to requests by id, whatever order they come back in', async () => {
    const first = decoder.decodePackagePayload(payloads.ping(), PING_MAIN);
    const worker = lastWorker();
    worker.hold();
    const second = decoder.decodePackageNameVersion(payloads.stdlib(), payloads.stdlibId);
    const third = decoder.readDarContents(fixture(PING));
    // The first was held too: it was sent before `hold`, but is answered after.
    await until(() => worker.heldCount() === 3);

    worker.release((held) => [...held].reverse());

    expect(await first).toMatchObject({
      packageId: PING_MAIN,
      name: PING_NAME,
    });
    // Only the name and version cross over for a list.
    const summary = await second;
    expect(summary).toMatchObject({ packageId: payloads.stdlibId, name: 'fixture-stdlib' });
    expect(Object.keys(summary).sort()).toEqual(['name', 'packageId', 'version']);
    expect((await third).main.packageId).toBe(PING_MAIN);
  });

  it('runs concurrent requests of one kind side by side', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        index % 2 === 0
          ? decoder.decodePackageNameVersion(payloads.ping(), PING_MAIN)
          : decoder.decodePackageNameVersion(payloads.stdlib(), payloads.stdlibId),
      ),
    );

    expect(results.map((result) => result.name)).toEqual([
      PING_NAME,
      'fixture-stdlib',
      PING_NAME,
      'fixture-stdlib',
      PING_NAME,
      'fixture-stdlib',
    ]);
    expect(StubWorker.spawned).toHaveLength(1);
  });

  it('turns a decoder failure into a DamlLfDecodeError with its reason', async () => {
    const error = await decoder.readDarContents(fixture('illformed')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(decoder.DamlLfDecodeError);
    expect(error).toMatchObject({ reason: 'VALIDATION_FAILED' });
    // Screens read it through the one error model: a warning, titled for people. The model is
    // imported anew, as the decoder was, so that both see the same DescribedError class.
    const { describeError } = await import('@/lib/errors/api-error');
    expect(describeError(error)).toMatchObject({
      title: 'A package is not valid Daml-LF',
      message: (error as Error).message,
      code: 'VALIDATION_FAILED',
      severity: 'warning',
      isAuthProblem: false,
    });
  });

  it('fails every pending request on an error event, and spawns a new worker next time', async () => {
    const worker = lastWorkerAfter(() => {
      void decoder.decodePackagePayload(payloads.ping(), PING_MAIN).catch(() => undefined);
    });
    worker.hold();
    const pending = [
      decoder.decodePackagePayload(payloads.ping(), PING_MAIN),
      decoder.readDarContents(fixture(PING)),
    ].map((promise) => promise.catch((e: unknown) => e));
    await until(() => worker.heldCount() === 3);

    worker.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message: '' }));

    for (const error of await Promise.all(pending)) {
      expect(error).toBeInstanceOf(decoder.DamlLfDecodeError);
      expect(error).toMatchObject({
        reason: 'UNEXPECTED',
        message: 'The Daml-LF decoder stopped',
      });
    }
    expect(worker.terminated).toBe(true);
    // The held answers come too late: nothing waits for them any more, and nothing breaks.
    worker.release();

    expect(await decoder.decodePackageNameVersion(payloads.ping(), PING_MAIN)).toMatchObject({
      version: PING_VERSION,
    });
    expect(StubWorker.spawned).toHaveLength(2);
  });

  it('fails every pending request on a messageerror, keeping the worker', async () => {
    const first = decoder.decodePackagePayload(payloads.ping(), PING_MAIN);
    const worker = lastWorker();
    worker.hold();
    const second = decoder.readDarContents(fixture(PING));
    await until(() => worker.heldCount() === 2);

    worker.dispatchEvent(new MessageEvent('messageerror'));

    for (const error of await Promise.all([first, second].map((p) => p.catch((e: unknown) => e)))) {
      expect(error).toMatchObject({
        reason: 'UNEXPECTED',
        message: 'An answer of the Daml-LF decoder could not be read',
      });
    }
    worker.release();
    expect(worker.terminated).toBe(false);
    expect(await decoder.decodePackageNameVersion(payloads.ping(), PING_MAIN)).toMatchObject({
      version: PING_VERSION,
    });
    expect(StubWorker.spawned).toHaveLength(1);
  });

  it('fails what waits when the worker cannot read a request', async () => {
    const pending = decoder.readDarContents(fixture(PING)).catch((e: unknown) => e);
    const worker = lastWorker();
    worker.hold();

    worker.requestUnreadable();
    await until(() => worker.heldCount() >= 1);
    worker.release();

    expect(await pending).toMatchObject({
      reason: 'UNEXPECTED',
      message: 'The decoder received a request it could not read',
    });
  });

  it('fails a request whose answer the worker cannot send, and answers the next one', async () => {
    const first = decoder.decodePackagePayload(payloads.ping(), PING_MAIN);
    lastWorker().failNextAnswer();

    const error = await first.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(decoder.DamlLfDecodeError);
    expect(error).toMatchObject({ reason: 'UNEXPECTED' });
    expect((error as Error).message).toMatch(
      /^The decoder could not send its answer: .*could not be cloned/,
    );
    expect(await decoder.decodePackageNameVersion(payloads.ping(), PING_MAIN)).toMatchObject({
      version: PING_VERSION,
    });
  });

  it('rejects a request it cannot send, without leaving it pending', async () => {
    const payload = payloads.ping();
    await decoder.decodePackagePayload(payload, PING_MAIN);

    // The buffer went to the worker with the first request: it cannot be sent again.
    const error = await decoder.decodePackagePayload(payload, PING_MAIN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('DataCloneError');
  });
});

describe('without Web Crypto (plain http on a host other than localhost)', () => {
  it('previews a DAR without checking its package ids, and says so', async () => {
    vi.stubGlobal('crypto', undefined);

    const contents = await decoder.readDarContents(fixture(PING));

    expect(contents.main).toMatchObject({ packageId: PING_MAIN, version: PING_VERSION });
    expect(contents.packages).toHaveLength(fixtureDar(PING).packages.length);
    expect(contents.unverifiedReason).toBe(HASHING_UNAVAILABLE_REASON);
    expect(HASHING_UNAVAILABLE_REASON).toBe(
      'package ids not verified: the browser offers hashing only over https or on localhost',
    );
  });

  it('decodes an archive, reporting the hash as not checked', async () => {
    const entries = unzipSync(new Uint8Array(fixture(PING)), {
      filter: (file) => file.name.endsWith(`${PING_MAIN}.dalf`),
    });
    const [dalf] = Object.values(entries);
    if (!dalf) throw new Error('the main DALF');

    expect(await decodeArchive(dalf)).toMatchObject({
      packageId: PING_MAIN,
      computedHash: PING_MAIN,
      hashMatches: true,
      hashVerified: true,
    });
    vi.stubGlobal('crypto', {});
    expect(await decodeArchive(dalf)).toMatchObject({
      packageId: PING_MAIN,
      computedHash: '',
      hashMatches: true,
      hashVerified: false,
    });
  });

  it('checks package ids where Web Crypto exists, and says nothing', async () => {
    const contents = await decoder.readDarContents(fixture(PING));

    expect(contents).not.toHaveProperty('unverifiedReason');
  });
});

/** Runs `start`, which must spawn the worker, and returns it. */
function lastWorkerAfter(start: () => void): StubWorker {
  start();
  return lastWorker();
}

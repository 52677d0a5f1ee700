import { Worker } from 'node:worker_threads';
import { DarError } from '@ledger-console/participant/daml-lf/dar-error';
import type { Dar, ReadDarOptions } from '@ledger-console/participant/daml-lf/read-dar';
import type { ReadDarReply, ReadDarRequest } from './dar-reader-worker';

export type DarReader = {
  /** Reads a DAR off the main thread; rejects with a DarError as `readDar` would. */
  read(bytes: Uint8Array, options?: ReadDarOptions): Promise<Dar>;
  /** Terminates the worker; reads still pending reject. */
  close(): Promise<void>;
};

/**
 * The worker's module is TypeScript. Under `tsx` (npm start, npm run sandbox) a worker inherits
 * tsx's loader through execArgv, but under vitest (which transforms modules itself) it does not,
 * so the worker starts from a tiny ES module that registers tsx's loader and then imports it.
 */
function workerBootstrap(): URL {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  // Through a variable: Vite rewrites `new URL('…', import.meta.url)` into an asset URL, which
  // under vitest's jsdom environment is an http:// one.
  const here = import.meta.url;
  const workerModule = new URL('./dar-reader-worker.ts', here).href;
  const source = [
    `const api = await import(${JSON.stringify(tsxApi)});`,
    `(api.register ?? api.default.register)();`,
    `await import(${JSON.stringify(workerModule)});`,
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/**
 * One worker thread for reading DARs, started on first use (so a sandbox that never sees an upload
 * never pays for it) and restarted if it dies. Requests queue on it one after another.
 */
export function createDarReader(): DarReader {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (dar: Dar) => void; reject: (e: Error) => void }>();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const start = () => {
    const started = new Worker(workerBootstrap());
    // Uploads in progress keep it; otherwise it must not keep the process alive.
    started.unref();
    started.on('message', (reply: ReadDarReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if (reply.ok) waiting.resolve(reply.dar);
      else if (reply.darError) {
        const { reason, message, details } = reply.darError;
        waiting.reject(new DarError(reason, message, details));
      } else waiting.reject(new Error(reply.message));
    });
    started.on('error', (error) => {
      failAll(error);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`The DAR reader stopped (exit code ${String(code)})`));
    });
    return started;
  };

  return {
    read(bytes, options = {}) {
      worker ??= start();
      const target = worker;
      const id = nextId++;
      return new Promise<Dar>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        target.ref();
        const request: ReadDarRequest = { id, bytes, options };
        // Handed over, not copied: the caller has no further use for the upload.
        const transfer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        target.postMessage(request, transfer ? [bytes.buffer as ArrayBuffer] : []);
      });
    },
    async close() {
      const running = worker;
      worker = undefined;
      failAll(new Error('The DAR reader was closed'));
      if (running) await running.terminate();
    },
  };
}

/** How long the shared reader outlives its last user, so back-to-back sandboxes reuse it. */
const SHARED_LINGER_MS = 2000;

let shared: { reader: DarReader; users: number; timer?: NodeJS.Timeout } | undefined;

/**
 * A handle on one worker shared by every sandbox in the process (tests start hundreds, and a
 * worker costs a few hundred ms to start). Closing the last handle terminates the worker after a
 * short linger; an idle worker never keeps the process alive meanwhile.
 */
export function openSharedDarReader(): DarReader {
  shared ??= { reader: createDarReader(), users: 0 };
  const entry = shared;
  entry.users++;
  clearTimeout(entry.timer);
  let closed = false;
  return {
    read(bytes, options) {
      if (closed) return Promise.reject(new Error('The DAR reader was closed'));
      return entry.reader.read(bytes, options);
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      entry.users--;
      if (entry.users === 0) {
        entry.timer = setTimeout(() => {
          if (entry.users > 0) return;
          if (shared === entry) shared = undefined;
          void entry.reader.close();
        }, SHARED_LINGER_MS);
        entry.timer.unref();
      }
      return Promise.resolve();
    },
  };
}

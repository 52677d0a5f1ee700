/**
 * The worker thread behind dar-reader.ts: reads DARs with `readDar`, so that inflating and
 * decoding a large or hostile archive never holds up the sandbox's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { DarError } from '@ledger-console/participant/daml-lf/dar-error';
import { readDar, type ReadDarOptions } from '@ledger-console/participant/daml-lf/read-dar';

export type ReadDarRequest = { id: number; bytes: Uint8Array; options: ReadDarOptions };

export type ReadDarReply =
  | { id: number; ok: true; dar: Awaited<ReturnType<typeof readDar>> }
  | {
      id: number;
      ok: false;
      darError?: { reason: DarError['reason']; message: string; details: DarError['details'] };
      message: string;
    };

const port = parentPort;
if (!port) throw new Error('dar-reader-worker.ts runs only as a worker thread');

port.on('message', (request: ReadDarRequest) => {
  void (async () => {
    let reply: ReadDarReply;
    try {
      reply = { id: request.id, ok: true, dar: await readDar(request.bytes, request.options) };
    } catch (error) {
      reply =
        error instanceof DarError
          ? {
              id: request.id,
              ok: false,
              darError: { reason: error.reason, message: error.message, details: error.details },
              message: error.message,
            }
          : {
              id: request.id,
              ok: false,
              message: error instanceof Error ? error.message : String(error),
            };
    }
    port.postMessage(reply);
  })();
});

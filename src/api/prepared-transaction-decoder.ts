/**
 * The page's side of decoding prepared transactions: requests go to one Web Worker
 * (prepared-transaction-worker.ts), spawned on the first Preview, so that decoding, building the
 * tree and recomputing the hash never block the page; answers are matched to requests by id.
 */
import type { PrepareResponse, PreparedPreview } from './interactive-submission';
import { PreparedTransactionError } from './prepared-transaction-error';
import type { PreparedDecodeRequest, PreparedDecodeResponse } from './prepared-transaction-worker';

type Pending = {
  resolve: (response: PreparedDecodeResponse) => void;
  reject: (error: Error) => void;
};

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAllPending(message: string): void {
  const waiting = [...pending.values()];
  pending.clear();
  for (const request of waiting) request.reject(new Error(message));
}

function spawnWorker(): Worker {
  const spawned = new Worker(new URL('./prepared-transaction-worker.ts', import.meta.url), {
    type: 'module',
  });
  spawned.addEventListener('message', (event: MessageEvent<PreparedDecodeResponse>) => {
    const { id } = event.data;
    if (id === null) {
      if (!event.data.ok) failAllPending(event.data.message);
      return;
    }
    const waiting = pending.get(id);
    pending.delete(id);
    waiting?.resolve(event.data);
  });
  spawned.addEventListener('messageerror', () => {
    failAllPending('An answer of the prepared-transaction decoder could not be read');
  });
  // The script failed to load or threw outside a request: fail what waits, start afresh next time.
  spawned.addEventListener('error', (event) => {
    event.preventDefault();
    failAllPending(event.message || 'The prepared-transaction decoder stopped');
    spawned.terminate();
    if (worker === spawned) worker = undefined;
  });
  return spawned;
}

async function send(request: PreparedDecodeRequest): Promise<PreparedDecodeResponse> {
  if (typeof Worker === 'undefined') {
    // No Web Workers here (jsdom in component tests): decode in this thread. Browsers always take
    // the worker path, which the Playwright journeys and the preview benchmark exercise.
    const { runPreparedDecode } = await import('./prepared-transaction-worker');
    return runPreparedDecode(request);
  }
  worker ??= spawnWorker();
  const target = worker;
  return new Promise((resolve, reject) => {
    pending.set(request.id, { resolve, reject });
    target.postMessage(request);
  });
}

/**
 * Decodes a prepare answer off the page's thread.
 *
 * @throws PreparedTransactionError when the bytes are malformed, too large or not a tree.
 */
export async function decodePreparedInWorker(response: PrepareResponse): Promise<PreparedPreview> {
  const answer = {
    preparedTransaction: response.preparedTransaction,
    preparedTransactionHash: response.preparedTransactionHash,
    hashingSchemeVersion: response.hashingSchemeVersion,
  };
  const result = await send({ id: nextId++, answer });
  if (result.ok) return result.preview;
  throw result.refused ? new PreparedTransactionError(result.message) : new Error(result.message);
}

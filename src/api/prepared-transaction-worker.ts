/**
 * The Web Worker that decodes prepared transactions for the composer's Preview
 * (prepared-transaction-decoder.ts is its page-side client): decoding the protobuf, building the
 * tree and recomputing the V2 hash of a large transaction is one long synchronous task (with the
 * Canton team's hasher it took hundreds of milliseconds for 1,000 nodes and froze the page as
 * long, issue 29; our own hasher, ADR 024, cut that, but 50,000 nodes are still too many for the
 * page's thread). What crosses back is plain data: the tree's Maps and arrays clone as they are.
 */
import type { PreparedPreview } from './interactive-submission';
import { decodePreparedSubmission, type PrepareAnswer } from './prepared-transaction-adapter';
import { PreparedTransactionError } from './prepared-transaction-error';

export type PreparedDecodeRequest = { id: number; answer: PrepareAnswer };

export type PreparedDecodeResponse =
  | { id: number; ok: true; preview: PreparedPreview }
  /** `refused`: the bytes are malformed or too large (a PreparedTransactionError); else a bug. */
  | { id: number | null; ok: false; refused: boolean; message: string };

/** Decodes one request. Exported for the page's fallback where there is no `Worker` (jsdom). */
export function runPreparedDecode({ id, answer }: PreparedDecodeRequest): PreparedDecodeResponse {
  try {
    return { id, ok: true, preview: decodePreparedSubmission(answer) };
  } catch (error) {
    const message = error instanceof Error ? error.message || error.name : String(error);
    return { id, ok: false, refused: error instanceof PreparedTransactionError, message };
  }
}

/** The part of a worker's global scope this worker uses. */
export type PreparedDecodeScope = {
  addEventListener(
    type: 'message',
    listener: (event: MessageEvent<PreparedDecodeRequest>) => void,
  ): void;
  addEventListener(type: 'messageerror', listener: (event: MessageEvent) => void): void;
  postMessage(message: PreparedDecodeResponse): void;
};

/**
 * Answers every request exactly once: a failure when the answer cannot be sent, and one without
 * an id when a request cannot be read, so that nothing the page waits for is left hanging.
 */
export function servePreparedDecodes(scope: PreparedDecodeScope): void {
  const post = (response: PreparedDecodeResponse) => {
    try {
      scope.postMessage(response);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      scope.postMessage({
        id: response.id,
        ok: false,
        refused: false,
        message: `The decoder could not send its answer: ${reason}`,
      });
    }
  };
  scope.addEventListener('message', (event) => {
    post(runPreparedDecode(event.data));
  });
  scope.addEventListener('messageerror', () => {
    post({
      id: null,
      ok: false,
      refused: false,
      message: 'The decoder received a request it could not read',
    });
  });
}

// Only when loaded as a worker: the fallback imports this module into the page itself.
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined') {
  servePreparedDecodes(globalThis);
}

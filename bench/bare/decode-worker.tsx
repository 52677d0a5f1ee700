/**
 * The worker of decode.html: the composer Preview's two steps on one prepare answer, each beside
 * its limit, in this one thread.
 *
 * - decode: ours is `readPreparedSubmission` (base64 → protobuf → the tree, hidden nodes, inputs
 *   and metadata); the limit is the bare decode of the same answer: base64 → the Canton team's
 *   `PreparedTransaction.fromBinary` (the @protobuf-ts message ours also uses), with the fastest
 *   base64 this browser has (`Uint8Array.fromBase64`, else `atob`), as ours does;
 * - hash: ours is `preparedHashVerdict` (the V2 hash recomputed and compared); the limit is the
 *   Canton team's own V2 hasher (`hashPreparedTransaction`, core-tx-visualizer) on the same
 *   decoded message.
 *
 * Each is warmed for at least WARM_UP_MS, then timed in samples of as many runs in a row as fill
 * SAMPLE_MS (Chromium rounds a worker's clock to 0.1 ms, the size of a 100-node decode), ours and
 * the limit alternately.
 */
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import {
  preparedHashVerdict,
  readPreparedSubmission,
  type PrepareAnswer,
} from '@/api/prepared-transaction-adapter';

export type DecodeTimesRequest = { answer: PrepareAnswer; runs: number };
export type Series = { ours: number[]; limit: number[] };
export type DecodeTimes = { decode: Series; hash: Series; nodes: number; bytes: number };

const WARM_UP_MS = 200;
const SAMPLE_MS = 20;

type WithFromBase64 = { fromBase64?: (text: string) => Uint8Array };
const fromBase64 = (Uint8Array as unknown as WithFromBase64).fromBase64;

function base64Bytes(text: string): Uint8Array {
  if (fromBase64) return fromBase64.call(Uint8Array, text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const bareDecode = (base64: string) => PreparedTransaction.fromBinary(base64Bytes(base64));

type Run = () => unknown;

/** Runs `run` untimed until warm; the ms its last run took. */
async function warmUp(run: Run): Promise<number> {
  let runs = 0;
  let spent = 0;
  let last = 0;
  while (runs < 2 || spent < WARM_UP_MS) {
    const start = performance.now();
    await run();
    last = performance.now() - start;
    spent += last;
    runs++;
  }
  return last;
}

/** The mean ms of `repeats` runs in a row. */
async function sample(run: Run, repeats: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < repeats; i++) await run();
  return (performance.now() - start) / repeats;
}

const repeatsFor = (perRunMs: number) =>
  Math.max(1, Math.ceil(SAMPLE_MS / Math.max(perRunMs, 0.01)));

async function series(runs: number, ours: Run, limit: Run): Promise<Series> {
  const oursRepeats = repeatsFor(await warmUp(ours));
  const limitRepeats = repeatsFor(await warmUp(limit));
  const result: Series = { ours: [], limit: [] };
  for (let run = 0; run < runs; run++) {
    result.ours.push(await sample(ours, oursRepeats));
    result.limit.push(await sample(limit, limitRepeats));
  }
  return result;
}

async function decodeTimes({ answer, runs }: DecodeTimesRequest): Promise<DecodeTimes> {
  const reading = readPreparedSubmission(answer);
  const bare = bareDecode(answer.preparedTransaction);
  // Both hashers must agree with the participant, or one of them is timing something else.
  if (!preparedHashVerdict(reading.prepared, answer).isMatching)
    throw new Error('our V2 hash does not match the participant’s');
  if ((await hashPreparedTransaction(bare, 'base64')) !== answer.preparedTransactionHash)
    throw new Error('the Canton team’s V2 hash does not match the participant’s');
  return {
    decode: await series(
      runs,
      () => readPreparedSubmission(answer),
      () => bareDecode(answer.preparedTransaction),
    ),
    hash: await series(
      runs,
      () => preparedHashVerdict(reading.prepared, answer),
      () => hashPreparedTransaction(bare, 'base64'),
    ),
    nodes: Math.max(reading.preview.tree.nodes.size, bare.transaction?.nodes.length ?? 0),
    bytes: reading.preview.byteLength,
  };
}

addEventListener('message', (event: MessageEvent<DecodeTimesRequest>) => {
  void decodeTimes(event.data).then(
    (times) => {
      postMessage(times);
    },
    (error: unknown) => {
      // Thrown outside the promise: the page's `error` listener (askWorker) rejects with it.
      setTimeout(() => {
        throw error instanceof Error ? error : new Error(String(error));
      });
    },
  );
});

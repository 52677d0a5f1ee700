/**
 * The worker of decode.html: times the console's decode of a prepare answer
 * (`decodePreparedSubmission`: base64 → protobuf → the tree, hidden nodes, inputs and metadata,
 * and the V2 hash recomputed) and the bare decode of the same answer (base64 → the Canton team's
 * `PreparedTransaction.fromBinary`, the @protobuf-ts message the console's decoder also uses),
 * alternately in this one thread, after one warm-up of each.
 */
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { decodePreparedSubmission, type PrepareAnswer } from '@/api/prepared-transaction-adapter';

export type DecodeTimesRequest = { answer: PrepareAnswer; runs: number };
export type DecodeTimes = { ours: number[]; limit: number[]; nodes: number; bytes: number };

function bareDecode(base64: string): PreparedTransaction {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return PreparedTransaction.fromBinary(bytes);
}

function decodeTimes({ answer, runs }: DecodeTimesRequest): DecodeTimes {
  const ours: number[] = [];
  const limit: number[] = [];
  let nodes = 0;
  let bytes = 0;
  for (let run = 0; run <= runs; run++) {
    let start = performance.now();
    const preview = decodePreparedSubmission(answer);
    const oursMs = performance.now() - start;
    start = performance.now();
    const bare = bareDecode(answer.preparedTransaction);
    const limitMs = performance.now() - start;
    nodes = Math.max(preview.tree.nodes.size, bare.transaction?.nodes.length ?? 0);
    bytes = preview.byteLength;
    if (run === 0) continue;
    ours.push(oursMs);
    limit.push(limitMs);
  }
  return { ours, limit, nodes, bytes };
}

addEventListener('message', (event: MessageEvent<DecodeTimesRequest>) => {
  postMessage(decodeTimes(event.data));
});

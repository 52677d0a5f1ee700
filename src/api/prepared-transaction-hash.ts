import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import {
  preparedTransactionHashV2 as hashPrepared,
  V2HashError,
  type V2HashOptions,
  type V2HashProblem,
} from '@ledger-console/participant/prepared-transaction-hash';
import { sha256 } from '@noble/hashes/sha2';
import { PreparedTransactionError } from './prepared-transaction-error';
import { PREPARED_TRANSACTION_LIMITS } from './prepared-transaction-limits';

/**
 * The Preview's reading of Canton's hashing scheme V2 (the shared hasher, ADR 024): byte for byte
 * as the Canton team's `hashPreparedTransaction` (`@canton-network/core-tx-visualizer`, which the
 * tests keep as the oracle) computes it, order as received, bounded like the decoder, with
 * `@noble/hashes`' SHA-256 (the browser has no synchronous one) and the Preview's own reasons.
 */

const OPTIONS: V2HashOptions = {
  sha256,
  sortSets: false,
  cantonDecoding: false,
  maxTreeDepth: PREPARED_TRANSACTION_LIMITS.maxTreeDepth,
  maxValueDepth: PREPARED_TRANSACTION_LIMITS.maxValueDepth,
};

function message(problem: V2HashProblem): string {
  switch (problem.kind) {
    case 'no-transaction':
      return 'The prepared transaction has no transaction.';
    case 'no-metadata':
      return 'The prepared transaction has no metadata.';
    case 'no-template-id':
      return problem.nodeId === undefined
        ? 'A create node has no identifier.'
        : `${problem.node === 'exercise' ? 'Exercise' : 'Fetch'} node ${problem.nodeId} has no identifier.`;
    case 'not-int64':
      return `The ${problem.type} ${problem.text.slice(0, 40)} is not an int64.`;
    case 'value-missing':
      return 'A value is missing.';
    case 'value-too-deep':
      return `A value nests deeper than ${String(problem.limit)} levels.`;
    case 'value-kind-unknown':
      return 'A value has no known kind.';
    case 'not-hex':
      return `The contract id ${problem.text.slice(0, 80)} is not hex.`;
    case 'no-seed':
      return `${problem.node === 'exercise' ? 'Exercise' : 'Create'} node ${problem.nodeId} has no seed.`;
    case 'node-missing':
      return `The transaction refers to node ${problem.nodeId}, which it does not hold.`;
    case 'node-repeated':
      return `The transaction refers to node ${problem.nodeId} more than once.`;
    case 'node-id-not-unique':
      return `The transaction holds more than one node ${problem.nodeId}.`;
    case 'tree-too-deep':
      return `The transaction nests deeper than ${String(problem.limit)} levels.`;
    case 'node-version-unknown':
      return `Node ${problem.nodeId} has an unknown node version.`;
    case 'node-type-missing':
      return `Node ${problem.nodeId} has no node type.`;
    case 'input-contract-version-unknown':
      return `Input contract ${String(problem.index + 1)} has an unknown version.`;
  }
}

/** The V2 hash of a prepared transaction: 32 bytes. */
export function preparedTransactionHashV2(prepared: PreparedTransaction): Uint8Array {
  try {
    return hashPrepared(prepared, OPTIONS);
  } catch (error) {
    if (error instanceof V2HashError) throw new PreparedTransactionError(message(error.problem));
    throw error;
  }
}

/** The same hash in base64, as the prepare answer's `preparedTransactionHash` carries it. */
export function preparedTransactionHashV2Base64(prepared: PreparedTransaction): string {
  let binary = '';
  for (const byte of preparedTransactionHashV2(prepared)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

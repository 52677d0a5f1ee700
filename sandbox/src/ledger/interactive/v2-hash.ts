import { createHash } from 'node:crypto';
import type {
  Create,
  DamlTransaction,
  PreparedTransaction,
} from '@canton-network/core-ledger-proto';
import {
  inputContractHashV2,
  preparedTransactionHashV2 as hashPrepared,
  transactionHashV2 as hashTransaction,
  V2HashError,
  type V2HashOptions,
  type V2HashProblem,
} from '@ledger-console/participant/prepared-transaction-hash';

/**
 * The sandbox's reading of Canton's hashing scheme V2 (the shared hasher, ADR 024): a transaction
 * hashed exactly as a participant receiving it would, sets sorted and distinct and the message
 * checked as Canton decodes it, with Node's SHA-256 and Canton's reasons when it cannot be hashed.
 */

/** A transaction the scheme cannot hash; the message is Canton's where it has one. */
export class HashingError extends Error {
  override readonly name = 'HashingError';
}

/** Exercise nesting a transaction may have; Daml's own limit on values is 100. */
const MAX_NODE_DEPTH = 1000;

const OPTIONS: V2HashOptions = {
  sha256: (bytes) => createHash('sha256').update(bytes).digest(),
  sortSets: true,
  cantonDecoding: true,
  // The shared hasher counts the roots as depth 0, ours counted them as 1: the same 1,000 levels.
  maxTreeDepth: MAX_NODE_DEPTH - 1,
  maxValueDepth: MAX_NODE_DEPTH,
};

function message(problem: V2HashProblem): string {
  switch (problem.kind) {
    case 'no-transaction':
      return 'The prepared transaction has no transaction';
    case 'no-metadata':
      return 'The prepared transaction has no metadata';
    case 'no-template-id':
      return 'template id is missing';
    case 'not-int64':
      return `${problem.type} ${problem.text} is not an int64`;
    case 'value-missing':
      return 'A value is missing';
    case 'value-too-deep':
      return 'A value is nested too deeply';
    case 'value-kind-unknown':
      return 'A value has no case set';
    case 'not-hex':
      return `contract id ${problem.text} is not a hex string`;
    case 'no-seed':
      return `Missing node seed for node ${problem.nodeId}`;
    case 'node-missing':
      return `The transaction does not contain a node with nodeId ${problem.nodeId}`;
    case 'node-repeated':
      return `Node ${problem.nodeId} appears more than once in the transaction tree`;
    case 'node-id-not-unique':
      return `Node id ${problem.nodeId} is not unique`;
    case 'tree-too-deep':
      return 'The transaction is nested too deeply';
    case 'node-version-unknown':
      return `Node ${problem.nodeId} has an unsupported node version`;
    case 'node-type-missing':
      return `Node ${problem.nodeId} has no node type`;
    case 'input-contract-version-unknown':
      return 'An input contract has an unsupported contract version';
  }
}

function hashing(hash: () => Uint8Array): Buffer {
  try {
    const digest = hash();
    return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);
  } catch (error) {
    if (error instanceof V2HashError) throw new HashingError(message(error.problem));
    throw error;
  }
}

/** A create node's hash without a seed, as input contracts are hashed. */
export const createNodeHash = (create: Create): Buffer =>
  hashing(() => inputContractHashV2(create, OPTIONS));

/** The hash of the transaction part: its version and its roots' hashes. */
export const transactionHashV2 = (transaction: DamlTransaction, trace?: string[]): Buffer =>
  hashing(() => hashTransaction(transaction, OPTIONS, trace));

/**
 * `preparedTransactionHash`: SHA-256 of the purpose, the scheme version and the two part hashes
 * (a bare 32-byte digest, not a multihash). `trace` collects the hashing details when given.
 */
export const preparedTransactionHashV2 = (
  prepared: PreparedTransaction,
  trace?: string[],
): Buffer => hashing(() => hashPrepared(prepared, OPTIONS, trace));

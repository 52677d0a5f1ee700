import type {
  Create,
  DamlTransaction,
  DamlTransaction_Node,
  Exercise,
  Fetch,
  Identifier,
  Metadata,
  PreparedTransaction,
  Value,
} from '@canton-network/core-ledger-proto';
import { sha256 } from '@noble/hashes/sha2';
import { PreparedTransactionError } from './prepared-transaction-error';
import { PREPARED_TRANSACTION_LIMITS } from './prepared-transaction-limits';

/**
 * Canton's hashing scheme V2 of a prepared transaction, byte for byte as the Canton team's
 * `hashPreparedTransaction` (`@canton-network/core-tx-visualizer`, which the tests keep as the
 * oracle) computes it, but synchronously (ADR 024): theirs awaits a `crypto.subtle.digest` per
 * node and a promise per field, and looks each node's seed up by a linear search, which made it
 * most of the Preview's decoding time. Here every preimage is written into one growing buffer,
 * each node is hashed with SHA-256 over its slice of it and the slice is replaced by the 32 bytes
 * of its hash, and the seeds are a Map built once.
 *
 * Like the decoder, it treats the transaction as untrusted: nodes nest at most
 * `maxTreeDepth` deep and values `maxValueDepth`, so that neither a deep tree nor a cycle of node
 * ids can overflow the stack; each node is hashed once however often it is referred to.
 *
 * One deliberate difference: an Int64 value is encoded exactly, as Canton (and our sandbox) does,
 * where the package goes through `parseInt` and so rounds beyond 2^53.
 */

/** `int32be(48)`: the hash purpose of a prepared transaction. */
const PURPOSE = Uint8Array.of(0, 0, 0, 48);
const HASHING_SCHEME_VERSION_V2 = 2;
const NODE_ENCODING_VERSION = 1;
const METADATA_ENCODING_VERSION = 1;
const NODE_TAG = { create: 0, exercise: 1, fetch: 2, rollback: 3 } as const;
const INT64 = /^-?\d{1,19}$/;

const fail = (message: string): never => {
  throw new PreparedTransactionError(message);
};

/** The value of a hex digit's character code, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** The preimages' bytes: appended to, hashed by slice, and cut back. */
class Preimage {
  bytes = new Uint8Array(64 * 1024);
  private view = new DataView(this.bytes.buffer);
  length = 0;

  private reserve(extra: number) {
    const needed = this.length + extra;
    if (needed <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  byte(value: number) {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array) {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Big-endian; like DataView, a number is taken modulo 2^32. */
  int32(value: number) {
    this.reserve(4);
    this.view.setInt32(this.length, value, false);
    this.length += 4;
  }

  int64(value: bigint) {
    this.reserve(8);
    this.view.setBigInt64(this.length, value, false);
    this.length += 8;
  }

  /** Length-prefixed UTF-8, a lone surrogate as U+FFFD (as TextEncoder writes it). */
  string(text = '', from = 0, to = text.length) {
    this.reserve(4 + (to - from) * 3);
    const start = this.length;
    const bytes = this.bytes;
    let at = start + 4;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        bytes[at++] = code;
      } else if (code < 0x800) {
        bytes[at++] = 0xc0 | (code >> 6);
        bytes[at++] = 0x80 | (code & 0x3f);
      } else if (code >= 0xd800 && code <= 0xdfff) {
        const low = i + 1 < to ? text.charCodeAt(i + 1) : 0;
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          bytes[at++] = 0xf0 | (point >> 18);
          bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
          bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
          bytes[at++] = 0x80 | (point & 0x3f);
          i++;
        } else {
          bytes[at++] = 0xef;
          bytes[at++] = 0xbf;
          bytes[at++] = 0xbd;
        }
      } else {
        bytes[at++] = 0xe0 | (code >> 12);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
      }
    }
    this.view.setInt32(start, at - start - 4, false);
    this.length = at;
  }

  /** The segments of a dotted name as a list of strings, as the package's `split('.')` gives them. */
  dotted(name: string) {
    let count = 1;
    for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', i + 1)) count++;
    this.int32(count);
    let from = 0;
    for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', from)) {
      this.string(name, from, i);
      from = i + 1;
    }
    this.string(name, from);
  }

  strings(texts: readonly string[] | undefined) {
    if (texts === undefined) {
      this.int32(0);
      return;
    }
    this.int32(texts.length);
    for (const text of texts) this.string(text);
  }

  /**
   * A contract id: its hex digits as length-prefixed bytes. Whatever is not a pair of hex digits
   * is read as the package reads it (`parseInt(pair, 16)` into a byte; an odd last digit dropped).
   */
  hex(text = '') {
    const count = text.length >> 1;
    this.int32(count);
    this.reserve(count);
    const bytes = this.bytes;
    for (let i = 0; i < count; i++) {
      const high = nibble(text.charCodeAt(2 * i));
      const low = nibble(text.charCodeAt(2 * i + 1));
      bytes[this.length + i] =
        high >= 0 && low >= 0 ? (high << 4) | low : parseInt(text.slice(2 * i, 2 * i + 2), 16);
    }
    this.length += count;
  }

  /** SHA-256 of the bytes from `start` on, which are then replaced by the hash. */
  hashFrom(start: number): Uint8Array {
    const digest = sha256(this.bytes.subarray(start, this.length));
    this.length = start;
    return digest;
  }
}

function identifier(pre: Preimage, id: Identifier | undefined, what: string) {
  if (!id) return fail(`${what} has no identifier.`);
  pre.string(id.packageId);
  pre.dotted(id.moduleName);
  pre.dotted(id.entityName);
}

function optionalIdentifier(pre: Preimage, id: Identifier | undefined, what: string) {
  if (id === undefined) {
    pre.byte(0);
    return;
  }
  pre.byte(1);
  identifier(pre, id, what);
}

function int64Of(text: string, what: string): bigint {
  if (!INT64.test(text)) fail(`${what} ${text.slice(0, 40)} is not an int64.`);
  return BigInt(text);
}

function value(pre: Preimage, v: Value | undefined, depth: number): void {
  if (depth > PREPARED_TRANSACTION_LIMITS.maxValueDepth) {
    fail(`A value nests deeper than ${String(PREPARED_TRANSACTION_LIMITS.maxValueDepth)} levels.`);
  }
  if (!v) return fail('A value is missing.');
  const { sum } = v;
  const inner = depth + 1;
  switch (sum.oneofKind) {
    case 'unit': {
      pre.byte(0);
      return;
    }
    case 'bool':
      pre.byte(1);
      {
        pre.byte(sum.bool ? 1 : 0);
        return;
      }
    case 'int64':
      pre.byte(2);
      {
        pre.int64(int64Of(sum.int64, 'The Int64'));
        return;
      }
    case 'numeric':
      pre.byte(3);
      {
        pre.string(sum.numeric);
        return;
      }
    case 'timestamp':
      pre.byte(4);
      {
        pre.int64(int64Of(sum.timestamp, 'The Timestamp'));
        return;
      }
    case 'date':
      pre.byte(5);
      {
        pre.int32(sum.date);
        return;
      }
    case 'party':
      pre.byte(6);
      {
        pre.string(sum.party);
        return;
      }
    case 'text':
      pre.byte(7);
      {
        pre.string(sum.text);
        return;
      }
    case 'contractId':
      pre.byte(8);
      {
        pre.hex(sum.contractId);
        return;
      }
    case 'optional':
      pre.byte(9);
      if (sum.optional.value === undefined) {
        pre.byte(0);
        return;
      }
      pre.byte(1);
      {
        value(pre, sum.optional.value, inner);
        return;
      }
    case 'list': {
      pre.byte(10);
      const { elements } = sum.list;
      pre.int32(elements.length);
      for (const element of elements) value(pre, element, inner);
      return;
    }
    case 'textMap': {
      pre.byte(11);
      const { entries } = sum.textMap;
      pre.int32(entries.length);
      for (const entry of entries) {
        pre.string(entry.key);
        value(pre, entry.value, inner);
      }
      return;
    }
    case 'record': {
      pre.byte(12);
      const { recordId, fields } = sum.record;
      optionalIdentifier(pre, recordId, 'A record id');
      pre.int32(fields.length);
      for (const field of fields) {
        // The package hashes the label as optional; protobuf gives "" for none, hashed as present.
        if ((field.label as string | undefined) === undefined) {
          pre.byte(0);
        } else {
          pre.byte(1);
          pre.string(field.label);
        }
        value(pre, field.value, inner);
      }
      return;
    }
    case 'variant':
      pre.byte(13);
      optionalIdentifier(pre, sum.variant.variantId, 'A variant id');
      pre.string(sum.variant.constructor);
      {
        value(pre, sum.variant.value, inner);
        return;
      }
    case 'enum':
      pre.byte(14);
      optionalIdentifier(pre, sum.enum.enumId, 'An enum id');
      {
        pre.string(sum.enum.constructor);
        return;
      }
    case 'genMap': {
      pre.byte(15);
      const { entries } = sum.genMap;
      pre.int32(entries.length);
      for (const entry of entries) {
        value(pre, entry.key, inner);
        value(pre, entry.value, inner);
      }
      return;
    }
    default:
      return fail('A value has no known kind.');
  }
}

/** What hashing the nodes needs: the nodes and seeds by id, the hashes so far. */
type Nodes = {
  pre: Preimage;
  byId: ReadonlyMap<string, DamlTransaction_Node>;
  seeds: ReadonlyMap<string, Uint8Array>;
  hashes: Map<string, Uint8Array>;
};

function createNode(pre: Preimage, create: Create | undefined, seed: Uint8Array | undefined) {
  // The package encodes a missing create as nothing at all.
  if (!create) return;
  pre.byte(NODE_ENCODING_VERSION);
  pre.string(create.lfVersion);
  pre.byte(NODE_TAG.create);
  if (seed === undefined) {
    pre.byte(0);
  } else {
    pre.byte(1);
    pre.raw(seed);
  }
  pre.hex(create.contractId);
  pre.string(create.packageName);
  identifier(pre, create.templateId, 'A create node');
  value(pre, create.argument, 0);
  pre.strings(create.signatories);
  pre.strings(create.stakeholders);
}

function children(nodes: Nodes, ids: readonly string[], depth: number) {
  nodes.pre.int32(ids.length);
  for (const id of ids) nodes.pre.raw(nodeHash(nodes, id, depth));
}

function exerciseNode(nodes: Nodes, exercise: Exercise, id: string, depth: number) {
  const { pre } = nodes;
  const seed = nodes.seeds.get(id) ?? fail(`Exercise node ${id} has no seed.`);
  pre.byte(NODE_ENCODING_VERSION);
  pre.string(exercise.lfVersion);
  pre.byte(NODE_TAG.exercise);
  pre.raw(seed);
  pre.hex(exercise.contractId);
  pre.string(exercise.packageName);
  identifier(pre, exercise.templateId, `Exercise node ${id}`);
  pre.strings(exercise.signatories);
  pre.strings(exercise.stakeholders);
  pre.strings(exercise.actingParties);
  optionalIdentifier(pre, exercise.interfaceId, `Exercise node ${id}'s interface`);
  pre.string(exercise.choiceId);
  value(pre, exercise.chosenValue, 0);
  pre.byte(exercise.consuming ? 1 : 0);
  if (exercise.exerciseResult === undefined) {
    pre.byte(0);
  } else {
    pre.byte(1);
    value(pre, exercise.exerciseResult, 0);
  }
  pre.strings(exercise.choiceObservers);
  children(nodes, exercise.children, depth + 1);
}

function fetchNode(pre: Preimage, fetch: Fetch, id: string) {
  pre.byte(NODE_ENCODING_VERSION);
  pre.string(fetch.lfVersion);
  pre.byte(NODE_TAG.fetch);
  pre.hex(fetch.contractId);
  pre.string(fetch.packageName);
  identifier(pre, fetch.templateId, `Fetch node ${id}`);
  pre.strings(fetch.signatories);
  pre.strings(fetch.stakeholders);
  optionalIdentifier(pre, fetch.interfaceId, `Fetch node ${id}'s interface`);
  pre.strings(fetch.actingParties);
}

/** A node's hash; a node referred to again (only a malformed transaction does) is not redone. */
function nodeHash(nodes: Nodes, id: string, depth: number): Uint8Array {
  const known = nodes.hashes.get(id);
  if (known) return known;
  const { maxTreeDepth } = PREPARED_TRANSACTION_LIMITS;
  // Also what ends a cycle of node ids: a node is remembered only once its hash is done.
  if (depth > maxTreeDepth)
    fail(`The transaction nests deeper than ${String(maxTreeDepth)} levels.`);
  const node =
    nodes.byId.get(id) ?? fail(`The transaction refers to node ${id}, which it does not hold.`);
  if (node.versionedNode.oneofKind !== 'v1') return fail(`Node ${id} has an unknown node version.`);
  const { nodeType } = node.versionedNode.v1;
  const { pre } = nodes;
  const start = pre.length;
  switch (nodeType.oneofKind) {
    case 'create':
      createNode(pre, nodeType.create, nodes.seeds.get(id));
      break;
    case 'exercise':
      exerciseNode(nodes, nodeType.exercise, id, depth);
      break;
    case 'fetch':
      fetchNode(pre, nodeType.fetch, id);
      break;
    case 'rollback':
      pre.byte(NODE_ENCODING_VERSION);
      pre.byte(NODE_TAG.rollback);
      children(nodes, nodeType.rollback.children, depth + 1);
      break;
    default:
      return fail(`Node ${id} has no node type.`);
  }
  const hash = pre.hashFrom(start);
  nodes.hashes.set(id, hash);
  return hash;
}

function transactionHash(pre: Preimage, transaction: DamlTransaction): Uint8Array {
  const byId = new Map<string, DamlTransaction_Node>();
  // As the package's dictionary: the last node of an id wins, the first seed.
  for (const node of transaction.nodes) byId.set(node.nodeId, node);
  const seeds = new Map<string, Uint8Array>();
  for (const { nodeId, seed } of transaction.nodeSeeds) {
    const id = String(nodeId);
    if (!seeds.has(id)) seeds.set(id, seed);
  }
  const start = pre.length;
  pre.raw(PURPOSE);
  pre.string(transaction.version);
  children({ pre, byId, seeds, hashes: new Map() }, transaction.roots, 0);
  return pre.hashFrom(start);
}

function metadataHash(pre: Preimage, metadata: Metadata): Uint8Array {
  const start = pre.length;
  pre.raw(PURPOSE);
  pre.byte(METADATA_ENCODING_VERSION);
  pre.strings(metadata.submitterInfo?.actAs);
  pre.string(metadata.submitterInfo?.commandId);
  pre.string(metadata.transactionUuid);
  pre.int32(metadata.mediatorGroup);
  pre.string(metadata.synchronizerId);
  for (const time of [metadata.minLedgerEffectiveTime, metadata.maxLedgerEffectiveTime]) {
    if (time === undefined) {
      pre.byte(0);
    } else {
      pre.byte(1);
      pre.int64(time);
    }
  }
  pre.int64(metadata.preparationTime);
  const inputs = metadata.inputContracts;
  pre.int32(inputs.length);
  inputs.forEach((input, index) => {
    if (input.contract.oneofKind !== 'v1') {
      fail(`Input contract ${String(index + 1)} has an unknown version.`);
      return;
    }
    pre.int64(input.createdAt);
    const contractStart = pre.length;
    // A create node without a seed: the package hashes it as node "unused_node_id" of no seeds.
    createNode(pre, input.contract.v1, undefined);
    pre.raw(pre.hashFrom(contractStart));
  });
  return pre.hashFrom(start);
}

/** The V2 hash of a prepared transaction: 32 bytes. */
export function preparedTransactionHashV2(prepared: PreparedTransaction): Uint8Array {
  const transaction = prepared.transaction ?? fail('The prepared transaction has no transaction.');
  const metadata = prepared.metadata ?? fail('The prepared transaction has no metadata.');
  const pre = new Preimage();
  const transactionDigest = transactionHash(pre, transaction);
  const metadataDigest = metadataHash(pre, metadata);
  pre.raw(PURPOSE);
  pre.byte(HASHING_SCHEME_VERSION_V2);
  pre.raw(transactionDigest);
  pre.raw(metadataDigest);
  return pre.hashFrom(0);
}

/** The same hash in base64, as the prepare answer's `preparedTransactionHash` carries it. */
export function preparedTransactionHashV2Base64(prepared: PreparedTransaction): string {
  let binary = '';
  for (const byte of preparedTransactionHashV2(prepared)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

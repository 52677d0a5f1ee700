import { createHash } from 'node:crypto';
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
import { HASH_PURPOSE } from '../external/keys';

/**
 * Canton's hashing scheme V2 for prepared transactions (documentation "Hashing algorithm V2";
 * `TransactionHash`, `v2.NodeHashBuilder`, `v2.TransactionMetadataHasher`), computed from the
 * protobuf message itself so that a transaction is hashed exactly as a participant receiving it
 * would: every field in a fixed order, lengths and counts as big-endian int32, each node hashed on
 * its own with its children's hashes in place of the children. Where Canton hashes a set (parties,
 * input contracts) the elements are hashed sorted and distinct, as Canton decodes them.
 */

export const HASHING_SCHEME_V2 = 2;

/** A node seed: 32 bytes, per create and exercise node, by node id. */
type Seeds = ReadonlyMap<number, Uint8Array>;

/** A transaction the scheme cannot hash; the message is Canton's where it has one. */
export class HashingError extends Error {
  override readonly name = 'HashingError';
}

/** Exercise nesting a transaction may have; Daml's own limit on values is 100. */
const MAX_NODE_DEPTH = 1000;

const NODE_ENCODING_V1 = 1;
const METADATA_ENCODING_V1 = 1;
const NODE_TAG = { create: 0, exercise: 1, fetch: 2, rollback: 3 } as const;
const VALUE_TAG = {
  unit: 0,
  bool: 1,
  int64: 2,
  numeric: 3,
  timestamp: 4,
  date: 5,
  party: 6,
  text: 7,
  contractId: 8,
  optional: 9,
  list: 10,
  textMap: 11,
  record: 12,
  variant: 13,
  enum: 14,
  genMap: 15,
} as const;

const INT64 = /^-?\d{1,19}$/;
const HEX = /^(?:[0-9a-f]{2})*$/;

/**
 * Collects the bytes of one hash's preimage and, when tracing, a line per field (the prepare
 * response's `hashingDetails`).
 */
class Preimage {
  private readonly parts: Buffer[] = [];
  constructor(
    private readonly trace: string[] | undefined,
    private readonly indent = '',
  ) {}

  private push(bytes: Buffer, what: string) {
    this.parts.push(bytes);
    this.trace?.push(`${this.indent}${bytes.toString('hex')} - ${what}`);
    return this;
  }

  /** A line of context in the trace only. */
  note(what: string) {
    this.trace?.push(`${this.indent}# ${what}`);
    return this;
  }

  byte(value: number, what: string) {
    return this.push(Buffer.from([value]), what);
  }

  int32(value: number, what: string) {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(value);
    return this.push(bytes, what);
  }

  int64(value: bigint, what: string) {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(value);
    return this.push(bytes, what);
  }

  bytes(value: Uint8Array, what: string) {
    this.int32(value.length, `${what} (length)`);
    return this.push(Buffer.from(value), what);
  }

  string(value: string, what: string) {
    return this.bytes(Buffer.from(value, 'utf8'), `${JSON.stringify(value)} ${what}`);
  }

  hash(value: Uint8Array, what: string) {
    return this.push(Buffer.from(value), what);
  }

  /** A hex string as its bytes, length-prefixed: how contract ids are hashed. */
  hex(value: string, what: string) {
    if (!HEX.test(value)) throw new HashingError(`${what} ${value} is not a hex string`);
    return this.bytes(Buffer.from(value, 'hex'), `${value} ${what}`);
  }

  strings(values: readonly string[], what: string) {
    this.int32(values.length, `${what} (count)`);
    for (const value of values) this.string(value, what);
    return this;
  }

  /** A set of strings: sorted and distinct, as Canton's `addStringSet`. */
  stringSet(values: readonly string[], what: string) {
    return this.strings([...new Set(values)].sort(), what);
  }

  optional<T>(value: T | undefined, what: string, add: (value: T) => void) {
    if (value === undefined) return this.byte(0, `${what}: none`);
    this.byte(1, `${what}: some`);
    add(value);
    return this;
  }

  sha256(): Buffer {
    return createHash('sha256').update(Buffer.concat(this.parts)).digest();
  }

  /** A nested preimage (a node's), traced one level deeper. */
  child(): Preimage {
    return new Preimage(this.trace, `${this.indent}  `);
  }
}

function identifier(pre: Preimage, id: Identifier | undefined, what: string) {
  if (!id) throw new HashingError(`${what} is missing`);
  pre.string(id.packageId, `${what} package id`);
  pre.strings(id.moduleName.split('.'), `${what} module name segment`);
  pre.strings(id.entityName.split('.'), `${what} entity name segment`);
}

function int64Of(text: string, what: string): bigint {
  if (!INT64.test(text)) throw new HashingError(`${what} ${text} is not an int64`);
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) {
    throw new HashingError(`${what} ${text} is not an int64`);
  }
  return value;
}

function value(pre: Preimage, v: Value | undefined, depth: number): void {
  if (!v) throw new HashingError('A value is missing');
  if (depth > MAX_NODE_DEPTH) throw new HashingError('A value is nested too deeply');
  const sum = v.sum;
  switch (sum.oneofKind) {
    case 'unit':
      pre.byte(VALUE_TAG.unit, 'Unit');
      return;
    case 'bool':
      pre.byte(VALUE_TAG.bool, 'Bool').byte(sum.bool ? 1 : 0, String(sum.bool));
      return;
    case 'int64':
      pre.byte(VALUE_TAG.int64, 'Int64').int64(int64Of(sum.int64, 'Int64'), sum.int64);
      return;
    case 'numeric':
      pre.byte(VALUE_TAG.numeric, 'Numeric').string(sum.numeric, 'numeric');
      return;
    case 'timestamp':
      pre
        .byte(VALUE_TAG.timestamp, 'Timestamp')
        .int64(int64Of(sum.timestamp, 'Timestamp'), `${sum.timestamp} µs`);
      return;
    case 'date':
      pre.byte(VALUE_TAG.date, 'Date').int32(sum.date, `${String(sum.date)} days`);
      return;
    case 'party':
      pre.byte(VALUE_TAG.party, 'Party').string(sum.party, 'party');
      return;
    case 'text':
      pre.byte(VALUE_TAG.text, 'Text').string(sum.text, 'text');
      return;
    case 'contractId':
      pre.byte(VALUE_TAG.contractId, 'ContractId').hex(sum.contractId, 'contract id');
      return;
    case 'optional':
      pre.byte(VALUE_TAG.optional, 'Optional');
      pre.optional(sum.optional.value, 'Optional', (inner) => {
        value(pre, inner, depth + 1);
      });
      return;
    case 'list':
      pre.byte(VALUE_TAG.list, 'List').int32(sum.list.elements.length, 'List (count)');
      for (const element of sum.list.elements) value(pre, element, depth + 1);
      return;
    case 'textMap':
      pre.byte(VALUE_TAG.textMap, 'TextMap').int32(sum.textMap.entries.length, 'TextMap (count)');
      for (const entry of sum.textMap.entries) {
        pre.string(entry.key, 'key');
        value(pre, entry.value, depth + 1);
      }
      return;
    case 'record':
      pre.byte(VALUE_TAG.record, 'Record');
      pre.optional(sum.record.recordId, 'Record id', (id) => {
        identifier(pre, id, 'record id');
      });
      pre.int32(sum.record.fields.length, 'Record fields (count)');
      for (const field of sum.record.fields) {
        // Canton decodes an empty label as no label.
        pre.optional(field.label === '' ? undefined : field.label, 'Field label', (label) => {
          pre.string(label, 'field label');
        });
        value(pre, field.value, depth + 1);
      }
      return;
    case 'variant':
      pre.byte(VALUE_TAG.variant, 'Variant');
      pre.optional(sum.variant.variantId, 'Variant id', (id) => {
        identifier(pre, id, 'variant id');
      });
      pre.string(sum.variant.constructor, 'constructor');
      value(pre, sum.variant.value, depth + 1);
      return;
    case 'enum':
      pre.byte(VALUE_TAG.enum, 'Enum');
      pre.optional(sum.enum.enumId, 'Enum id', (id) => {
        identifier(pre, id, 'enum id');
      });
      pre.string(sum.enum.constructor, 'constructor');
      return;
    case 'genMap':
      pre.byte(VALUE_TAG.genMap, 'GenMap').int32(sum.genMap.entries.length, 'GenMap (count)');
      for (const entry of sum.genMap.entries) {
        value(pre, entry.key, depth + 1);
        value(pre, entry.value, depth + 1);
      }
      return;
    default:
      throw new HashingError('A value has no case set');
  }
}

/** A create node's hash; input contracts are hashed the same way, without a seed. */
export function createNodeHash(
  create: Create,
  seed: Uint8Array | undefined,
  parent?: Preimage,
): Buffer {
  const pre = parent?.child() ?? new Preimage(undefined);
  pre.note(`Create ${create.contractId}`);
  pre
    .byte(NODE_ENCODING_V1, 'node encoding version')
    .string(create.lfVersion, 'LF version')
    .byte(NODE_TAG.create, 'Create');
  pre.optional(seed, 'node seed', (bytes) => pre.hash(bytes, 'node seed'));
  pre.hex(create.contractId, 'contract id').string(create.packageName, 'package name');
  identifier(pre, create.templateId, 'template id');
  value(pre, create.argument, 0);
  pre.stringSet(create.signatories, 'signatory').stringSet(create.stakeholders, 'stakeholder');
  return pre.sha256();
}

type Tree = {
  nodes: ReadonlyMap<string, DamlTransaction_Node>;
  seeds: Seeds;
  /** Nodes hashed so far: a node reached twice makes the transaction no tree. */
  seen: Set<string>;
};

function nodeHash(tree: Tree, nodeId: string, parent: Preimage, depth: number): Buffer {
  const node = tree.nodes.get(nodeId);
  if (!node)
    throw new HashingError(`The transaction does not contain a node with nodeId ${nodeId}`);
  if (tree.seen.has(nodeId)) {
    throw new HashingError(`Node ${nodeId} appears more than once in the transaction tree`);
  }
  if (depth > MAX_NODE_DEPTH) throw new HashingError('The transaction is nested too deeply');
  tree.seen.add(nodeId);
  if (node.versionedNode.oneofKind !== 'v1') {
    throw new HashingError(`Node ${nodeId} has an unsupported node version`);
  }
  const seed = tree.seeds.get(Number(nodeId));
  const kind = node.versionedNode.v1.nodeType;
  switch (kind.oneofKind) {
    case 'create':
      // Creates of a transaction have seeds; only input contracts are hashed without.
      if (!seed) throw new HashingError(`Missing node seed for node ${nodeId}`);
      return createNodeHash(kind.create, seed, parent);
    case 'exercise':
      return exerciseNodeHash(tree, nodeId, kind.exercise, seed, parent, depth);
    case 'fetch':
      return fetchNodeHash(kind.fetch, parent);
    case 'rollback': {
      const pre = parent.child().note(`Rollback ${nodeId}`);
      pre.byte(NODE_ENCODING_V1, 'node encoding version').byte(NODE_TAG.rollback, 'Rollback');
      children(tree, pre, kind.rollback.children, depth);
      return pre.sha256();
    }
    default:
      throw new HashingError(`Node ${nodeId} has no node type`);
  }
}

function children(tree: Tree, pre: Preimage, ids: readonly string[], depth: number) {
  pre.int32(ids.length, 'children (count)');
  for (const id of ids) pre.hash(nodeHash(tree, id, pre, depth + 1), `node ${id}`);
}

function exerciseNodeHash(
  tree: Tree,
  nodeId: string,
  exercise: Exercise,
  seed: Uint8Array | undefined,
  parent: Preimage,
  depth: number,
): Buffer {
  if (!seed) throw new HashingError(`Missing node seed for node ${nodeId}`);
  const pre = parent.child().note(`Exercise ${exercise.choiceId} on ${exercise.contractId}`);
  pre
    .byte(NODE_ENCODING_V1, 'node encoding version')
    .string(exercise.lfVersion, 'LF version')
    .byte(NODE_TAG.exercise, 'Exercise')
    .hash(seed, 'node seed')
    .hex(exercise.contractId, 'contract id')
    .string(exercise.packageName, 'package name');
  identifier(pre, exercise.templateId, 'template id');
  pre
    .stringSet(exercise.signatories, 'signatory')
    .stringSet(exercise.stakeholders, 'stakeholder')
    .stringSet(exercise.actingParties, 'acting party');
  pre.optional(exercise.interfaceId, 'interface id', (id) => {
    identifier(pre, id, 'interface id');
  });
  pre.string(exercise.choiceId, 'choice');
  value(pre, exercise.chosenValue, 0);
  pre.byte(exercise.consuming ? 1 : 0, exercise.consuming ? 'consuming' : 'non-consuming');
  pre.optional(exercise.exerciseResult, 'exercise result', (result) => {
    value(pre, result, 0);
  });
  pre.stringSet(exercise.choiceObservers, 'choice observer');
  children(tree, pre, exercise.children, depth);
  return pre.sha256();
}

function fetchNodeHash(fetch: Fetch, parent: Preimage): Buffer {
  const pre = parent.child().note(`Fetch ${fetch.contractId}`);
  pre
    .byte(NODE_ENCODING_V1, 'node encoding version')
    .string(fetch.lfVersion, 'LF version')
    .byte(NODE_TAG.fetch, 'Fetch')
    .hex(fetch.contractId, 'contract id')
    .string(fetch.packageName, 'package name');
  identifier(pre, fetch.templateId, 'template id');
  pre.stringSet(fetch.signatories, 'signatory').stringSet(fetch.stakeholders, 'stakeholder');
  pre.optional(fetch.interfaceId, 'interface id', (id) => {
    identifier(pre, id, 'interface id');
  });
  pre.stringSet(fetch.actingParties, 'acting party');
  return pre.sha256();
}

const purpose = (pre: Preimage) => pre.int32(HASH_PURPOSE.preparedSubmission, 'hash purpose');

/** The hash of the transaction part: its version and its roots' hashes. */
export function transactionHashV2(transaction: DamlTransaction, trace?: string[]): Buffer {
  const nodes = new Map<string, DamlTransaction_Node>();
  for (const node of transaction.nodes) {
    if (nodes.has(node.nodeId)) throw new HashingError(`Node id ${node.nodeId} is not unique`);
    nodes.set(node.nodeId, node);
  }
  const seeds = new Map(transaction.nodeSeeds.map((seed) => [seed.nodeId, seed.seed] as const));
  const pre = new Preimage(trace).note('Transaction');
  purpose(pre).string(transaction.version, 'transaction version');
  children({ nodes, seeds, seen: new Set() }, pre, transaction.roots, 0);
  return pre.sha256();
}

/** The hash of the metadata part, input contracts (sorted by contract id) included. */
export function metadataHashV2(metadata: Metadata, trace?: string[]): Buffer {
  const pre = new Preimage(trace).note('Metadata');
  purpose(pre).byte(METADATA_ENCODING_V1, 'metadata encoding version');
  pre
    .stringSet(metadata.submitterInfo?.actAs ?? [], 'act as')
    .string(metadata.submitterInfo?.commandId ?? '', 'command id')
    .string(metadata.transactionUuid.toLowerCase(), 'transaction UUID')
    .int32(metadata.mediatorGroup, 'mediator group')
    .string(metadata.synchronizerId, 'synchronizer id');
  pre.optional(metadata.minLedgerEffectiveTime, 'min ledger effective time', (micros) =>
    pre.int64(micros, 'µs'),
  );
  pre.optional(metadata.maxLedgerEffectiveTime, 'max ledger effective time', (micros) =>
    pre.int64(micros, 'µs'),
  );
  pre.int64(metadata.preparationTime, 'preparation time (µs)');
  const inputs = [...metadata.inputContracts]
    .map((input) => {
      if (input.contract.oneofKind !== 'v1') {
        throw new HashingError('An input contract has an unsupported contract version');
      }
      return { createdAt: input.createdAt, create: input.contract.v1 };
    })
    .sort((a, b) => (a.create.contractId < b.create.contractId ? -1 : 1));
  pre.int32(inputs.length, 'input contracts (count)');
  for (const input of inputs) {
    pre.int64(input.createdAt, 'created at (µs)');
    pre.hash(createNodeHash(input.create, undefined, pre), 'input contract');
  }
  return pre.sha256();
}

/**
 * `preparedTransactionHash`: SHA-256 of the purpose, the scheme version and the two part hashes
 * (a bare 32-byte digest, not a multihash). `trace` collects the hashing details when given.
 */
export function preparedTransactionHashV2(prepared: PreparedTransaction, trace?: string[]): Buffer {
  if (!prepared.transaction) throw new HashingError('The prepared transaction has no transaction');
  if (!prepared.metadata) throw new HashingError('The prepared transaction has no metadata');
  const transactionHash = transactionHashV2(prepared.transaction, trace);
  const metadataHash = metadataHashV2(prepared.metadata, trace);
  const pre = new Preimage(trace).note('Prepared transaction');
  purpose(pre)
    .byte(HASHING_SCHEME_V2, 'hashing scheme version')
    .hash(transactionHash, 'transaction hash')
    .hash(metadataHash, 'metadata hash');
  return pre.sha256();
}

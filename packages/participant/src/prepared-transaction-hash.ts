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

/**
 * Canton's hashing scheme V2 of a prepared transaction (documentation "Hashing algorithm V2";
 * `TransactionHash`, `v2.NodeHashBuilder`, `v2.TransactionMetadataHasher`), the one module both
 * the console's Preview and the sandbox's prepare and execute use (ADR 024). Every field in a fixed
 * order, lengths and counts as big-endian int32, each node hashed on its own with its children's
 * hashes in place of the children.
 *
 * Synchronous and allocation-light: every preimage is written into one growing buffer, each node is
 * hashed over its slice of it and the slice is replaced by the 32 bytes of its hash, and the seeds
 * are a Map built once. SHA-256 is given by the caller, so that this package (bundled into the SPA)
 * needs neither `node:crypto` nor forces a JavaScript SHA-256 on the sandbox.
 *
 * It treats the transaction as untrusted: nodes nest at most `maxTreeDepth` deep and values
 * `maxValueDepth`, so that neither a deep tree nor a cycle of node ids can overflow the stack.
 *
 * Two readings of the same message, chosen by the options:
 * - as a participant decodes it (the sandbox): sets (parties, input contracts) sorted and
 *   distinct (`sortSets`), and `cantonDecoding`: contract ids must be hex, node ids unique, a node
 *   in the tree once, every create seeded; an empty record label is no label, the UUID is lower
 *   case, a seed is found by the node id's number and the last one named counts;
 * - as the Canton team's `hashPreparedTransaction` (`@canton-network/core-tx-visualizer`) reads it
 *   (the console, whose tests keep that package as the oracle): order as received, non-hex digits
 *   read as `parseInt` reads them, the last node of an id and the first seed count, a node referred
 *   to twice hashed once, an unseeded create hashed without a seed.
 * Either way an Int64 is encoded exactly, as Canton does (the package rounds beyond 2^53).
 */

export type Sha256 = (bytes: Uint8Array) => Uint8Array;

export type V2HashOptions = {
  sha256: Sha256;
  /** Hash parties and input contracts sorted and distinct, as Canton decodes them into sets. */
  sortSets: boolean;
  /** Check and normalise the message as a participant decoding it does (see above). */
  cantonDecoding: boolean;
  /** Nesting of exercises and rollbacks; the roots are at depth 0. */
  maxTreeDepth: number;
  /** Nesting of values; a node's argument or result is at depth 0. */
  maxValueDepth: number;
};

/** What kind of node a template id is missing from. */
export type NodeKind = 'create' | 'exercise' | 'fetch';

/** Why a transaction cannot be hashed: each caller words it its own way. */
export type V2HashProblem =
  | { kind: 'no-transaction' }
  | { kind: 'no-metadata' }
  | { kind: 'no-template-id'; node: NodeKind; nodeId: string | undefined }
  | { kind: 'not-int64'; type: 'Int64' | 'Timestamp'; text: string }
  | { kind: 'value-missing' }
  | { kind: 'value-too-deep'; limit: number }
  | { kind: 'value-kind-unknown' }
  | { kind: 'not-hex'; text: string }
  | { kind: 'no-seed'; nodeId: string; node: 'create' | 'exercise' }
  | { kind: 'node-missing'; nodeId: string }
  | { kind: 'node-repeated'; nodeId: string }
  | { kind: 'node-id-not-unique'; nodeId: string }
  | { kind: 'tree-too-deep'; limit: number }
  | { kind: 'node-version-unknown'; nodeId: string }
  | { kind: 'node-type-missing'; nodeId: string }
  | { kind: 'input-contract-version-unknown'; index: number };

export class V2HashError extends Error {
  override readonly name = 'V2HashError';
  constructor(readonly problem: V2HashProblem) {
    super(`The prepared transaction cannot be hashed (${problem.kind}).`);
  }
}

const fail = (problem: V2HashProblem): never => {
  throw new V2HashError(problem);
};

/** `int32be(48)`: the hash purpose of a prepared transaction. */
const PURPOSE = 48;
const HASHING_SCHEME_VERSION_V2 = 2;
const NODE_ENCODING_VERSION = 1;
const METADATA_ENCODING_VERSION = 1;
const NODE_TAG = { create: 0, exercise: 1, fetch: 2, rollback: 3 } as const;
const NODE_LABEL = { create: 'Create', exercise: 'Exercise', fetch: 'Fetch' } as const;
const INT64 = /^-?\d{1,19}$/;
const HEX = /^(?:[0-9a-f]{2})*$/;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** The value of a hex digit's character code, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

const hexOf = (bytes: Uint8Array) => {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
};

/**
 * The preimages' bytes: appended to, hashed by slice, and cut back. When given a trace, each field
 * is also written there as a line (its bytes in hex, then what it is: the prepare answer's
 * `hashingDetails`); the labels that cost something to build are built only then.
 */
class Preimage {
  bytes = new Uint8Array(64 * 1024);
  private view = new DataView(this.bytes.buffer);
  length = 0;
  /** Node preimages nest: the trace indents each level. */
  private indent = '';

  constructor(
    readonly options: V2HashOptions,
    readonly trace: string[] | undefined,
  ) {}

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

  private log(from: number, to: number, what: string) {
    this.trace?.push(`${this.indent}${hexOf(this.bytes.subarray(from, to))} - ${what}`);
  }

  /** A line of context in the trace only. */
  note(what: string) {
    this.trace?.push(`${this.indent}# ${what}`);
  }

  byte(value: number, what: string) {
    this.reserve(1);
    this.bytes[this.length++] = value;
    if (this.trace) this.log(this.length - 1, this.length, what);
  }

  raw(bytes: Uint8Array, what: string) {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
    if (this.trace) this.log(this.length - bytes.length, this.length, what);
  }

  /** Big-endian; like DataView, a number is taken modulo 2^32. */
  int32(value: number, what: string) {
    this.reserve(4);
    this.view.setInt32(this.length, value, false);
    this.length += 4;
    if (this.trace) this.log(this.length - 4, this.length, what);
  }

  int64(value: bigint, what: string) {
    this.reserve(8);
    this.view.setBigInt64(this.length, value, false);
    this.length += 8;
    if (this.trace) this.log(this.length - 8, this.length, what);
  }

  /** Length-prefixed UTF-8, a lone surrogate as U+FFFD (as TextEncoder writes it). */
  string(what: string, text = '', from = 0, to = text.length) {
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
    if (this.trace) {
      const label = `${JSON.stringify(text.slice(from, to))} ${what}`;
      this.log(start, start + 4, `${label} (length)`);
      this.log(start + 4, at, label);
    }
  }

  /** The segments of a dotted name as a list of strings, as `split('.')` gives them. */
  dotted(name: string, what: string) {
    let count = 1;
    for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', i + 1)) count++;
    this.int32(count, this.trace ? `${what} (count)` : '');
    let from = 0;
    for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', from)) {
      this.string(what, name, from, i);
      from = i + 1;
    }
    this.string(what, name, from);
  }

  /** A set of parties: as received, or sorted and distinct as Canton's `addStringSet`. */
  set(texts: readonly string[] | undefined, what: string) {
    const list = texts ?? [];
    const values = this.options.sortSets ? [...new Set(list)].sort() : list;
    this.int32(values.length, this.trace ? `${what} (count)` : '');
    for (const text of values) this.string(what, text);
  }

  /**
   * A contract id: its hex digits as length-prefixed bytes. A participant refuses what is not hex;
   * the package reads it as `parseInt(pair, 16)` into a byte, an odd last digit dropped.
   */
  hex(what: string, text = '') {
    if (this.options.cantonDecoding && !HEX.test(text)) fail({ kind: 'not-hex', text });
    const count = text.length >> 1;
    const start = this.length;
    this.reserve(4 + count);
    this.view.setInt32(start, count, false);
    this.length += 4;
    const bytes = this.bytes;
    for (let i = 0; i < count; i++) {
      const high = nibble(text.charCodeAt(2 * i));
      const low = nibble(text.charCodeAt(2 * i + 1));
      bytes[this.length + i] =
        high >= 0 && low >= 0 ? (high << 4) | low : parseInt(text.slice(2 * i, 2 * i + 2), 16);
    }
    this.length += count;
    if (this.trace) {
      this.log(start, start + 4, `${text} ${what} (length)`);
      this.log(start + 4, this.length, `${text} ${what}`);
    }
  }

  /** SHA-256 of the bytes from `start` on, which are then replaced by the hash. */
  hashFrom(start: number): Uint8Array {
    const digest = this.options.sha256(this.bytes.subarray(start, this.length));
    this.length = start;
    return digest;
  }

  /** Starts a node's preimage, one level deeper in the trace: returns where it starts. */
  open(what: string): number {
    if (this.trace) {
      this.indent += '  ';
      if (what) this.note(what);
    }
    return this.length;
  }

  /** Ends a node's preimage: its hash. */
  close(start: number): Uint8Array {
    if (this.trace) this.indent = this.indent.slice(2);
    return this.hashFrom(start);
  }
}

function identifier(pre: Preimage, id: Identifier, what: string) {
  pre.string(pre.trace ? `${what} package id` : '', id.packageId);
  pre.dotted(id.moduleName, pre.trace ? `${what} module name segment` : '');
  pre.dotted(id.entityName, pre.trace ? `${what} entity name segment` : '');
}

function optionalIdentifier(
  pre: Preimage,
  id: Identifier | undefined,
  what: string,
  label: string,
) {
  if (id === undefined) {
    pre.byte(0, pre.trace ? `${label}: none` : '');
    return;
  }
  pre.byte(1, pre.trace ? `${label}: some` : '');
  identifier(pre, id, what);
}

function int64Of(text: string, type: 'Int64' | 'Timestamp'): bigint {
  if (!INT64.test(text)) fail({ kind: 'not-int64', type, text });
  const value = BigInt(text);
  // Canton's exact Int64; protobuf's decoder gives nothing beyond it, a hand-built message might.
  if (value > INT64_MAX || value < INT64_MIN) fail({ kind: 'not-int64', type, text });
  return value;
}

function value(pre: Preimage, v: Value | undefined, depth: number): void {
  const limit = pre.options.maxValueDepth;
  if (depth > limit) fail({ kind: 'value-too-deep', limit });
  if (!v) return fail({ kind: 'value-missing' });
  const { sum } = v;
  const inner = depth + 1;
  const traced = pre.trace !== undefined;
  switch (sum.oneofKind) {
    case 'unit':
      pre.byte(0, 'Unit');
      return;
    case 'bool':
      pre.byte(1, 'Bool');
      pre.byte(sum.bool ? 1 : 0, String(sum.bool));
      return;
    case 'int64':
      pre.byte(2, 'Int64');
      pre.int64(int64Of(sum.int64, 'Int64'), sum.int64);
      return;
    case 'numeric':
      pre.byte(3, 'Numeric');
      pre.string('numeric', sum.numeric);
      return;
    case 'timestamp':
      pre.byte(4, 'Timestamp');
      pre.int64(int64Of(sum.timestamp, 'Timestamp'), traced ? `${sum.timestamp} µs` : '');
      return;
    case 'date':
      pre.byte(5, 'Date');
      pre.int32(sum.date, traced ? `${String(sum.date)} days` : '');
      return;
    case 'party':
      pre.byte(6, 'Party');
      pre.string('party', sum.party);
      return;
    case 'text':
      pre.byte(7, 'Text');
      pre.string('text', sum.text);
      return;
    case 'contractId':
      pre.byte(8, 'ContractId');
      pre.hex('contract id', sum.contractId);
      return;
    case 'optional':
      pre.byte(9, 'Optional');
      if (sum.optional.value === undefined) {
        pre.byte(0, 'Optional: none');
        return;
      }
      pre.byte(1, 'Optional: some');
      value(pre, sum.optional.value, inner);
      return;
    case 'list': {
      pre.byte(10, 'List');
      const { elements } = sum.list;
      pre.int32(elements.length, 'List (count)');
      for (const element of elements) value(pre, element, inner);
      return;
    }
    case 'textMap': {
      pre.byte(11, 'TextMap');
      const { entries } = sum.textMap;
      pre.int32(entries.length, 'TextMap (count)');
      for (const entry of entries) {
        pre.string('key', entry.key);
        value(pre, entry.value, inner);
      }
      return;
    }
    case 'record': {
      pre.byte(12, 'Record');
      const { recordId, fields } = sum.record;
      optionalIdentifier(pre, recordId, 'record id', 'Record id');
      pre.int32(fields.length, 'Record fields (count)');
      for (const field of fields) {
        // Protobuf gives "" for no label: a participant decodes it as none, the package as "".
        const label = field.label as string | undefined;
        if (label === undefined || (label === '' && pre.options.cantonDecoding)) {
          pre.byte(0, 'Field label: none');
        } else {
          pre.byte(1, 'Field label: some');
          pre.string('field label', label);
        }
        value(pre, field.value, inner);
      }
      return;
    }
    case 'variant':
      pre.byte(13, 'Variant');
      optionalIdentifier(pre, sum.variant.variantId, 'variant id', 'Variant id');
      pre.string('constructor', sum.variant.constructor);
      value(pre, sum.variant.value, inner);
      return;
    case 'enum':
      pre.byte(14, 'Enum');
      optionalIdentifier(pre, sum.enum.enumId, 'enum id', 'Enum id');
      pre.string('constructor', sum.enum.constructor);
      return;
    case 'genMap': {
      pre.byte(15, 'GenMap');
      const { entries } = sum.genMap;
      pre.int32(entries.length, 'GenMap (count)');
      for (const entry of entries) {
        value(pre, entry.key, inner);
        value(pre, entry.value, inner);
      }
      return;
    }
    default:
      return fail({ kind: 'value-kind-unknown' });
  }
}

/** What hashing the nodes needs: the nodes and seeds by id, the hashes so far. */
type Nodes = {
  pre: Preimage;
  byId: ReadonlyMap<string, DamlTransaction_Node>;
  seedOf: (nodeId: string) => Uint8Array | undefined;
  /** The package's reading: each node's hash once done, so a node referred to again is not redone. */
  hashes: Map<string, Uint8Array>;
  /** A participant's: the nodes entered, so a node referred to again is refused. */
  seen: Set<string>;
};

/** What a create, an exercise and a fetch node begin with: versions and the node's tag. */
function header(pre: Preimage, lfVersion: string, kind: NodeKind) {
  pre.byte(NODE_ENCODING_VERSION, 'node encoding version');
  pre.string('LF version', lfVersion);
  pre.byte(NODE_TAG[kind], NODE_LABEL[kind]);
}

/** The contract a create, an exercise or a fetch node is of. */
function contract(
  pre: Preimage,
  node: Create | Exercise | Fetch,
  kind: NodeKind,
  nodeId: string | undefined,
) {
  pre.hex('contract id', node.contractId);
  pre.string('package name', node.packageName);
  identifier(
    pre,
    node.templateId ?? fail({ kind: 'no-template-id', node: kind, nodeId }),
    'template id',
  );
}

/**
 * A create node's hash, of a transaction's create (with its seed) or an input contract (without);
 * a missing create is hashed as nothing at all, as the package does.
 */
function createNodeHash(
  pre: Preimage,
  create: Create | undefined,
  seed: Uint8Array | undefined,
): Uint8Array {
  const start = pre.open(pre.trace && create ? `Create ${create.contractId}` : '');
  if (create) {
    header(pre, create.lfVersion, 'create');
    if (seed === undefined) {
      pre.byte(0, 'node seed: none');
    } else {
      pre.byte(1, 'node seed: some');
      pre.raw(seed, 'node seed');
    }
    contract(pre, create, 'create', undefined);
    value(pre, create.argument, 0);
    pre.set(create.signatories, 'signatory');
    pre.set(create.stakeholders, 'stakeholder');
  }
  return pre.close(start);
}

function children(nodes: Nodes, ids: readonly string[], depth: number) {
  const { pre } = nodes;
  pre.int32(ids.length, 'children (count)');
  for (const id of ids) pre.raw(nodeHash(nodes, id, depth), pre.trace ? `node ${id}` : '');
}

function exerciseNode(nodes: Nodes, exercise: Exercise, id: string, depth: number) {
  const { pre } = nodes;
  const seed = nodes.seedOf(id) ?? fail({ kind: 'no-seed', nodeId: id, node: 'exercise' });
  header(pre, exercise.lfVersion, 'exercise');
  pre.raw(seed, 'node seed');
  contract(pre, exercise, 'exercise', id);
  pre.set(exercise.signatories, 'signatory');
  pre.set(exercise.stakeholders, 'stakeholder');
  pre.set(exercise.actingParties, 'acting party');
  optionalIdentifier(pre, exercise.interfaceId, 'interface id', 'interface id');
  pre.string('choice', exercise.choiceId);
  value(pre, exercise.chosenValue, 0);
  pre.byte(exercise.consuming ? 1 : 0, exercise.consuming ? 'consuming' : 'non-consuming');
  if (exercise.exerciseResult === undefined) {
    pre.byte(0, 'exercise result: none');
  } else {
    pre.byte(1, 'exercise result: some');
    value(pre, exercise.exerciseResult, 0);
  }
  pre.set(exercise.choiceObservers, 'choice observer');
  children(nodes, exercise.children, depth + 1);
}

function fetchNode(pre: Preimage, fetch: Fetch, id: string) {
  header(pre, fetch.lfVersion, 'fetch');
  contract(pre, fetch, 'fetch', id);
  pre.set(fetch.signatories, 'signatory');
  pre.set(fetch.stakeholders, 'stakeholder');
  optionalIdentifier(pre, fetch.interfaceId, 'interface id', 'interface id');
  pre.set(fetch.actingParties, 'acting party');
}

/**
 * A node's hash. A node referred to again (only a malformed transaction does) is refused by a
 * participant; the package hashes it again, which here is the hash already done.
 */
function nodeHash(nodes: Nodes, id: string, depth: number): Uint8Array {
  const { pre } = nodes;
  const { cantonDecoding, maxTreeDepth } = pre.options;
  const known = cantonDecoding ? undefined : nodes.hashes.get(id);
  if (known) return known;
  const node = nodes.byId.get(id) ?? fail({ kind: 'node-missing', nodeId: id });
  if (cantonDecoding && nodes.seen.has(id)) fail({ kind: 'node-repeated', nodeId: id });
  // Also what ends a cycle of node ids when a hash is remembered only once done.
  if (depth > maxTreeDepth) fail({ kind: 'tree-too-deep', limit: maxTreeDepth });
  if (cantonDecoding) nodes.seen.add(id);
  if (node.versionedNode.oneofKind !== 'v1') {
    return fail({ kind: 'node-version-unknown', nodeId: id });
  }
  const { nodeType } = node.versionedNode.v1;
  let hash: Uint8Array;
  switch (nodeType.oneofKind) {
    case 'create': {
      const seed = nodes.seedOf(id);
      // Creates of a transaction have seeds; only input contracts are hashed without.
      if (!seed && cantonDecoding) fail({ kind: 'no-seed', nodeId: id, node: 'create' });
      hash = createNodeHash(pre, nodeType.create, seed);
      break;
    }
    case 'exercise': {
      const { exercise } = nodeType;
      const start = pre.open(
        pre.trace ? `Exercise ${exercise.choiceId} on ${exercise.contractId}` : '',
      );
      exerciseNode(nodes, exercise, id, depth);
      hash = pre.close(start);
      break;
    }
    case 'fetch': {
      const start = pre.open(pre.trace ? `Fetch ${nodeType.fetch.contractId}` : '');
      fetchNode(pre, nodeType.fetch, id);
      hash = pre.close(start);
      break;
    }
    case 'rollback': {
      const start = pre.open(pre.trace ? `Rollback ${id}` : '');
      pre.byte(NODE_ENCODING_VERSION, 'node encoding version');
      pre.byte(NODE_TAG.rollback, 'Rollback');
      children(nodes, nodeType.rollback.children, depth + 1);
      hash = pre.close(start);
      break;
    }
    default:
      return fail({ kind: 'node-type-missing', nodeId: id });
  }
  nodes.hashes.set(id, hash);
  return hash;
}

function seedsOf(transaction: DamlTransaction, cantonDecoding: boolean) {
  if (cantonDecoding) {
    // As a map of the node ids' numbers: the last seed named counts.
    const seeds = new Map(transaction.nodeSeeds.map((seed) => [seed.nodeId, seed.seed] as const));
    return (nodeId: string) => seeds.get(Number(nodeId));
  }
  // As the package's search: the first seed named counts.
  const seeds = new Map<string, Uint8Array>();
  for (const { nodeId, seed } of transaction.nodeSeeds) {
    const id = String(nodeId);
    if (!seeds.has(id)) seeds.set(id, seed);
  }
  return (nodeId: string) => seeds.get(nodeId);
}

function transactionHash(pre: Preimage, transaction: DamlTransaction): Uint8Array {
  const { cantonDecoding } = pre.options;
  const byId = new Map<string, DamlTransaction_Node>();
  for (const node of transaction.nodes) {
    // A participant refuses an id twice; the package's dictionary keeps the last.
    if (cantonDecoding && byId.has(node.nodeId)) {
      fail({ kind: 'node-id-not-unique', nodeId: node.nodeId });
    }
    byId.set(node.nodeId, node);
  }
  const seedOf = seedsOf(transaction, cantonDecoding);
  pre.note('Transaction');
  const start = pre.length;
  pre.int32(PURPOSE, 'hash purpose');
  pre.string('transaction version', transaction.version);
  children({ pre, byId, seedOf, hashes: new Map(), seen: new Set() }, transaction.roots, 0);
  return pre.hashFrom(start);
}

function metadataHash(pre: Preimage, metadata: Metadata): Uint8Array {
  const { cantonDecoding, sortSets } = pre.options;
  pre.note('Metadata');
  const start = pre.length;
  pre.int32(PURPOSE, 'hash purpose');
  pre.byte(METADATA_ENCODING_VERSION, 'metadata encoding version');
  pre.set(metadata.submitterInfo?.actAs, 'act as');
  pre.string('command id', metadata.submitterInfo?.commandId);
  const uuid = metadata.transactionUuid;
  pre.string('transaction UUID', cantonDecoding ? uuid.toLowerCase() : uuid);
  pre.int32(metadata.mediatorGroup, 'mediator group');
  pre.string('synchronizer id', metadata.synchronizerId);
  const bounds = [
    [metadata.minLedgerEffectiveTime, 'min ledger effective time'],
    [metadata.maxLedgerEffectiveTime, 'max ledger effective time'],
  ] as const;
  for (const [time, what] of bounds) {
    if (time === undefined) {
      pre.byte(0, pre.trace ? `${what}: none` : '');
    } else {
      pre.byte(1, pre.trace ? `${what}: some` : '');
      pre.int64(time, 'µs');
    }
  }
  pre.int64(metadata.preparationTime, 'preparation time (µs)');
  const inputs = metadata.inputContracts.map((input, index) =>
    input.contract.oneofKind === 'v1'
      ? { createdAt: input.createdAt, create: input.contract.v1 }
      : fail({ kind: 'input-contract-version-unknown', index }),
  );
  if (sortSets) inputs.sort((a, b) => (a.create.contractId < b.create.contractId ? -1 : 1));
  pre.int32(inputs.length, 'input contracts (count)');
  for (const input of inputs) {
    pre.int64(input.createdAt, 'created at (µs)');
    // A create node without a seed: the package hashes it as node "unused_node_id" of no seeds.
    pre.raw(createNodeHash(pre, input.create, undefined), 'input contract');
  }
  return pre.hashFrom(start);
}

/** The V2 hash of a prepared transaction: 32 bytes. `trace` collects the hashing details. */
export function preparedTransactionHashV2(
  prepared: PreparedTransaction,
  options: V2HashOptions,
  trace?: string[],
): Uint8Array {
  const transaction = prepared.transaction ?? fail({ kind: 'no-transaction' });
  const metadata = prepared.metadata ?? fail({ kind: 'no-metadata' });
  const pre = new Preimage(options, trace);
  const transactionDigest = transactionHash(pre, transaction);
  const metadataDigest = metadataHash(pre, metadata);
  pre.note('Prepared transaction');
  pre.int32(PURPOSE, 'hash purpose');
  pre.byte(HASHING_SCHEME_VERSION_V2, 'hashing scheme version');
  pre.raw(transactionDigest, 'transaction hash');
  pre.raw(metadataDigest, 'metadata hash');
  return pre.hashFrom(0);
}

/** The hash of the transaction part alone: its version and its roots' hashes. */
export function transactionHashV2(
  transaction: DamlTransaction,
  options: V2HashOptions,
  trace?: string[],
): Uint8Array {
  return transactionHash(new Preimage(options, trace), transaction);
}

/** The hash of an input contract, as the metadata hashes it: a create node without a seed. */
export function inputContractHashV2(create: Create, options: V2HashOptions): Uint8Array {
  return createNodeHash(new Preimage(options, undefined), create, undefined);
}

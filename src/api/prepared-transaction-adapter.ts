import {
  PreparedTransaction,
  type Create,
  type DamlTransaction_Node,
  type Identifier,
  type Value,
} from '@canton-network/core-ledger-proto';
import { buildTree } from '@/lib/transaction-tree/build-tree';
import type {
  CreatedEvent,
  ExercisedEvent,
  TransactionEvent,
  TransactionEvents,
  TransactionTree,
} from '@/lib/transaction-tree/model';
import { fromPaddedBase64 } from '@/lib/signing/bytes';
import { TransactionTreeError } from '@/lib/transaction-tree/transaction-tree-error';
import type {
  HashVerdict,
  PreparedHiddenNode,
  PreparedInputContract,
  PreparedPreview,
} from './interactive-submission';
import { PreparedTransactionError } from './prepared-transaction-error';
import { preparedTransactionHashV2Base64 } from './prepared-transaction-hash';
import { PREPARED_TRANSACTION_LIMITS } from './prepared-transaction-limits';

/**
 * The API edge of a prepared transaction (`/v2/interactive-submission/prepare`): its protobuf
 * bytes, decoded with the Canton team's bindings, become the tree model's `TransactionEvents`, so
 * a preview shows in the same graph and outline as a committed transaction; and its hash is
 * recomputed from the same bytes with our V2 hasher (`prepared-transaction-hash.ts`, ADR 024; the
 * Canton team's `core-tx-visualizer` is its oracle in the tests only).
 *
 * This module pulls in `@canton-network/core-ledger-proto`, which is large, and its work on a big
 * transaction takes tens of milliseconds: it runs in a Web Worker
 * (`prepared-transaction-worker.ts`), never in the page. Never import it from the page's code.
 *
 * The bytes come from the participant but are treated as untrusted: their size, the node count,
 * the tree's depth and each value's nesting are bounded, and anything that does not decode or
 * does not form a tree is a {@link PreparedTransactionError} with a sentence for the user.
 */

export { PREPARED_TRANSACTION_LIMITS };
export { PreparedTransactionError };

const fail = (message: string): never => {
  throw new PreparedTransactionError(message);
};

function base64Bytes(text: string): Uint8Array {
  if (text.length > PREPARED_TRANSACTION_LIMITS.maxBase64Length) {
    fail(
      `The prepared transaction is ${String(text.length)} characters of base64, more than the ${String(PREPARED_TRANSACTION_LIMITS.maxBase64Length)} this console decodes.`,
    );
  }
  return fromPaddedBase64(text) ?? fail('The prepared transaction is not valid base64.');
}

const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Decodes the protobuf; any failure (truncated, wrong wire type, too deep) is malformed. */
function decodeBytes(bytes: Uint8Array): PreparedTransaction {
  try {
    return PreparedTransaction.fromBinary(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail(`The prepared transaction's bytes are malformed: ${reason}.`);
  }
}

const identifierToId = (id: Identifier | undefined, what: string): string => {
  if (!id || id.packageId === '' || id.moduleName === '' || id.entityName === '') {
    return fail(`${what} has no template id.`);
  }
  return `${id.packageId}:${id.moduleName}:${id.entityName}`;
};

const DAY_MILLIS = 86_400_000;
/** 9999-12-31T23:59:59.999999Z, Daml's largest timestamp. */
const MAX_TIMESTAMP_MICROS = 253_402_300_800_000_000n - 1n;

/** Microseconds since the epoch as the JSON API prints a Timestamp (up to six fraction digits). */
export function microsToIso(micros: bigint): string {
  if (micros < -62_135_596_800_000_000n || micros > MAX_TIMESTAMP_MICROS) {
    return fail(`The timestamp ${String(micros)} µs is out of Daml's range.`);
  }
  const millis = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const base = new Date(Number(millis)).toISOString().slice(0, 19);
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  if (fraction === 0n) return `${base}Z`;
  const digits = fraction.toString().padStart(6, '0');
  return `${base}.${fraction % 1000n === 0n ? digits.slice(0, 3) : digits}Z`;
}

/**
 * A protobuf `Value` (as a prepared transaction carries it: enriched, with record labels) as the
 * JSON Ledger API prints the same value, which is what the console renders everywhere: Int64 and
 * Numeric as strings, Date `YYYY-MM-DD`, Timestamp ISO-8601, a record as an object of its labels,
 * a variant `{tag, value}`, an enum its constructor, an Optional `null` or its value (nested:
 * `[]` or `[v]`), a TextMap an object, a GenMap a list of `[key, value]` pairs.
 */
export function protoValueToJson(value: Value | undefined, depth = 0): unknown {
  if (depth > PREPARED_TRANSACTION_LIMITS.maxValueDepth) {
    return fail(
      `A value nests deeper than ${String(PREPARED_TRANSACTION_LIMITS.maxValueDepth)} levels.`,
    );
  }
  if (!value) return fail('A value is missing.');
  const inner = depth + 1;
  const { sum } = value;
  switch (sum.oneofKind) {
    case 'unit':
      return {};
    case 'bool':
      return sum.bool;
    case 'int64':
      return sum.int64;
    case 'numeric':
      return sum.numeric;
    case 'text':
      return sum.text;
    case 'party':
      return sum.party;
    case 'contractId':
      return sum.contractId;
    case 'date': {
      const date = new Date(sum.date * DAY_MILLIS);
      return Number.isNaN(date.getTime())
        ? fail(`The date ${String(sum.date)} is out of range.`)
        : date.toISOString().slice(0, 10);
    }
    case 'timestamp':
      return /^-?\d{1,20}$/.test(sum.timestamp)
        ? microsToIso(BigInt(sum.timestamp))
        : fail(`The timestamp ${sum.timestamp} is not a number of microseconds.`);
    case 'list': {
      const { elements } = sum.list;
      const out: unknown[] = [];
      for (const element of elements) out.push(protoValueToJson(element, inner));
      return out;
    }
    case 'optional': {
      const some = sum.optional.value;
      if (some === undefined) return null;
      // Optional (Optional a): None is null, Some None is [], Some (Some x) is [x].
      if (some.sum.oneofKind === 'optional') {
        return some.sum.optional.value === undefined ? [] : [protoValueToJson(some, inner)];
      }
      return protoValueToJson(some, inner);
    }
    case 'textMap': {
      const { entries } = sum.textMap;
      const pairs: [string, unknown][] = [];
      for (const entry of entries) pairs.push([entry.key, protoValueToJson(entry.value, inner)]);
      // fromEntries defines each key as its own property, `__proto__` included.
      return Object.fromEntries(pairs);
    }
    case 'genMap': {
      const { entries } = sum.genMap;
      const pairs: [unknown, unknown][] = [];
      for (const entry of entries) {
        pairs.push([protoValueToJson(entry.key, inner), protoValueToJson(entry.value, inner)]);
      }
      return pairs;
    }
    case 'record': {
      const { fields } = sum.record;
      const pairs: [string, unknown][] = [];
      for (const field of fields) {
        const label = field.label === '' ? `_${String(pairs.length + 1)}` : field.label;
        pairs.push([label, protoValueToJson(field.value, inner)]);
      }
      return Object.fromEntries(pairs);
    }
    case 'variant':
      return { tag: sum.variant.constructor, value: protoValueToJson(sum.variant.value, inner) };
    case 'enum':
      return sum.enum.constructor;
    default:
      return fail('A value has no known kind.');
  }
}

const NODE_ID = /^(?:0|[1-9]\d{0,8})$/;

const without = (parties: readonly string[], removed: readonly string[]) =>
  parties.filter((party) => !removed.includes(party));

function createdEvent(nodeId: number, create: Create, what: string): CreatedEvent {
  return {
    kind: 'created',
    nodeId,
    contractId: create.contractId,
    templateId: identifierToId(create.templateId, what),
    packageName: create.packageName,
    // Who will see it: its stakeholders (the committed event names those the reader hosts).
    witnessParties: create.stakeholders,
    acsDelta: null,
    createArgument: protoValueToJson(create.argument),
    contractKey: null,
    signatories: create.signatories,
    observers: without(create.stakeholders, create.signatories),
    createdAt: null,
  };
}

type Walked = {
  events: TransactionEvent[];
  hidden: PreparedHiddenNode[];
  maxDepth: number;
};

/**
 * The nodes in execution order from the roots: creates and exercises as events, fetches and
 * rollbacks (which no committed transaction shows) set aside. Iterative, so a deep tree cannot
 * overflow the stack; every node is reached at most once, or the nodes are not a tree.
 */
function walk(prepared: PreparedTransaction): Walked {
  const transaction = prepared.transaction ?? fail('The prepared transaction has no transaction.');
  const { maxNodes, maxTreeDepth } = PREPARED_TRANSACTION_LIMITS;
  if (transaction.nodes.length > maxNodes) {
    fail(
      `The prepared transaction has ${String(transaction.nodes.length)} nodes, more than the ${String(maxNodes)} this console shows.`,
    );
  }
  const byId = new Map<string, DamlTransaction_Node>();
  for (const node of transaction.nodes) {
    if (!NODE_ID.test(node.nodeId))
      fail(`The node id "${node.nodeId.slice(0, 40)}" is not a number.`);
    if (byId.has(node.nodeId)) fail(`The node id ${node.nodeId} appears twice.`);
    byId.set(node.nodeId, node);
  }
  const events: TransactionEvent[] = [];
  const hidden: PreparedHiddenNode[] = [];
  const seen = new Set<string>();
  let maxDepth = 0;
  // Each exercise's event is finished once its subtree is: its last descendant is the largest id.
  type Frame = { ids: readonly string[]; next: number; depth: number; close?: () => void };
  const stack: Frame[] = [{ ids: transaction.roots, next: 0, depth: 0 }];
  let lastId = -1;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (!frame) break;
    if (frame.next >= frame.ids.length) {
      stack.pop();
      frame.close?.();
      continue;
    }
    const id = frame.ids[frame.next++] ?? '';
    const node =
      byId.get(id) ?? fail(`The transaction refers to node ${id}, which it does not hold.`);
    if (seen.has(id)) fail(`Node ${id} appears twice in the tree.`);
    seen.add(id);
    const nodeId = Number(id);
    // Node ids are assigned in execution (pre-order) order; the tree model relies on it.
    if (nodeId <= lastId) fail(`Node ${id} is out of execution order.`);
    lastId = nodeId;
    if (frame.depth > maxTreeDepth) {
      fail(`The transaction nests deeper than ${String(maxTreeDepth)} levels.`);
    }
    maxDepth = Math.max(maxDepth, frame.depth);
    if (node.versionedNode.oneofKind !== 'v1') fail(`Node ${id} has an unknown node version.`);
    const nodeType =
      node.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1.nodeType : undefined;
    switch (nodeType?.oneofKind) {
      case 'create':
        events.push(createdEvent(nodeId, nodeType.create, `Create node ${id}`));
        break;
      case 'fetch': {
        const { fetch } = nodeType;
        hidden.push({
          kind: 'fetch',
          nodeId,
          contractId: fetch.contractId,
          templateId: identifierToId(fetch.templateId, `Fetch node ${id}`),
          actingParties: fetch.actingParties,
        });
        break;
      }
      case 'exercise': {
        const { exercise } = nodeType;
        const event: { -readonly [K in keyof ExercisedEvent]: ExercisedEvent[K] } = {
          kind: 'exercised',
          nodeId,
          contractId: exercise.contractId,
          templateId: identifierToId(exercise.templateId, `Exercise node ${id}`),
          packageName: exercise.packageName,
          witnessParties: [...new Set([...exercise.stakeholders, ...exercise.actingParties])],
          acsDelta: null,
          choice: exercise.choiceId,
          choiceArgument: protoValueToJson(exercise.chosenValue),
          exerciseResult:
            exercise.exerciseResult === undefined
              ? null
              : protoValueToJson(exercise.exerciseResult),
          consuming: exercise.consuming,
          interfaceId: exercise.interfaceId
            ? identifierToId(exercise.interfaceId, `Exercise node ${id}'s interface`)
            : null,
          actingParties: exercise.actingParties,
          lastDescendantNodeId: nodeId,
        };
        events.push(event);
        stack.push({
          ids: exercise.children,
          next: 0,
          depth: frame.depth + 1,
          // Ids ascend in pre-order: the last one seen when the subtree ends is its largest.
          close: () => {
            event.lastDescendantNodeId = lastId;
          },
        });
        break;
      }
      case 'rollback': {
        // Rolled back: none of it is committed. Its nodes are counted, not shown.
        const entry: PreparedHiddenNode = { kind: 'rollback', nodeId, descendantCount: 0 };
        hidden.push(entry);
        const before = seen.size;
        const eventsBefore = events.length;
        const hiddenBefore = hidden.length;
        stack.push({
          ids: nodeType.rollback.children,
          next: 0,
          depth: frame.depth + 1,
          close: () => {
            entry.descendantCount = seen.size - before;
            events.length = eventsBefore;
            hidden.length = hiddenBefore;
          },
        });
        break;
      }
      default:
        fail(`Node ${id} has no node type.`);
    }
  }
  return { events, hidden, maxDepth };
}

function inputContracts(prepared: PreparedTransaction): PreparedInputContract[] {
  const inputs = prepared.metadata?.inputContracts ?? [];
  if (inputs.length > PREPARED_TRANSACTION_LIMITS.maxInputContracts) {
    fail(
      `The prepared transaction names ${String(inputs.length)} input contracts, too many to show.`,
    );
  }
  return inputs.map((input, index) => {
    if (input.contract.oneofKind !== 'v1')
      return fail(`Input contract ${String(index + 1)} has an unknown version.`);
    const event = createdEvent(0, input.contract.v1, `Input contract ${String(index + 1)}`);
    return {
      contractId: event.contractId,
      templateId: event.templateId,
      packageName: event.packageName,
      createArgument: event.createArgument,
      signatories: event.signatories,
      observers: event.observers,
      createdAt: microsToIso(input.createdAt),
    };
  });
}

const optionalTime = (micros: bigint | undefined) =>
  micros === undefined ? undefined : microsToIso(micros);

/** The hashing scheme the browser can recompute: our hasher implements V2 only. */
const RECOMPUTABLE_SCHEME = 'HASHING_SCHEME_VERSION_V2';

function recomputeHash(
  prepared: PreparedTransaction,
  scheme: string,
): { computed: string | null; problem?: string } {
  if (scheme !== RECOMPUTABLE_SCHEME) {
    return {
      computed: null,
      problem: `The browser recomputes hashing scheme V2 only; this one is ${scheme.replace('HASHING_SCHEME_VERSION_', '')}.`,
    };
  }
  try {
    return { computed: preparedTransactionHashV2Base64(prepared) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { computed: null, problem: `The hash could not be recomputed: ${reason}` };
  }
}

/** What the participant answered to prepare, as far as decoding needs it. */
export type PrepareAnswer = {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
};

/** A prepared transaction decoded into what the Preview shows, all but the hash's verdict. */
export type PreparedReading = {
  /** The decoded message, which the hash is recomputed from. */
  prepared: PreparedTransaction;
  preview: Omit<PreparedPreview, 'hash'>;
};

/**
 * The prepared transaction of a prepare answer, decoded from its bytes: the tree (as a committed
 * transaction's), what no committed transaction shows (fetches, rollbacks), the input contracts
 * and metadata.
 */
export function readPreparedSubmission(answer: PrepareAnswer): PreparedReading {
  const bytes = base64Bytes(answer.preparedTransaction);
  const prepared = decodeBytes(bytes);
  const metadata = prepared.metadata ?? fail('The prepared transaction has no metadata.');
  const walked = walk(prepared);
  const events: TransactionEvents = {
    // Not committed yet: no update id or offset. The hash names this preview instead.
    updateId: `prepared:${answer.preparedTransactionHash}`,
    offset: 0,
    ...(metadata.submitterInfo?.commandId ? { commandId: metadata.submitterInfo.commandId } : {}),
    ...(metadata.synchronizerId ? { synchronizerId: metadata.synchronizerId } : {}),
    events: walked.events,
  };
  let tree: TransactionTree;
  try {
    tree = buildTree(events);
  } catch (error) {
    if (error instanceof TransactionTreeError) {
      return fail(`The prepared transaction is not a valid tree: ${error.message}`);
    }
    throw error;
  }
  return {
    prepared,
    preview: {
      tree,
      hidden: walked.hidden,
      inputContracts: inputContracts(prepared),
      metadata: {
        actAs: metadata.submitterInfo?.actAs ?? [],
        commandId: metadata.submitterInfo?.commandId ?? '',
        synchronizerId: metadata.synchronizerId,
        transactionUuid: metadata.transactionUuid,
        preparationTime: microsToIso(metadata.preparationTime),
        minLedgerEffectiveTime: optionalTime(metadata.minLedgerEffectiveTime),
        maxLedgerEffectiveTime: optionalTime(metadata.maxLedgerEffectiveTime),
        maxRecordTime: optionalTime(metadata.maxRecordTime),
      },
      byteLength: bytes.length,
    },
  };
}

/** The participant's hash of the decoded transaction beside the one recomputed here. */
export function preparedHashVerdict(
  prepared: PreparedTransaction,
  answer: PrepareAnswer,
): HashVerdict {
  const participantHash = fromPaddedBase64(answer.preparedTransactionHash) ?? new Uint8Array();
  const { computed, problem } = recomputeHash(prepared, answer.hashingSchemeVersion);
  return {
    scheme: answer.hashingSchemeVersion,
    base64: answer.preparedTransactionHash,
    hex: toHex(participantHash),
    computed,
    isMatching: computed !== null && computed === answer.preparedTransactionHash,
    ...(problem === undefined ? {} : { problem }),
  };
}

/** What the Preview shows of a prepare answer: its reading and the hash's verdict. */
export function decodePreparedSubmission(answer: PrepareAnswer): PreparedPreview {
  const { prepared, preview } = readPreparedSubmission(answer);
  return { ...preview, hash: preparedHashVerdict(prepared, answer) };
}

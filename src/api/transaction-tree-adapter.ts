import {
  OPTIONAL_HEADER_KEYS,
  type ArchivedEvent,
  type CreatedEvent,
  type ExercisedEvent,
  type TransactionEvent,
  type TransactionEvents,
} from '@/lib/transaction-tree/model';
import { TransactionTreeError } from '@/lib/transaction-tree/transaction-tree-error';

/**
 * The API edge of the transaction tree: the wire shapes of a transaction become the tree model's
 * `TransactionEvents` here, and `src/lib/transaction-tree` knows no wire shape.
 *
 * The types below are the parts of the JSON Ledger API's wire types (`src/api/schema.ts`) that
 * the adapters read. Every `Schemas['JsTransactionTree']`, `Schemas['JsTransaction']` and event
 * is assignable to them (checked by a type test in `transaction-tree-adapter.test.ts`), so
 * responses pass straight in. Optional fields also accept `null`, because the participant prints
 * absent optionals as `null` (ledger-api-behaviour.md §7), whatever the OpenAPI document says.
 */

export type WireCreatedEvent = {
  offset?: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  contractKey?: unknown;
  contractKeyHash?: string | null;
  createArgument: unknown;
  witnessParties: readonly string[];
  signatories: readonly string[];
  observers?: readonly string[] | null;
  createdAt?: string | null;
  packageName: string;
  representativePackageId?: string | null;
  acsDelta?: boolean | null;
};

export type WireExercisedEvent = {
  offset?: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  interfaceId?: string | null;
  choice: string;
  choiceArgument: unknown;
  actingParties: readonly string[];
  consuming: boolean;
  witnessParties: readonly string[];
  lastDescendantNodeId: number;
  exerciseResult?: unknown;
  packageName: string;
  implementedInterfaces?: readonly string[] | null;
  acsDelta?: boolean | null;
};

export type WireArchivedEvent = {
  offset?: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  witnessParties: readonly string[];
  packageName: string;
  implementedInterfaces?: readonly string[] | null;
};

/** An entry of `JsTransactionTree.eventsById` (the deprecated tree shape). */
export type WireTreeEvent =
  | { CreatedTreeEvent: { value: WireCreatedEvent } }
  | { ExercisedTreeEvent: { value: WireExercisedEvent } };

/** An entry of `JsTransaction.events`: LEDGER_EFFECTS gives created/exercised, ACS_DELTA created/archived. */
export type WireEvent =
  | { CreatedEvent: WireCreatedEvent }
  | { ExercisedEvent: WireExercisedEvent }
  | { ArchivedEvent: WireArchivedEvent };

type WireTransactionHeader = {
  updateId: string;
  offset: number;
  commandId?: string | null;
  workflowId?: string | null;
  effectiveAt?: string | null;
  recordTime?: string | null;
  synchronizerId?: string | null;
  /** JsTransaction only; an int64 the JSON API prints as a number. */
  paidTrafficCost?: number | null;
};

/** `JsTransactionTree`: events keyed by node id (a decimal string); no root or child lists in 3.x. */
export type WireTransactionTree = WireTransactionHeader & {
  eventsById: Readonly<Record<string, WireTreeEvent>>;
};

/** `JsTransaction`: a flat event list in node-id order. */
export type WireTransaction = WireTransactionHeader & {
  events: readonly WireEvent[];
};

/**
 * The `update` of `JsGetUpdateByIdResponse` and of `/v2/updates` and `/v2/updates/trees` items.
 * Only the transaction cases are read; reassignments, topology transactions and checkpoints pass
 * through the index signature.
 */
export type WireUpdate = {
  Transaction?: { value: WireTransaction };
  TransactionTree?: { value: WireTransactionTree };
  [otherKind: string]: unknown;
};

/** The events of a tree-shape transaction, in `eventsById`'s order. */
export function eventsOfTransactionTree(wire: WireTransactionTree): TransactionEvents {
  const events: TransactionEvent[] = [];
  for (const [key, treeEvent] of Object.entries(wire.eventsById)) {
    let event: TransactionEvent;
    if ('CreatedTreeEvent' in treeEvent) {
      event = createdEvent(treeEvent.CreatedTreeEvent.value);
    } else if ('ExercisedTreeEvent' in treeEvent) {
      event = exercisedEvent(treeEvent.ExercisedTreeEvent.value);
    } else {
      throw new TransactionTreeError(
        'UNKNOWN_EVENT',
        `eventsById["${key}"] is neither a CreatedTreeEvent nor an ExercisedTreeEvent`,
      );
    }
    // The key is what the deprecated API used to reference nodes; a disagreement means the
    // response is corrupt and any structure built from it would be wrong.
    if (key !== String(event.nodeId)) {
      throw new TransactionTreeError(
        'NODE_ID_MISMATCH',
        `eventsById["${key}"] holds the event of node ${String(event.nodeId)}`,
        event.nodeId,
      );
    }
    events.push(event);
  }
  return withHeader(wire, events);
}

/** The events of a flat transaction (LEDGER_EFFECTS or ACS_DELTA), in its order. */
export function eventsOfTransaction(wire: WireTransaction): TransactionEvents {
  const events = wire.events.map((event, position): TransactionEvent => {
    if ('CreatedEvent' in event) return createdEvent(event.CreatedEvent);
    if ('ExercisedEvent' in event) return exercisedEvent(event.ExercisedEvent);
    if ('ArchivedEvent' in event) return archivedEvent(event.ArchivedEvent);
    throw new TransactionTreeError(
      'UNKNOWN_EVENT',
      `events[${String(position)}] is not a CreatedEvent, ExercisedEvent or ArchivedEvent`,
    );
  });
  return withHeader(wire, events);
}

const nonEmpty = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? undefined : value;

function withHeader(
  header: WireTransactionHeader,
  events: readonly TransactionEvent[],
): TransactionEvents {
  const transaction: { -readonly [K in keyof TransactionEvents]: TransactionEvents[K] } = {
    updateId: header.updateId,
    offset: header.offset,
    events,
  };
  // Absent, null and "" (how the participant prints a command id for non-submitters) all leave
  // the key out, so trees from either shape compare equal.
  for (const key of OPTIONAL_HEADER_KEYS) {
    const value = nonEmpty(header[key]);
    if (value !== undefined) transaction[key] = value;
  }
  // Null when the participant reports no cost (or not to this reader); 0 is a cost (rejected early).
  const cost = header.paidTrafficCost;
  if (typeof cost === 'number' && Number.isSafeInteger(cost) && cost >= 0) {
    transaction.paidTrafficCost = cost;
  }
  return transaction;
}

// One object literal per kind, keys always in the same order, as `buildTree`'s nodes: a 10,000-
// event transaction is read in a few milliseconds only while V8 sees one shape per kind.
function createdEvent(event: WireCreatedEvent): CreatedEvent {
  return {
    kind: 'created',
    nodeId: event.nodeId,
    contractId: event.contractId,
    templateId: event.templateId,
    packageName: event.packageName,
    witnessParties: event.witnessParties,
    acsDelta: event.acsDelta ?? null,
    createArgument: event.createArgument,
    contractKey: event.contractKey ?? null,
    signatories: event.signatories,
    observers: event.observers ?? [],
    createdAt: event.createdAt ?? null,
  };
}

function exercisedEvent(event: WireExercisedEvent): ExercisedEvent {
  return {
    kind: 'exercised',
    nodeId: event.nodeId,
    contractId: event.contractId,
    templateId: event.templateId,
    packageName: event.packageName,
    witnessParties: event.witnessParties,
    acsDelta: event.acsDelta ?? null,
    choice: event.choice,
    choiceArgument: event.choiceArgument,
    exerciseResult: event.exerciseResult ?? null,
    consuming: event.consuming,
    interfaceId: nonEmpty(event.interfaceId) ?? null,
    actingParties: event.actingParties,
    lastDescendantNodeId: event.lastDescendantNodeId,
  };
}

function archivedEvent(event: WireArchivedEvent): ArchivedEvent {
  return {
    kind: 'archived',
    nodeId: event.nodeId,
    contractId: event.contractId,
    templateId: event.templateId,
    packageName: event.packageName,
    witnessParties: event.witnessParties,
    // ACS_DELTA archived events do not say.
    acsDelta: null,
  };
}

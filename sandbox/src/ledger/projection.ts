import { createHash } from 'node:crypto';
import { toStatus } from '../errors/sandbox-error';
import type { Schemas } from '../wire-types';
import {
  visibility,
  type EventFilter,
  type TransactionShape,
  type Visibility,
} from './event-filter';
import type { InterfaceImplementation } from './interface-catalog';
import type {
  CreateNode,
  ExerciseNode,
  JsonValue,
  ReassignmentRecord,
  TopologyRecord,
  TransactionRecord,
} from './transaction';

/**
 * Renders recorded transactions as the JSON API prints them for a given event filter: the
 * projection to the requesting parties, both transaction shapes, the legacy tree, and every
 * field in the order and with the nulls the real encoder prints (ledger-api-behaviour.md §7).
 */

type Wire = Record<string, unknown>;

const BLOB_PREFIX = 'ledger-console-sandbox/contract/v1\n';

/**
 * The created-event blob: opaque to clients, as the real one is. The sandbox's own encoding
 * (not Canton's protobuf) so that disclosed contracts round-trip through it.
 */
export function encodeCreatedEventBlob(node: CreateNode, createdAt: string): string {
  return Buffer.from(`${BLOB_PREFIX}${JSON.stringify({ node, createdAt })}`).toString('base64');
}

export function decodeCreatedEventBlob(
  blob: string,
): { node: CreateNode; createdAt: string } | undefined {
  const text = Buffer.from(blob, 'base64').toString('utf8');
  if (!text.startsWith(BLOB_PREFIX)) return undefined;
  try {
    return JSON.parse(text.slice(BLOB_PREFIX.length)) as { node: CreateNode; createdAt: string };
  } catch {
    return undefined;
  }
}

const keyHash = (key: JsonValue) =>
  createHash('sha256').update(JSON.stringify(key)).digest('base64');

const packageIdOf = (templateId: string) => templateId.slice(0, templateId.indexOf(':'));

/**
 * A `JsInterfaceView` for each interface whose view the filter asked for: the value and the
 * package that computed it, or the error status and neither (LfValueTranslation).
 */
function interfaceViews(node: CreateNode, implementations: readonly InterfaceImplementation[]) {
  return implementations.map(({ interfaceId, view }) => {
    const result = view(node.argument);
    return result.ok
      ? {
          interfaceId,
          viewStatus: { code: 0, message: '', details: [] },
          viewValue: result.value,
          implementationPackageId: result.implementationPackageId,
        }
      : {
          interfaceId,
          viewStatus: toStatus(result.error),
          viewValue: null,
          implementationPackageId: '',
        };
  });
}

/** A `CreatedEvent` as the parties of `seen` see it: witnesses, blob and interface views. */
export function createdEvent(
  node: CreateNode,
  offset: number,
  createdAt: string,
  seen: Visibility,
  acsDelta: boolean,
): Schemas['CreatedEvent'] {
  const event: Wire = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: node.templateId,
    contractKey: seen.includeArguments ? node.key : null,
    contractKeyHash: node.key === null ? '' : keyHash(node.key),
    createArgument: seen.includeArguments ? node.argument : null,
    createdEventBlob: seen.includeBlob ? encodeCreatedEventBlob(node, createdAt) : '',
    interfaceViews: interfaceViews(node, seen.interfaceViews),
    witnessParties: seen.parties,
    signatories: node.signatories,
    observers: node.observers,
    createdAt,
    packageName: node.packageName,
    representativePackageId: packageIdOf(node.templateId),
    acsDelta,
  };
  return event as Schemas['CreatedEvent'];
}

const interfaceIdsOf = (seen: Visibility) => seen.interfaceViews.map((view) => view.interfaceId);

function exercisedEvent(
  node: ExerciseNode,
  offset: number,
  seen: Visibility,
  acsDelta: boolean,
): Schemas['ExercisedEvent'] {
  const event: Wire = {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: node.templateId,
    interfaceId: node.interfaceId ?? null,
    choice: node.choice,
    choiceArgument: node.choiceArgument,
    actingParties: node.actingParties,
    consuming: node.consuming,
    witnessParties: seen.parties,
    lastDescendantNodeId: node.lastDescendantNodeId,
    exerciseResult: node.exerciseResult,
    packageName: node.packageName,
    // Only a consuming exercise lists them (ExercisedEvent.implemented_interfaces).
    implementedInterfaces: node.consuming ? interfaceIdsOf(seen) : [],
    acsDelta,
  };
  return event as Schemas['ExercisedEvent'];
}

export function archivedEvent(
  node: ExerciseNode,
  offset: number,
  seen: Visibility,
): Schemas['ArchivedEvent'] {
  return {
    offset,
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: node.templateId,
    witnessParties: seen.parties,
    packageName: node.packageName,
    implementedInterfaces: interfaceIdsOf(seen),
  };
}

/** Contracts a transaction created, to tell transient contracts and their archivals apart. */
const createdIn = (tx: TransactionRecord) =>
  new Set(tx.nodes.filter((node) => node.kind === 'create').map((node) => node.contractId));

type ProjectedEvent =
  | { kind: 'created'; node: CreateNode; event: Schemas['CreatedEvent'] }
  | { kind: 'exercised'; node: ExerciseNode; event: Schemas['ExercisedEvent'] }
  | { kind: 'archived'; node: ExerciseNode; event: Schemas['ArchivedEvent'] };

/**
 * The events of `tx` the filter's parties see, in node order. Trees always show create
 * arguments, even for events matched only by interface filters (IndexServiceImpl's
 * `alwaysPopulateArguments`).
 */
export function projectEvents(
  tx: TransactionRecord,
  filter: EventFilter,
  shape: TransactionShape,
  alwaysPopulateArguments = false,
): ProjectedEvent[] {
  const local = createdIn(tx);
  const witnessedOnly = new Set(tx.witnessedOnly);
  const requesters = (parties: readonly string[]) =>
    filter.anyParty ? parties.length > 0 : parties.some((party) => filter.byParty.has(party));
  const events: ProjectedEvent[] = [];
  for (const node of tx.nodes) {
    // What the participant only witnessed is no change to its active contracts.
    const activates = !witnessedOnly.has(node.nodeId);
    if (shape === 'ACS_DELTA' && !activates) continue;
    if (node.kind === 'create') {
      const stakeholders = [...node.signatories, ...node.observers];
      const transient = node.archivedInNode !== null;
      // ACS deltas show stakeholders' creates that outlive the transaction; ledger effects show
      // every create to its witnesses.
      if (shape === 'ACS_DELTA' && transient) continue;
      const seen = visibility(filter, node, shape === 'ACS_DELTA' ? stakeholders : node.witnesses);
      if (!seen) continue;
      const acsDelta =
        shape === 'ACS_DELTA' || (activates && !transient && requesters(stakeholders));
      events.push({
        kind: 'created',
        node,
        event: createdEvent(
          node,
          tx.offset,
          tx.effectiveAt,
          alwaysPopulateArguments ? { ...seen, includeArguments: true } : seen,
          acsDelta,
        ),
      });
    } else if (shape === 'ACS_DELTA') {
      if (!node.consuming || local.has(node.contractId)) continue;
      const seen = visibility(filter, node, node.stakeholders);
      if (!seen) continue;
      events.push({ kind: 'archived', node, event: archivedEvent(node, tx.offset, seen) });
    } else {
      const seen = visibility(filter, node, node.witnesses);
      if (!seen) continue;
      const acsDelta =
        activates && node.consuming && !local.has(node.contractId) && requesters(node.stakeholders);
      events.push({
        kind: 'exercised',
        node,
        event: exercisedEvent(node, tx.offset, seen, acsDelta),
      });
    }
  }
  return events;
}

/** The submitter's command id is shown only to parties it acted for (§7.3). */
/** Whether the filter reads as a submitting party (or any party): who sees the command's id and cost. */
const forSubmitter = (tx: TransactionRecord, filter: EventFilter) =>
  filter.anyParty !== null || tx.actAs.some((party) => filter.byParty.has(party));

function commandIdFor(tx: TransactionRecord, filter: EventFilter) {
  return forSubmitter(tx, filter) ? tx.commandId : '';
}

const traceContext = (tx: { traceparent: string | null }) => ({
  traceparent: tx.traceparent,
  tracestate: null,
});

/** A `JsTransaction`, or null when the filter's parties see none of it. */
export function toJsTransaction(
  tx: TransactionRecord,
  filter: EventFilter,
  shape: TransactionShape,
): Schemas['JsTransaction'] | null {
  const events = projectEvents(tx, filter, shape);
  if (events.length === 0) return null;
  const wire: Wire = {
    updateId: tx.updateId,
    commandId: commandIdFor(tx, filter),
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    events: events.map((projected) => {
      switch (projected.kind) {
        case 'created':
          return { CreatedEvent: projected.event };
        case 'exercised':
          return { ExercisedEvent: projected.event };
        case 'archived':
          return { ArchivedEvent: projected.event };
      }
    }),
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    traceContext: traceContext(tx),
    recordTime: tx.recordTime,
    externalTransactionHash: tx.externalTransactionHash ?? null,
    // Not set for a query filtering for a non-submitting party (the field's description).
    paidTrafficCost: forSubmitter(tx, filter) ? (tx.paidTrafficCost ?? null) : null,
    transactionHash: null,
  };
  return wire as Schemas['JsTransaction'];
}

/** A transaction the requested parties see nothing of is still returned, with no events. */
export function emptyTransaction(tx: TransactionRecord): Schemas['JsTransaction'] {
  const wire: Wire = {
    updateId: tx.updateId,
    commandId: '',
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    events: [],
    offset: tx.offset,
    synchronizerId: tx.synchronizerId,
    traceContext: traceContext(tx),
    recordTime: tx.recordTime,
    externalTransactionHash: tx.externalTransactionHash ?? null,
    paidTrafficCost: null,
    transactionHash: null,
  };
  return wire as Schemas['JsTransaction'];
}

/**
 * The legacy `JsTransactionTree`: ledger effects keyed by node id, with no root or child lists
 * (§7.3). Null when the parties see nothing. `/v2/updates/trees` with an update format may ask
 * for ACS deltas; the JSON layer then keeps only the created events (archivals have no tree
 * case), so the tree can be empty while the transaction is visible.
 */
export function toJsTransactionTree(
  tx: TransactionRecord,
  filter: EventFilter,
  shape: TransactionShape = 'LEDGER_EFFECTS',
): Schemas['JsTransactionTree'] | null {
  const events = projectEvents(tx, filter, shape, true);
  if (events.length === 0) return null;
  const eventsById: Record<string, unknown> = {};
  for (const projected of events) {
    if (projected.kind === 'archived') continue;
    eventsById[String(projected.node.nodeId)] =
      projected.kind === 'created'
        ? { CreatedTreeEvent: { value: projected.event } }
        : { ExercisedTreeEvent: { value: projected.event } };
  }
  const wire: Wire = {
    updateId: tx.updateId,
    commandId: commandIdFor(tx, filter),
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById,
    synchronizerId: tx.synchronizerId,
    traceContext: traceContext(tx),
    recordTime: tx.recordTime,
  };
  return wire as Schemas['JsTransactionTree'];
}

/** A party allocation as a topology transaction, for parties the format asks about. */
export function toJsTopologyTransaction(
  update: TopologyRecord,
  parties: readonly string[] | 'all',
): Schemas['JsTopologyTransaction'] | null {
  if (parties !== 'all' && !parties.includes(update.party)) return null;
  const wire: Wire = {
    updateId: update.updateId,
    offset: update.offset,
    synchronizerId: update.synchronizerId,
    recordTime: update.recordTime,
    // One event per participant that now hosts the party (TopologyTransactionDiff).
    events: (
      update.hosting ?? [{ participantId: update.participantId, permission: 'SUBMISSION' }]
    ).map(({ participantId, permission }) => ({
      event: {
        ParticipantAuthorizationAdded: {
          value: {
            partyId: update.party,
            participantId,
            participantPermission: `PARTICIPANT_PERMISSION_${permission}`,
          },
        },
      },
    })),
    traceContext: { traceparent: null, tracestate: null },
  };
  return wire as Schemas['JsTopologyTransaction'];
}

// ── Reassignments ──

const stakeholdersOf = (node: CreateNode) => [...new Set([...node.signatories, ...node.observers])];

/** The `UnassignedEvent` of the contract at `nodeId` of an unassignment, as `seen` by the reader. */
export function unassignedEvent(
  update: ReassignmentRecord,
  nodeId: number,
  seen: Visibility,
): Schemas['UnassignedEvent'] {
  const moved = update.contracts[nodeId];
  if (!moved) throw new Error(`no node ${String(nodeId)} in unassignment ${update.updateId}`);
  const event: Wire = {
    reassignmentId: update.reassignmentId,
    contractId: moved.node.contractId,
    templateId: moved.node.templateId,
    source: update.source,
    target: update.target,
    submitter: update.submitter,
    reassignmentCounter: moved.reassignmentCounter,
    assignmentExclusivity: update.assignmentExclusivity,
    witnessParties: seen.parties,
    packageName: moved.node.packageName,
    offset: update.offset,
    nodeId,
  };
  return event as Schemas['UnassignedEvent'];
}

/**
 * A `JsReassignment` as the filter's parties see it: the events of the contracts they are
 * stakeholders of, in the ACS-delta shape. With `withEvents` false it keeps only the update's
 * own fields (submit-and-wait-for-reassignment without an event format). Null when the parties
 * see none of it.
 */
export function toJsReassignment(
  update: ReassignmentRecord,
  filter: EventFilter,
  withEvents = true,
): Schemas['JsReassignment'] | null {
  const events: Wire[] = [];
  update.contracts.forEach((moved, nodeId) => {
    const seen = visibility(filter, moved.node, stakeholdersOf(moved.node));
    if (!seen) return;
    events.push(
      update.event === 'unassigned'
        ? { JsUnassignedEvent: { value: unassignedEvent(update, nodeId, seen) } }
        : {
            JsAssignmentEvent: {
              source: update.source,
              target: update.target,
              reassignmentId: update.reassignmentId,
              submitter: update.submitter,
              reassignmentCounter: moved.reassignmentCounter,
              // The event's offset and node id are the assignment's.
              createdEvent: createdEvent(
                { ...moved.node, nodeId },
                update.offset,
                moved.createdAt,
                seen,
                true,
              ),
            },
          },
    );
  });
  if (events.length === 0) return null;
  const forSubmitter = filter.anyParty !== null || filter.byParty.has(update.submitter);
  const wire: Wire = {
    updateId: update.updateId,
    commandId: forSubmitter ? update.commandId : '',
    workflowId: update.workflowId,
    offset: update.offset,
    events: withEvents ? events : [],
    traceContext: traceContext(update),
    recordTime: update.recordTime,
    synchronizerId: update.synchronizerId,
    paidTrafficCost: null,
  };
  return wire as Schemas['JsReassignment'];
}

/**
 * The parts of the JSON Ledger API's wire types that the tree builders read. `src/lib` may not
 * import `src/api`, so these are declared here structurally: every `Schemas['JsTransactionTree']`,
 * `Schemas['JsTransaction']` and event of `src/api/schema.ts` is assignable to them (checked by a
 * type test in `build-tree.test.ts`). Optional fields also accept `null`, because the participant
 * prints absent optionals as `null` (ledger-api-behaviour.md §7), whatever the OpenAPI document
 * says.
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

import { randomBytes } from 'node:crypto';
import type { HostingPermission } from './external/topology';

/** A Daml value in the JSON API's encoding (ledger-api-behaviour.md §7.1). */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What every node of a committed transaction shares. */
type NodeCommon = {
  /** Pre-order position among all nodes, hidden fetches and lookups included (§7.3). */
  nodeId: number;
  contractId: string;
  /** `<package-id>:<Module>:<Entity>`: events always name templates by package id. */
  templateId: string;
  packageName: string;
  /**
   * Parties that see this node: its informees and those of every ancestor (Daml's disclosure
   * rule), so a party entitled to an exercise sees its whole subtree.
   */
  witnesses: string[];
};

export type CreateNode = NodeCommon & {
  kind: 'create';
  argument: JsonValue;
  signatories: string[];
  observers: string[];
  /** The contract key, when the template has one. */
  key: JsonValue | null;
  keyMaintainers: string[];
  /** Identifies the key among all contracts of the template's package name; null without key. */
  keyHash: string | null;
  /** Set when the same transaction also archives the contract (a transient contract). */
  archivedInNode: number | null;
};

export type ExerciseNode = NodeCommon & {
  kind: 'exercise';
  /**
   * The interface the choice was exercised through, `<package-id>:<Module>:<Entity>`; absent
   * for a choice of the template itself (and in records written before interfaces existed).
   */
  interfaceId?: string;
  choice: string;
  choiceArgument: JsonValue;
  actingParties: string[];
  consuming: boolean;
  exerciseResult: JsonValue;
  /** The largest node id in this node's subtree; its own id when it has no children. */
  lastDescendantNodeId: number;
  /** Signatories and observers of the exercised contract: who sees its archival. */
  stakeholders: string[];
};

/** A node the ledger API emits; fetches and lookups only take node ids. */
export type LedgerNode = CreateNode | ExerciseNode;

export type TransactionRecord = {
  kind: 'transaction';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId: string;
  userId: string;
  actAs: string[];
  submissionId: string;
  /** Ledger effective time (createdAt of its contracts), ISO-8601 with microseconds. */
  effectiveAt: string;
  recordTime: string;
  synchronizerId: string;
  /** The submitter's W3C trace context, which the tree's `traceContext` carries back (§10). */
  traceparent: string | null;
  nodes: LedgerNode[];
  /**
   * For a transaction executed from an externally signed prepared transaction: the prepared
   * transaction's hash (hex), which the transaction shows as its `externalTransactionHash`.
   */
  externalTransactionHash?: string;
  /**
   * With traffic cost on (`--traffic-cost`): what this participant paid for ordering the
   * transaction's confirmation request (cost-estimation.ts). Absent for updates committed with
   * it off, which report none.
   */
  paidTrafficCost?: number;
  /**
   * On a participant of a fleet: the create and consuming exercise nodes it only witnessed, none
   * of whose stakeholders it hosts. Their contracts never enter its active contract set, so its
   * ACS deltas leave them out (absent: every node counts, as on a lone sandbox).
   */
  witnessedOnly?: number[];
};

/** A party allocated on this participant: a topology update that also takes an offset. */
export type TopologyRecord = {
  kind: 'topology';
  offset: number;
  updateId: string;
  recordTime: string;
  synchronizerId: string;
  party: string;
  participantId: string;
  /**
   * Every participant the hosting names, with its permission (an external party's
   * PartyToParticipant); absent for a local party, hosted here alone with SUBMISSION.
   */
  hosting?: { participantId: string; permission: HostingPermission }[];
};

/**
 * One half of a reassignment: the unassignment of contracts from `source`, or their assignment
 * to `target`, each an update at its own offset. Each contract's create node is kept with it, so
 * the update renders (template filters, the assigned event's created event) without lookups.
 */
export type ReassignmentRecord = {
  kind: 'reassignment';
  event: 'unassigned' | 'assigned';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId: string;
  userId: string;
  submitter: string;
  submissionId: string;
  recordTime: string;
  /** The source synchronizer for an unassignment, the target for an assignment. */
  synchronizerId: string;
  traceparent: string | null;
  reassignmentId: string;
  source: string;
  target: string;
  /** Until then only the unassignment's submitter may assign (unassignments only). */
  assignmentExclusivity: string | null;
  /** In node-id order: the event of `contracts[i]` has node id `i`. */
  contracts: ReassignedContract[];
};

export type ReassignedContract = {
  node: CreateNode;
  /** The contract's ledger effective time, which a reassignment keeps. */
  createdAt: string;
  /** Incremented by each unassignment; the assignment carries the unassignment's. */
  reassignmentCounter: number;
};

export type UpdateRecord = TransactionRecord | TopologyRecord | ReassignmentRecord;

// Ids are drawn from a pool: one call for many ids, as a 10,000-node tree needs 10,000 of them.
let pool = Buffer.alloc(0);
let poolOffset = 0;
/** `bytes` random bytes as hex, from the pool (trace ids too: one per request otherwise costs a call). */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(16 * 1024);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** `1220` + 64 hex: the multihash form of update ids (§7.4). */
export function newUpdateId(): string {
  return `1220${randomHex(32)}`;
}

/**
 * Canton's V1 contract ids: `00`, a 32-byte discriminator, then the authenticated suffix
 * (`ca11` version prefix and a `1220` multihash). The exact suffix version is inferred.
 */
export function newContractId(): string {
  return `00${randomHex(32)}ca111220${randomHex(32)}`;
}

const CONTRACT_ID = /^00[0-9a-f]{64}(?:[0-9a-f]{2}){0,94}$/;

/** LF's `ContractId.fromString` for V1 ids: hex, a 32-byte discriminator and a bounded suffix. */
export function isWellFormedContractId(value: string): boolean {
  return CONTRACT_ID.test(value);
}

/** Java's `Instant.toString` at microsecond precision, the participant's time resolution. */
export function formatMicros(micros: bigint): string {
  const millis = micros / 1000n;
  const base = new Date(Number(millis)).toISOString().slice(0, 19);
  const fraction = micros % 1_000_000n;
  if (fraction === 0n) return `${base}Z`;
  const digits = fraction.toString().padStart(6, '0');
  return `${base}.${fraction % 1000n === 0n ? digits.slice(0, 3) : digits}Z`;
}

let lastMicros = 0n;

/** Wall-clock time in microseconds, strictly increasing so record times never tie. */
export function nowMicros(): bigint {
  const now = BigInt(Date.now()) * 1000n + BigInt(Math.floor((performance.now() % 1) * 1000));
  lastMicros = now > lastMicros ? now : lastMicros + 1n;
  return lastMicros;
}

/** The stakeholders of what a node creates or archives: what puts it in an ACS delta. */
export const stakeholdersOfNode = (node: LedgerNode): readonly string[] =>
  node.kind === 'create' ? [...node.signatories, ...node.observers] : node.stakeholders;

/**
 * `tx` as a participant hosting the parties `hosts` accepts stores it: with the nodes it only
 * witnessed marked (TransactionRecord.witnessedOnly).
 */
export function markWitnessedOnly(
  tx: TransactionRecord,
  hosts: (party: string) => boolean,
): TransactionRecord {
  const witnessedOnly = tx.nodes
    .filter(
      (node) => (node.kind === 'create' || node.consuming) && !stakeholdersOfNode(node).some(hosts),
    )
    .map((node) => node.nodeId);
  const stored = { ...tx };
  delete stored.witnessedOnly;
  return witnessedOnly.length === 0 ? stored : { ...stored, witnessedOnly };
}

import type { SqlDatabase } from './database';
import type {
  CreateNode,
  LedgerNode,
  ReassignmentRecord,
  TransactionRecord,
  UpdateRecord,
} from '../ledger/transaction';

/** Where an event sits in the update stream. */
export type EventPosition = { offset: number; nodeId: number };

/**
 * Where a contract is at some offset: assigned to a synchronizer, or in flight between two
 * (unassigned from `source`, not yet assigned to `target`).
 */
export type ContractLocation =
  | {
      status: 'assigned';
      synchronizerId: string;
      /** 0 from its creation; each unassignment adds one. */
      reassignmentCounter: number;
      /** The event that last activated it there: its creation or its assignment. */
      activatedAt: EventPosition;
    }
  | {
      status: 'unassigned';
      source: string;
      target: string;
      reassignmentId: string;
      reassignmentCounter: number;
      activatedAt: EventPosition;
      unassignedAt: EventPosition;
    };

/** A contract as the store knows it: its creation, its archival once that happened, and where it is. */
export type ContractRecord = {
  node: CreateNode;
  createdOffset: number;
  createdAt: string;
  /** The synchronizer of the transaction that created it. */
  createdOn: string;
  archivedOffset: number | null;
  archivedNode: number | null;
  location: ContractLocation;
};

/** A contract's state in one synchronizer's active contract store (ActiveContractStore.Status). */
export type SynchronizerContractStatus =
  | { kind: 'active'; reassignmentCounter: number }
  | { kind: 'archived' }
  | { kind: 'reassignedAway'; target: string; reassignmentCounter: number };

/** An unassignment and, once it happened, the assignment that completed it. */
export type ReassignmentState = {
  reassignmentId: string;
  source: string;
  target: string;
  submitter: string;
  contractIds: string[];
  unassignedOffset: number;
  assignedOffset: number | null;
};

/** What a successful command leaves for the completion streams. */
export type CompletionRecord = {
  offset: number;
  commandId: string;
  updateId: string;
  userId: string;
  actAs: string[];
  submissionId: string;
  recordTime: string;
  synchronizerId: string;
  /** The deduplication period the participant applied, in the API's oneof encoding. */
  deduplicationPeriod: unknown;
  traceparent: string | null;
  /** The transaction's paid traffic cost, when the participant reports one. */
  paidTrafficCost?: number;
};

const LEDGER_END = 'ledger_end';
/** One (un)assignment of a contract. */
type Move = EventPosition & {
  event: 'unassigned' | 'assigned';
  source: string;
  target: string;
  reassignmentId: string;
  reassignmentCounter: number;
};

/** Where a contract was created and archived; its data stays in the update that created it. */
type ContractEntry = {
  createdOffset: number;
  nodeId: number;
  createdAt: string;
  createdOn: string;
  archivedOffset: number | null;
  archivedNode: number | null;
  keyHash: string | null;
  /** Its reassignments in offset order; null for the many contracts that never moved. */
  moves: Move[] | null;
};

/** Replays a contract's reassignments up to `offset` (inclusive). */
function locationAt(entry: ContractEntry, offset = Number.POSITIVE_INFINITY): ContractLocation {
  let location: ContractLocation = {
    status: 'assigned',
    synchronizerId: entry.createdOn,
    reassignmentCounter: 0,
    activatedAt: { offset: entry.createdOffset, nodeId: entry.nodeId },
  };
  for (const move of entry.moves ?? []) {
    if (move.offset > offset) break;
    const at = { offset: move.offset, nodeId: move.nodeId };
    location =
      move.event === 'unassigned'
        ? {
            status: 'unassigned',
            source: move.source,
            target: move.target,
            reassignmentId: move.reassignmentId,
            reassignmentCounter: move.reassignmentCounter,
            activatedAt: location.activatedAt,
            unassignedAt: at,
          }
        : {
            status: 'assigned',
            synchronizerId: move.target,
            reassignmentCounter: move.reassignmentCounter,
            activatedAt: at,
          };
  }
  return location;
}

/**
 * Every contract by id, in creation order, and the active ones by key hash. Kept in memory:
 * one small entry per contract is far cheaper than a row per contract in SQLite, which made up
 * most of the cost of committing a large transaction.
 */
function createContractIndex() {
  const contracts = new Map<string, ContractEntry>();
  const activeKeys = new Map<string, string>();
  const reassignments = new Map<string, ReassignmentState>();
  const applyReassignment = (update: ReassignmentRecord) => {
    update.contracts.forEach(({ node, reassignmentCounter }, nodeId) => {
      const entry = contracts.get(node.contractId);
      if (!entry) return;
      (entry.moves ??= []).push({
        offset: update.offset,
        nodeId,
        event: update.event,
        source: update.source,
        target: update.target,
        reassignmentId: update.reassignmentId,
        reassignmentCounter,
      });
    });
    const known = reassignments.get(update.reassignmentId);
    if (update.event === 'assigned') {
      if (known) known.assignedOffset = update.offset;
      return;
    }
    reassignments.set(update.reassignmentId, {
      reassignmentId: update.reassignmentId,
      source: update.source,
      target: update.target,
      submitter: update.submitter,
      contractIds: update.contracts.map(({ node }) => node.contractId),
      unassignedOffset: update.offset,
      assignedOffset: null,
    });
  };
  return {
    contracts,
    activeKeys,
    reassignments,
    apply(update: TransactionRecord | ReassignmentRecord) {
      if (update.kind === 'reassignment') {
        applyReassignment(update);
        return;
      }
      const tx = update;
      const witnessedOnly = new Set(tx.witnessedOnly);
      for (const node of tx.nodes) {
        // A contract the participant only witnessed never enters its active contract set.
        if (witnessedOnly.has(node.nodeId)) continue;
        if (node.kind === 'create') {
          contracts.set(node.contractId, {
            createdOffset: tx.offset,
            nodeId: node.nodeId,
            createdAt: tx.effectiveAt,
            createdOn: tx.synchronizerId,
            archivedOffset: null,
            archivedNode: null,
            keyHash: node.keyHash,
            moves: null,
          });
          if (node.keyHash !== null) activeKeys.set(node.keyHash, node.contractId);
        } else if (node.consuming) {
          const entry = contracts.get(node.contractId);
          if (!entry) continue;
          entry.archivedOffset = tx.offset;
          entry.archivedNode = node.nodeId;
          if (entry.keyHash !== null) activeKeys.delete(entry.keyHash);
        }
      }
    },
  };
}

/** Recently read or written updates, parsed, with their nodes by id. */
function createUpdateCache(load: (offset: number) => UpdateRecord | undefined, capacity = 64) {
  const entries = new Map<number, Map<number, LedgerNode>>();
  const remember = (update: UpdateRecord) => {
    const nodes = new Map<number, LedgerNode>(
      update.kind === 'transaction' ? update.nodes.map((node) => [node.nodeId, node]) : [],
    );
    entries.set(update.offset, nodes);
    if (entries.size > capacity) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return nodes;
  };
  return {
    put(update: UpdateRecord) {
      remember(update);
    },
    node(offset: number, nodeId: number): LedgerNode | undefined {
      let nodes = entries.get(offset);
      if (nodes) {
        // Most recently used last, so the oldest is evicted first.
        entries.delete(offset);
        entries.set(offset, nodes);
      } else {
        const update = load(offset);
        if (!update) return undefined;
        nodes = remember(update);
      }
      return nodes.get(nodeId);
    },
  };
}

/**
 * The ledger's history in SQLite: updates by offset, contracts with their lifetimes, completions
 * and accepted change ids. Callers wrap writes in one transaction per update.
 */
export function createLedgerStore(db: SqlDatabase) {
  const statements = {
    end: db.prepare('select value from meta where key = ?'),
    setEnd: db.prepare(
      'insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value',
    ),
    insertUpdate: db.prepare(
      'insert into updates (offset, update_id, kind, record) values (?, ?, ?, ?)',
    ),
    updateByOffset: db.prepare('select record from updates where offset = ?'),
    updateById: db.prepare('select record from updates where update_id = ?'),
    contractHistory: db.prepare(
      "select record from updates where kind in ('transaction', 'reassignment') order by offset",
    ),
    updatesAsc: db.prepare(
      'select record from updates where offset > ? and offset <= ? order by offset limit ?',
    ),
    updatesDesc: db.prepare(
      'select record from updates where offset > ? and offset <= ? order by offset desc limit ?',
    ),
    lastRecordTime: db.prepare('select record from updates order by offset desc limit 1'),
    lastPerSynchronizer: db.prepare(
      "select record from updates where offset in (select max(offset) from updates group by json_extract(record, '$.synchronizerId'))",
    ),
    insertCompletion: db.prepare(
      'insert into completions (offset, user_id, act_as, record) values (?, ?, ?, ?)',
    ),
    completions: db.prepare(
      'select record from completions where offset > ? and offset <= ? order by offset',
    ),
    dedup: db.prepare(
      'select offset, submission_id, record_micros from command_dedup where change_key = ?',
    ),
    setDedup: db.prepare(
      'insert into command_dedup (change_key, offset, submission_id, record_micros) values (?, ?, ?, ?) on conflict (change_key) do update set offset = excluded.offset, submission_id = excluded.submission_id, record_micros = excluded.record_micros',
    ),
  };
  const parseRecord = (row: unknown): UpdateRecord =>
    JSON.parse((row as { record: string }).record) as UpdateRecord;
  const parseUpdate = (row: unknown) => (row === undefined ? undefined : parseRecord(row));
  const cache = createUpdateCache((offset) => parseUpdate(statements.updateByOffset.get(offset)));
  const recordOf = (
    contractId: string,
    entry: ContractEntry,
    location: ContractLocation = locationAt(entry),
  ): ContractRecord => {
    const node = cache.node(entry.createdOffset, entry.nodeId);
    if (node?.kind !== 'create' || node.contractId !== contractId) {
      throw new Error(
        `contract ${contractId} is missing from the update at offset ${String(entry.createdOffset)}`,
      );
    }
    return {
      node,
      createdOffset: entry.createdOffset,
      createdAt: entry.createdAt,
      createdOn: entry.createdOn,
      archivedOffset: entry.archivedOffset,
      archivedNode: entry.archivedNode,
      location,
    };
  };
  let lastRecordTime: string | undefined;
  /** The newest record time seen on each synchronizer, loaded on first use. */
  let recordTimes: Map<string, string> | undefined;
  const contractIndex = createContractIndex();
  // The index is derived from the update log, so it needs no table of its own: rebuilt here.
  for (const row of statements.contractHistory.all()) {
    contractIndex.apply(parseRecord(row) as TransactionRecord | ReassignmentRecord);
  }

  return {
    /** The offset of the last update, 0 for an empty ledger (§7.4). */
    ledgerEnd(): number {
      const row = statements.end.get(LEDGER_END) as { value: string } | undefined;
      return row ? Number(row.value) : 0;
    },
    /** The record time of the newest update, if any. */
    lastRecordTime(): string | undefined {
      // Kept in memory: parsing the newest update (a whole transaction) on every poll of the
      // ledger end would cost as much as the transaction is large.
      lastRecordTime ??= parseUpdate(statements.lastRecordTime.get())?.recordTime;
      return lastRecordTime;
    },
    /** The record time of the newest update on each synchronizer that has seen one. */
    recordTimesBySynchronizer(): ReadonlyMap<string, string> {
      if (!recordTimes) {
        recordTimes = new Map();
        for (const row of statements.lastPerSynchronizer.all()) {
          const update = parseRecord(row);
          recordTimes.set(update.synchronizerId, update.recordTime);
        }
      }
      return recordTimes;
    },
    appendUpdate(update: UpdateRecord) {
      statements.insertUpdate.run(
        update.offset,
        update.updateId,
        update.kind,
        JSON.stringify(update),
      );
      statements.setEnd.run(LEDGER_END, String(update.offset));
    },
    updateByOffset(offset: number): UpdateRecord | undefined {
      return parseUpdate(statements.updateByOffset.get(offset));
    },
    updateById(updateId: string): UpdateRecord | undefined {
      return parseUpdate(statements.updateById.get(updateId));
    },
    /** Updates with `after < offset <= upTo`, at most `limit`, in either order. */
    updates(after: number, upTo: number, limit: number, descending = false): UpdateRecord[] {
      const statement = descending ? statements.updatesDesc : statements.updatesAsc;
      return statement.all(after, upTo, limit).map((row) => parseRecord(row));
    },
    /**
     * Takes a committed update into what is kept in memory: the last record time and, for a
     * transaction or reassignment, its creates, archivals and moves in the contract index. Call only after the SQLite
     * transaction that appended it has committed.
     */
    committed(update: UpdateRecord) {
      lastRecordTime = update.recordTime;
      recordTimes?.set(update.synchronizerId, update.recordTime);
      if (update.kind === 'transaction') {
        contractIndex.apply(update);
        cache.put(update);
      } else if (update.kind === 'reassignment') {
        contractIndex.apply(update);
      }
    },
    contract(contractId: string): ContractRecord | undefined {
      const entry = contractIndex.contracts.get(contractId);
      return entry && recordOf(contractId, entry);
    },
    activeContractIdByKey(keyHash: string): string | undefined {
      return contractIndex.activeKeys.get(keyHash);
    },
    /**
     * Contracts created and not archived at `offset`, in creation order, each located as it was
     * then: those in flight between two synchronizers included.
     */
    activeAt(offset: number): ContractRecord[] {
      const active: ContractRecord[] = [];
      for (const [contractId, entry] of contractIndex.contracts) {
        if (entry.createdOffset > offset) break;
        if (entry.archivedOffset === null || entry.archivedOffset > offset) {
          active.push(recordOf(contractId, entry, locationAt(entry, offset)));
        }
      }
      return active;
    },
    /**
     * The contract's state on `synchronizerId` now; undefined when it never was there (or the
     * contract is unknown).
     */
    contractStatusOn(
      contractId: string,
      synchronizerId: string,
    ): SynchronizerContractStatus | undefined {
      const entry = contractIndex.contracts.get(contractId);
      if (!entry) return undefined;
      const statuses = new Map<string, SynchronizerContractStatus>([
        [entry.createdOn, { kind: 'active', reassignmentCounter: 0 }],
      ]);
      let current = entry.createdOn;
      for (const move of entry.moves ?? []) {
        if (move.event === 'unassigned') {
          statuses.set(move.source, {
            kind: 'reassignedAway',
            target: move.target,
            reassignmentCounter: move.reassignmentCounter,
          });
        } else {
          statuses.set(move.target, {
            kind: 'active',
            reassignmentCounter: move.reassignmentCounter,
          });
          current = move.target;
        }
      }
      // Only an assigned contract can be archived, so the archival happened where it last arrived.
      if (entry.archivedOffset !== null) statuses.set(current, { kind: 'archived' });
      return statuses.get(synchronizerId);
    },
    /** An unassignment by its reassignment id, with its assignment once that happened. */
    reassignment(reassignmentId: string): ReassignmentState | undefined {
      return contractIndex.reassignments.get(reassignmentId);
    },
    insertCompletion(completion: CompletionRecord) {
      statements.insertCompletion.run(
        completion.offset,
        completion.userId,
        JSON.stringify(completion.actAs),
        JSON.stringify(completion),
      );
    },
    completions(after: number, upTo: number): CompletionRecord[] {
      return statements.completions
        .all(after, upTo)
        .map((row) => JSON.parse((row as { record: string }).record) as CompletionRecord);
    },
    acceptedChange(changeKey: string) {
      return statements.dedup.get(changeKey) as
        { offset: number; submission_id: string; record_micros: number } | undefined;
    },
    recordChange(changeKey: string, offset: number, submissionId: string, recordMicros: bigint) {
      statements.setDedup.run(changeKey, offset, submissionId, Number(recordMicros));
    },
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;

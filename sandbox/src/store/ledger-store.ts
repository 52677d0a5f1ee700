import type { SqlDatabase } from './database';
import type { CreateNode, UpdateRecord } from '../ledger/transaction';

/** A contract as the store knows it: its creation, and its archival once that happened. */
export type ContractRecord = {
  node: CreateNode;
  createdOffset: number;
  createdAt: string;
  archivedOffset: number | null;
  archivedNode: number | null;
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
};

type ContractRow = {
  node: string;
  created_offset: number;
  created_at: string;
  archived_offset: number | null;
  archived_node: number | null;
};

const toContract = (row: ContractRow): ContractRecord => ({
  node: JSON.parse(row.node) as CreateNode,
  createdOffset: row.created_offset,
  createdAt: row.created_at,
  archivedOffset: row.archived_offset,
  archivedNode: row.archived_node,
});

const LEDGER_END = 'ledger_end';

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
    updatesAsc: db.prepare(
      'select record from updates where offset > ? and offset <= ? order by offset limit ?',
    ),
    updatesDesc: db.prepare(
      'select record from updates where offset > ? and offset <= ? order by offset desc limit ?',
    ),
    lastRecordTime: db.prepare('select record from updates order by offset desc limit 1'),
    insertContract: db.prepare(
      'insert into contracts (contract_id, template_id, created_offset, created_node, key_hash, stakeholders, node, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    archive: db.prepare(
      'update contracts set archived_offset = ?, archived_node = ? where contract_id = ?',
    ),
    contract: db.prepare(
      'select node, created_offset, created_at, archived_offset, archived_node from contracts where contract_id = ?',
    ),
    activeByKey: db.prepare(
      'select contract_id from contracts where key_hash = ? and archived_offset is null',
    ),
    activeAt: db.prepare(
      'select node, created_offset, created_at, archived_offset, archived_node from contracts where created_offset <= ? and (archived_offset is null or archived_offset > ?) order by created_offset, created_node',
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

  return {
    /** The offset of the last update, 0 for an empty ledger (§7.4). */
    ledgerEnd(): number {
      const row = statements.end.get(LEDGER_END) as { value: string } | undefined;
      return row ? Number(row.value) : 0;
    },
    /** The record time of the newest update, if any. */
    lastRecordTime(): string | undefined {
      return parseUpdate(statements.lastRecordTime.get())?.recordTime;
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
    insertContract(node: CreateNode, offset: number, createdAt: string, keyHash: string | null) {
      statements.insertContract.run(
        node.contractId,
        node.templateId,
        offset,
        node.nodeId,
        keyHash,
        JSON.stringify([...new Set([...node.signatories, ...node.observers])]),
        JSON.stringify(node),
        createdAt,
      );
    },
    archiveContract(contractId: string, offset: number, nodeId: number) {
      statements.archive.run(offset, nodeId, contractId);
    },
    contract(contractId: string): ContractRecord | undefined {
      const row = statements.contract.get(contractId) as ContractRow | undefined;
      return row && toContract(row);
    },
    activeContractIdByKey(keyHash: string): string | undefined {
      return (statements.activeByKey.get(keyHash) as { contract_id: string } | undefined)
        ?.contract_id;
    },
    /** Contracts active at `offset`, in creation order. */
    activeAt(offset: number): ContractRecord[] {
      return (statements.activeAt.all(offset, offset) as ContractRow[]).map(toContract);
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

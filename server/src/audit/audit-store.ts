import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient, type Client, type InArgs, type Row } from '@libsql/client';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@ledger-console/edge/console-api';
import { fileUrlOf, type AuditStoreLocation } from './audit-location';

/**
 * The audit log's table over @libsql/client (ADR 020): a local SQLite file (WAL, synchronous
 * FULL: a commit is on disk before it returns), a libsql server, or memory. Entries are only ever
 * inserted; a trigger refuses UPDATE, and pruning by retention is the only DELETE.
 */

/** What this code reads and writes; a newer store is refused rather than misread. */
export const AUDIT_SCHEMA_VERSION = 1;

/** How long a local writer waits for another (a second console on the same file) to commit. */
const BUSY_TIMEOUT_MS = 1000;
/** Rows deleted per statement when pruning, so one prune never holds the file for long. */
const PRUNE_CHUNK = 5000;

export type AuditRecord = Omit<AuditEntry, 'id' | 'participantName'> & {
  participantName: string | null;
};

export type AuditRetention = { days: number | null; maxEntries: number | null };

/** Which entries a reader may see (console-api.ts AuditScope, with what it is scoped to). */
export type AuditReadScope =
  | { kind: 'all' }
  | { kind: 'identity-provider'; identityProviderId: string }
  | { kind: 'own'; userId: string };

export type AuditFilter = {
  /**
   * Entries of this participant (its name in the console): a caller's rights are that
   * participant's, and user ids of two participants may be equal. `orUnnamed` adds the entries
   * recorded before consoles named participants (the default participant's).
   */
  participant?: { name: string; orUnnamed: boolean };
  /** Entries with an id below this one (the previous page's last). */
  beforeId?: number;
  fromMs?: number;
  toMs?: number;
  actor?: string;
  action?: AuditAction;
  outcome?: 'ok' | 'failed';
  text?: string;
};

const SCHEMA = [
  'create table if not exists audit_meta (key text primary key, value text not null)',
  `create table if not exists audit_entries (
    id integer primary key autoincrement,
    at text not null,
    at_ms integer not null,
    participant text not null,
    actor_issuer text,
    actor_subject text,
    actor_user_id text,
    actor_idp text,
    actor_authenticated integer not null,
    action text not null,
    method text not null,
    path text not null,
    resource text,
    summary text not null,
    status integer not null,
    error_code text,
    duration_ms integer not null
  )`,
  'create index if not exists audit_entries_at on audit_entries (at_ms)',
  'create index if not exists audit_entries_user on audit_entries (actor_user_id, id)',
  'create index if not exists audit_entries_idp on audit_entries (actor_idp, id)',
  `create trigger if not exists audit_entries_append_only before update on audit_entries
    begin select raise(abort, 'audit entries are append-only'); end`,
  `insert or ignore into audit_meta (key, value) values ('schema_version', '${String(AUDIT_SCHEMA_VERSION)}')`,
];

/**
 * Added after version 1 shipped: nullable, so consoles that do not know it read and write the
 * store unchanged (their inserts list their columns), and the schema version stays 1.
 */
const ADDED_COLUMNS = [{ name: 'participant_name', type: 'text' }] as const;

const COLUMNS = [
  'at',
  'at_ms',
  'participant',
  'participant_name',
  'actor_issuer',
  'actor_subject',
  'actor_user_id',
  'actor_idp',
  'actor_authenticated',
  'action',
  'method',
  'path',
  'resource',
  'summary',
  'status',
  'error_code',
  'duration_ms',
];
const INSERT = `insert into audit_entries (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`;

export class AuditStore {
  private constructor(
    private readonly client: Client,
    readonly kind: AuditStoreLocation['kind'],
  ) {}

  /** Opens (creating when new) the store; throws when it cannot be opened or is too new. */
  static async open(location: AuditStoreLocation): Promise<AuditStore> {
    let client: Client;
    if (location.kind === 'file') {
      mkdirSync(path.dirname(location.path), { recursive: true });
      // One connection: the pragmas below are per connection, and writes are serialised anyway.
      client = createClient({
        url: fileUrlOf(location),
        concurrency: 1,
        timeout: BUSY_TIMEOUT_MS,
      });
    } else if (location.kind === 'remote') {
      client = createClient({
        url: location.url,
        ...(location.authToken === undefined ? {} : { authToken: location.authToken }),
      });
    } else {
      client = createClient({ url: ':memory:' });
    }
    const store = new AuditStore(client, location.kind);
    try {
      if (location.kind === 'file') await client.execute('pragma journal_mode = wal');
      await client.batch(SCHEMA, 'write');
      const existing = await client.execute('pragma table_info(audit_entries)');
      const names = new Set(existing.rows.map((row) => text(row.name ?? null)));
      for (const column of ADDED_COLUMNS) {
        if (names.has(column.name)) continue;
        try {
          await client.execute(
            `alter table audit_entries add column ${column.name} ${column.type}`,
          );
        } catch (error) {
          // Another console sharing the store added it at the same moment.
          if (!/duplicate column/i.test(String(error))) throw error;
        }
      }
      const version = await client.execute(
        "select value from audit_meta where key = 'schema_version'",
      );
      const found = text(version.rows[0]?.value ?? null);
      if (found !== String(AUDIT_SCHEMA_VERSION)) {
        throw new Error(
          `the audit log's schema version is ${found || 'missing'}, this console reads ${String(AUDIT_SCHEMA_VERSION)}`,
        );
      }
    } catch (error) {
      client.close();
      throw error;
    }
    return store;
  }

  /** Appends entries in one transaction: all are durable when this resolves, or none is. */
  async append(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    // Per connection, and a connection may be reopened by the client: say it before each commit.
    if (this.kind === 'file') await this.client.execute('pragma synchronous = full');
    await this.client.batch(
      records.map((record) => ({ sql: INSERT, args: rowOf(record) })),
      'write',
    );
  }

  /** Newest first, at most `limit` (plus one to tell whether more follow). */
  async page(
    scope: AuditReadScope,
    filter: AuditFilter,
    limit: number,
  ): Promise<{ entries: AuditEntry[]; more: boolean }> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (clause: string, ...values: (string | number)[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (scope.kind === 'identity-provider') add('actor_idp = ?', scope.identityProviderId);
    if (scope.kind === 'own') add('actor_user_id = ?', scope.userId);
    if (filter.participant !== undefined) {
      add(
        filter.participant.orUnnamed
          ? '(participant_name = ? or participant_name is null)'
          : 'participant_name = ?',
        filter.participant.name,
      );
    }
    if (filter.beforeId !== undefined) add('id < ?', filter.beforeId);
    if (filter.fromMs !== undefined) add('at_ms >= ?', filter.fromMs);
    if (filter.toMs !== undefined) add('at_ms < ?', filter.toMs);
    if (filter.actor !== undefined) {
      add('(actor_user_id = ? or actor_subject = ?)', filter.actor, filter.actor);
    }
    if (filter.action !== undefined) add('action = ?', filter.action);
    if (filter.outcome === 'ok') where.push('status between 200 and 399');
    if (filter.outcome === 'failed') where.push('status not between 200 and 399');
    if (filter.text !== undefined) {
      // instr, not like: the text is matched as typed, % and _ included.
      const needle = filter.text.toLowerCase();
      // The resource too: it holds an id decoded, where the path has it percent-encoded.
      add(
        '(instr(lower(path), ?) > 0 or instr(lower(resource), ?) > 0 or instr(lower(summary), ?) > 0)',
        needle,
        needle,
        needle,
      );
    }
    const sql = `select id, ${COLUMNS.join(', ')} from audit_entries${
      where.length > 0 ? ` where ${where.join(' and ')}` : ''
    } order by id desc limit ?`;
    const result = await this.client.execute({ sql, args: [...args, limit + 1] as InArgs });
    const entries = result.rows.slice(0, limit).map(entryOf);
    return { entries, more: result.rows.length > limit };
  }

  /** Deletes what retention no longer keeps; returns how many entries went. */
  async prune(retention: AuditRetention, nowMs: number): Promise<number> {
    let removed = 0;
    const chunked = async (condition: string, args: InArgs) => {
      for (;;) {
        const result = await this.client.execute({
          sql: `delete from audit_entries where id in (select id from audit_entries where ${condition} order by id limit ${String(PRUNE_CHUNK)})`,
          args,
        });
        removed += result.rowsAffected;
        if (result.rowsAffected < PRUNE_CHUNK) return;
      }
    };
    if (retention.days !== null) {
      await chunked('at_ms < ?', [nowMs - retention.days * 24 * 60 * 60 * 1000]);
    }
    if (retention.maxEntries !== null) {
      const newestDropped = await this.client.execute({
        sql: 'select id from audit_entries order by id desc limit 1 offset ?',
        args: [retention.maxEntries],
      });
      const id = newestDropped.rows[0]?.id;
      if (id !== undefined && id !== null) await chunked('id <= ?', [Number(id)]);
    }
    return removed;
  }

  async count(): Promise<number> {
    const result = await this.client.execute('select count(*) as n from audit_entries');
    return Number(result.rows[0]?.n ?? 0);
  }

  close(): void {
    this.client.close();
  }
}

function rowOf(record: AuditRecord): InArgs {
  const { actor } = record;
  return [
    record.at,
    Date.parse(record.at),
    record.participant,
    record.participantName,
    actor.issuer,
    actor.subject,
    actor.userId,
    actor.identityProviderId,
    actor.authenticated ? 1 : 0,
    record.action,
    record.method,
    record.path,
    record.resource,
    record.summary,
    record.status,
    record.errorCode,
    Math.round(record.durationMs),
  ];
}

/** A column as text; SQLite hands back strings, numbers, bigints, or blobs (never stored here). */
const text = (value: Row[string]): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
    ? String(value)
    : '';
const textOrNull = (value: Row[string]): string | null => (value === null ? null : text(value));

function entryOf(row: Row): AuditEntry & { participantName: string | null } {
  return {
    id: text(row.id ?? null),
    at: text(row.at ?? null),
    participant: text(row.participant ?? null),
    participantName: textOrNull(row.participant_name ?? null),
    actor: {
      issuer: textOrNull(row.actor_issuer ?? null),
      subject: textOrNull(row.actor_subject ?? null),
      userId: textOrNull(row.actor_user_id ?? null),
      identityProviderId: textOrNull(row.actor_idp ?? null),
      authenticated: Number(row.actor_authenticated) === 1,
    },
    action: actionOf(text(row.action ?? null)),
    method: text(row.method ?? null),
    path: text(row.path ?? null),
    resource: textOrNull(row.resource ?? null),
    summary: text(row.summary ?? null),
    status: Number(row.status),
    errorCode: textOrNull(row.error_code ?? null),
    durationMs: Number(row.duration_ms),
  };
}

/** A newer console sharing the store may record actions this one does not know. */
function actionOf(value: string): AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value) ? (value as AuditAction) : 'other';
}

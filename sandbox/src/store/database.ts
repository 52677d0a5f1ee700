import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';

/** The part of libsql's better-sqlite3-style API the sandbox uses, named so types stay portable. */
export type SqlStatement = {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
};
export type SqlDatabase = {
  prepare(source: string): SqlStatement;
  exec(source: string): unknown;
  transaction<T>(fn: () => T): () => T;
  close(): void;
};

const SCHEMA = `
create table if not exists meta (key text primary key, value text not null);
create table if not exists idps (
  id text primary key,
  issuer text not null unique,
  jwks_url text not null,
  audience text not null,
  is_deactivated integer not null
);
create table if not exists users (
  id text primary key,
  primary_party text not null,
  is_deactivated integer not null,
  resource_version integer not null,
  annotations text not null,
  idp text not null,
  primary_party_authentication integer not null,
  -- The user as the API renders it, so a 1000-user page is served without re-encoding.
  wire text not null
);
create index if not exists users_by_idp on users (idp, id);
create table if not exists user_rights (
  user_id text not null,
  kind text not null,
  party text not null,
  primary key (user_id, kind, party)
) without rowid;
create table if not exists parties (
  party text primary key,
  is_local integer not null,
  idp text not null,
  resource_version integer not null,
  annotations text not null
);
-- The synchronizers each local party is hosted on (PartyToParticipant per synchronizer). A party
-- without rows predates this table and is hosted on the sandbox's first synchronizer.
create table if not exists party_synchronizers (
  party text not null,
  synchronizer_id text not null,
  primary key (party, synchronizer_id)
) without rowid;
-- The signing keys of external parties (their PartyToParticipant's party signing keys), with the
-- threshold of signatures a transaction needs. Local parties have none: the participant signs.
create table if not exists party_signing_keys (
  party text not null,
  fingerprint text not null,
  spec text not null,
  spki blob not null,
  threshold integer not null,
  primary key (party, fingerprint)
) without rowid;
-- How this participant hosts a party on a synchronizer where it does not submit for it: an
-- external party is hosted with CONFIRMATION or OBSERVATION. Parties without a row: SUBMISSION.
create table if not exists party_permissions (
  party text not null,
  synchronizer_id text not null,
  permission text not null,
  primary key (party, synchronizer_id)
) without rowid;
create table if not exists packages (
  package_id text primary key,
  name text not null,
  version text not null,
  lf_version text not null,
  -- The ArchivePayload bytes the id hashes, served as-is by GET /v2/packages/{id}.
  payload blob not null,
  uploaded_at text not null
);
-- One VettedPackages topology mapping per (synchronizer, participant), with its serial.
create table if not exists vetting_states (
  synchronizer_id text not null,
  participant_id text not null,
  serial integer not null,
  primary key (synchronizer_id, participant_id)
) without rowid;
create table if not exists vetted_packages (
  synchronizer_id text not null,
  participant_id text not null,
  package_id text not null,
  valid_from text,
  valid_until text,
  primary key (synchronizer_id, participant_id, package_id)
) without rowid;
-- Every update (transaction or party topology event) at its offset, as the sandbox recorded it.
create table if not exists updates (
  offset integer primary key,
  update_id text not null unique,
  kind text not null,
  record text not null
);
-- Command completions (successful ones; rejections are answered synchronously).
create table if not exists completions (
  offset integer primary key,
  user_id text not null,
  act_as text not null,
  record text not null
);
-- Change ids already accepted, for command deduplication.
create table if not exists command_dedup (
  change_key text primary key,
  offset integer not null,
  submission_id text not null,
  record_micros integer not null
) without rowid;
`;

/**
 * Opens the sandbox's SQLite database: in memory by default, or `DIR/sandbox.db` with a
 * write-ahead log synced on every commit, so an acknowledged change survives `kill -9`.
 */
export function openDatabase(dataDir?: string): SqlDatabase {
  let db: Database.Database;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, 'sandbox.db'));
    db.exec('pragma journal_mode = wal');
    db.exec('pragma synchronous = full');
  } else {
    db = new Database(':memory:');
  }
  db.exec('pragma foreign_keys = off');
  db.exec(SCHEMA);
  return db;
}

/** Runs `fn` in one SQLite transaction: every multi-step change is all or nothing. */
export function inTransaction<T>(db: SqlDatabase, fn: () => T): T {
  return db.transaction(fn)();
}

import type { Schemas } from '../wire-types';
import type { SqlDatabase } from './database';
import { rightKey, type RightKind, type RightRecord } from './rights';

export type UserRecord = {
  id: string;
  primaryParty: string;
  isDeactivated: boolean;
  resourceVersion: number;
  annotations: Record<string, string>;
  identityProviderId: string;
  primaryPartyAuthentication: boolean;
};

/** The user as the JSON API renders it. */
export function toWireUser(user: UserRecord): Schemas['User'] {
  return {
    id: user.id,
    primaryParty: user.primaryParty,
    isDeactivated: user.isDeactivated,
    metadata: { resourceVersion: String(user.resourceVersion), annotations: user.annotations },
    identityProviderId: user.identityProviderId,
    primaryPartyAuthentication: user.primaryPartyAuthentication,
  };
}

type UserRow = {
  id: string;
  primary_party: string;
  is_deactivated: number;
  resource_version: number;
  annotations: string;
  idp: string;
  primary_party_authentication: number;
};

const fromRow = (row: UserRow): UserRecord => ({
  id: row.id,
  primaryParty: row.primary_party,
  isDeactivated: row.is_deactivated === 1,
  resourceVersion: row.resource_version,
  annotations: JSON.parse(row.annotations) as Record<string, string>,
  identityProviderId: row.idp,
  primaryPartyAuthentication: row.primary_party_authentication === 1,
});

/** A user as the participant creates one when nothing else is asked: no party, no metadata. */
export const defaultUser = (id: string): UserRecord => ({
  id,
  primaryParty: '',
  isDeactivated: false,
  resourceVersion: 0,
  annotations: {},
  identityProviderId: '',
  primaryPartyAuthentication: false,
});

/** A user's columns but the id, in the order insert and update name them. */
const toColumns = (user: UserRecord) =>
  [
    user.primaryParty,
    user.isDeactivated ? 1 : 0,
    user.resourceVersion,
    JSON.stringify(user.annotations),
    user.identityProviderId,
    user.primaryPartyAuthentication ? 1 : 0,
    JSON.stringify(toWireUser(user)),
  ] as const;

/** Persistence of users and their rights; no validation or authorization lives here. */
export function createUsersStore(db: SqlDatabase) {
  const statements = {
    get: db.prepare('select * from users where id = ?'),
    idpOf: db.prepare('select idp from users where id = ?'),
    idpAndRightCount: db.prepare(
      'select idp, (select count(*) from user_rights where user_id = users.id) as n from users where id = ?',
    ),
    // SQLite's BINARY collation compares UTF-8 bytes, like Postgres' collate "C" (§2.6).
    page: db.prepare('select * from users where idp = ? and id > ? order by id limit ?'),
    pageWire: db.prepare('select id, wire from users where idp = ? and id > ? order by id limit ?'),
    insert: db.prepare(
      'insert into users (id, primary_party, is_deactivated, resource_version, annotations, idp, primary_party_authentication, wire) values (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertIfAbsent: db.prepare(
      'insert into users (id, primary_party, is_deactivated, resource_version, annotations, idp, primary_party_authentication, wire) values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing',
    ),
    update: db.prepare(
      'update users set primary_party = ?, is_deactivated = ?, resource_version = ?, annotations = ?, idp = ?, primary_party_authentication = ?, wire = ? where id = ?',
    ),
    delete: db.prepare('delete from users where id = ?'),
    countByIdp: db.prepare('select count(*) as n from users where idp = ?'),
    rights: db.prepare(
      'select kind, party from user_rights where user_id = ? order by kind, party',
    ),
    countRights: db.prepare('select count(*) as n from user_rights where user_id = ?'),
    insertRight: db.prepare(
      'insert into user_rights (user_id, kind, party) values (?, ?, ?) on conflict do nothing',
    ),
    deleteRight: db.prepare('delete from user_rights where user_id = ? and kind = ? and party = ?'),
    deleteRights: db.prepare('delete from user_rights where user_id = ?'),
    usersWithRight: db.prepare(
      'select distinct user_id from user_rights where kind = ? and party = ? order by user_id',
    ),
  };

  return {
    get(id: string): UserRecord | undefined {
      const row = statements.get.get(id) as UserRow | undefined;
      return row && fromRow(row);
    },
    /**
     * The user's identity provider, or undefined when there is no such user: what most checks
     * need, without reading and parsing the whole row.
     */
    identityProviderOf(id: string): string | undefined {
      return (statements.idpOf.get(id) as { idp: string } | undefined)?.idp;
    },
    /** The user's identity provider and how many rights it has: what a grant checks first. */
    grantTarget(id: string): { idp: string; rightCount: number } | undefined {
      const row = statements.idpAndRightCount.get(id) as { idp: string; n: number } | undefined;
      return row && { idp: row.idp, rightCount: row.n };
    },
    /** Users of one IdP with ids strictly greater than `afterId`, in byte order. */
    page(identityProviderId: string, afterId: string, limit: number): UserRecord[] {
      return (statements.page.all(identityProviderId, afterId, limit) as UserRow[]).map(fromRow);
    },
    /** Like `page`, but each user already encoded as the API's JSON: the hot path of listing. */
    pageWire(
      identityProviderId: string,
      afterId: string,
      limit: number,
    ): { id: string; wire: string }[] {
      return statements.pageWire.all(identityProviderId, afterId, limit) as {
        id: string;
        wire: string;
      }[];
    },
    insert(user: UserRecord) {
      statements.insert.run(user.id, ...toColumns(user));
    },
    /** Inserts the user unless its id is taken; false when it was (nothing written then). */
    insertIfAbsent(user: UserRecord): boolean {
      return statements.insertIfAbsent.run(user.id, ...toColumns(user)).changes > 0;
    },
    update(user: UserRecord) {
      statements.update.run(...toColumns(user), user.id);
    },
    delete(id: string) {
      statements.deleteRights.run(id);
      statements.delete.run(id);
    },
    countByIdp(identityProviderId: string): number {
      return (statements.countByIdp.get(identityProviderId) as { n: number }).n;
    },
    rights(id: string): RightRecord[] {
      return statements.rights.all(id) as RightRecord[];
    },
    countRights(id: string): number {
      return (statements.countRights.get(id) as { n: number }).n;
    },
    /** Adds rights and returns only those that were not there before. */
    addRights(id: string, rights: RightRecord[]): RightRecord[] {
      return uniqueRights(rights).filter(
        (right) => statements.insertRight.run(id, right.kind, right.party).changes > 0,
      );
    },
    /** Removes rights and returns only those that were actually present. */
    removeRights(id: string, rights: RightRecord[]): RightRecord[] {
      return uniqueRights(rights).filter(
        (right) => statements.deleteRight.run(id, right.kind, right.party).changes > 0,
      );
    },
    usersWithRight(kind: RightKind, party = ''): string[] {
      return (statements.usersWithRight.all(kind, party) as { user_id: string }[]).map(
        (row) => row.user_id,
      );
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;

/** Rights in one request are a set: duplicates collapse (§2.2). */
export function uniqueRights(rights: RightRecord[]): RightRecord[] {
  const seen = new Map<string, RightRecord>();
  for (const right of rights) seen.set(rightKey(right), right);
  return [...seen.values()];
}

import type { SqlDatabase } from './database';

export type IdpRecord = {
  identityProviderId: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  isDeactivated: boolean;
};

type IdpRow = {
  id: string;
  issuer: string;
  jwks_url: string;
  audience: string;
  is_deactivated: number;
};

const fromRow = (row: IdpRow): IdpRecord => ({
  identityProviderId: row.id,
  issuer: row.issuer,
  jwksUrl: row.jwks_url,
  audience: row.audience,
  isDeactivated: row.is_deactivated === 1,
});

export function createIdpsStore(db: SqlDatabase) {
  const statements = {
    get: db.prepare('select * from idps where id = ?'),
    byIssuer: db.prepare('select * from idps where issuer = ?'),
    list: db.prepare('select * from idps order by id'),
    count: db.prepare('select count(*) as n from idps'),
    upsert: db.prepare(
      'insert into idps (id, issuer, jwks_url, audience, is_deactivated) values (?, ?, ?, ?, ?) on conflict (id) do update set issuer = excluded.issuer, jwks_url = excluded.jwks_url, audience = excluded.audience, is_deactivated = excluded.is_deactivated',
    ),
    delete: db.prepare('delete from idps where id = ?'),
  };
  return {
    get(id: string): IdpRecord | undefined {
      const row = statements.get.get(id) as IdpRow | undefined;
      return row && fromRow(row);
    },
    byIssuer(issuer: string): IdpRecord | undefined {
      const row = statements.byIssuer.get(issuer) as IdpRow | undefined;
      return row && fromRow(row);
    },
    list(): IdpRecord[] {
      return (statements.list.all() as IdpRow[]).map(fromRow);
    },
    count(): number {
      return (statements.count.get() as { n: number }).n;
    },
    save(idp: IdpRecord) {
      statements.upsert.run(
        idp.identityProviderId,
        idp.issuer,
        idp.jwksUrl,
        idp.audience,
        idp.isDeactivated ? 1 : 0,
      );
    },
    delete(id: string) {
      statements.delete.run(id);
    },
  };
}

export type IdpsStore = ReturnType<typeof createIdpsStore>;

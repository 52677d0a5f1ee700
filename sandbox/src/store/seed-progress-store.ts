import type { SqlDatabase } from './database';

/** How far the demo seed got: it records `started` before its first write, `finished` after its last. */
export type SeedProgress = 'started' | 'finished';

const KEY = 'demo-seed';

/**
 * The demo seed's progress, kept in the same database as what it writes, so a sandbox killed
 * while seeding knows on restart that the partial demo is its own and must be completed.
 */
export function createSeedProgressStore(db: SqlDatabase) {
  const statements = {
    get: db.prepare('select value from meta where key = ?'),
    set: db.prepare(
      'insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value',
    ),
  };
  return {
    get(): SeedProgress | undefined {
      const row = statements.get.get(KEY) as { value: string } | undefined;
      return row?.value === 'started' || row?.value === 'finished' ? row.value : undefined;
    },
    set(progress: SeedProgress) {
      statements.set.run(KEY, progress);
    },
  };
}

import type { SqlDatabase } from './database';

export type PackageRecord = {
  packageId: string;
  name: string;
  version: string;
  /** `major.minor`, e.g. `2.1`. */
  lfVersion: string;
  payload: Uint8Array;
  /** ISO-8601 instant of the first upload. */
  uploadedAt: string;
};

/** A package without its payload, for listings and vetting. */
export type PackageMetadata = Omit<PackageRecord, 'payload'>;

type PackageRow = {
  package_id: string;
  name: string;
  version: string;
  lf_version: string;
  uploaded_at: string;
};

const metadataFromRow = (row: PackageRow): PackageMetadata => ({
  packageId: row.package_id,
  name: row.name,
  version: row.version,
  lfVersion: row.lf_version,
  uploadedAt: row.uploaded_at,
});

export function createPackagesStore(db: SqlDatabase) {
  const statements = {
    // Re-uploading a package keeps its first upload time: the id is a hash, so the bytes are equal.
    insert: db.prepare(
      'insert into packages (package_id, name, version, lf_version, payload, uploaded_at) values (?, ?, ?, ?, ?, ?) on conflict (package_id) do nothing',
    ),
    metadata: db.prepare(
      'select package_id, name, version, lf_version, uploaded_at from packages where package_id = ?',
    ),
    payload: db.prepare('select payload from packages where package_id = ?'),
    all: db.prepare(
      'select package_id, name, version, lf_version, uploaded_at from packages order by package_id',
    ),
  };
  return {
    /** Stores the package unless it is already known; true when it was new. */
    insert(pkg: PackageRecord): boolean {
      const { changes } = statements.insert.run(
        pkg.packageId,
        pkg.name,
        pkg.version,
        pkg.lfVersion,
        Buffer.from(pkg.payload),
        pkg.uploadedAt,
      );
      return changes > 0;
    },
    metadata(packageId: string): PackageMetadata | undefined {
      const row = statements.metadata.get(packageId) as PackageRow | undefined;
      return row && metadataFromRow(row);
    },
    payload(packageId: string): Uint8Array | undefined {
      const row = statements.payload.get(packageId) as { payload: Uint8Array } | undefined;
      return row && new Uint8Array(row.payload);
    },
    /** Every known package, ordered by id. */
    all(): PackageMetadata[] {
      return (statements.all.all() as PackageRow[]).map(metadataFromRow);
    },
  };
}

export type VettedEntry = {
  packageId: string;
  /** Java `Instant.toString` form; null when unbounded. */
  validFrom: string | null;
  validUntil: string | null;
};

/** The VettedPackages mapping of one participant on one synchronizer. */
export type VettingState = {
  synchronizerId: string;
  participantId: string;
  serial: number;
  packages: VettedEntry[];
};

type VettingRow = { synchronizer_id: string; participant_id: string; serial: number };
type VettedRow = { package_id: string; valid_from: string | null; valid_until: string | null };

export function createVettingStore(db: SqlDatabase) {
  const statements = {
    states: db.prepare('select * from vetting_states order by synchronizer_id, participant_id'),
    state: db.prepare(
      'select * from vetting_states where synchronizer_id = ? and participant_id = ?',
    ),
    entries: db.prepare(
      'select package_id, valid_from, valid_until from vetted_packages where synchronizer_id = ? and participant_id = ? order by package_id',
    ),
    upsertState: db.prepare(
      'insert into vetting_states (synchronizer_id, participant_id, serial) values (?, ?, ?) on conflict (synchronizer_id, participant_id) do update set serial = excluded.serial',
    ),
    clear: db.prepare(
      'delete from vetted_packages where synchronizer_id = ? and participant_id = ?',
    ),
    insertEntry: db.prepare(
      'insert into vetted_packages (synchronizer_id, participant_id, package_id, valid_from, valid_until) values (?, ?, ?, ?, ?)',
    ),
  };
  const withEntries = (row: VettingRow): VettingState => ({
    synchronizerId: row.synchronizer_id,
    participantId: row.participant_id,
    serial: row.serial,
    packages: (statements.entries.all(row.synchronizer_id, row.participant_id) as VettedRow[]).map(
      (entry) => ({
        packageId: entry.package_id,
        validFrom: entry.valid_from,
        validUntil: entry.valid_until,
      }),
    ),
  });
  return {
    /** Every mapping, sorted by synchronizer id and then participant id. */
    all(): VettingState[] {
      return (statements.states.all() as VettingRow[]).map(withEntries);
    },
    get(synchronizerId: string, participantId: string): VettingState | undefined {
      const row = statements.state.get(synchronizerId, participantId) as VettingRow | undefined;
      return row && withEntries(row);
    },
    /** Replaces the whole mapping, as a new topology transaction with `state.serial` does. */
    save(state: VettingState) {
      statements.upsertState.run(state.synchronizerId, state.participantId, state.serial);
      statements.clear.run(state.synchronizerId, state.participantId);
      for (const entry of state.packages) {
        statements.insertEntry.run(
          state.synchronizerId,
          state.participantId,
          entry.packageId,
          entry.validFrom,
          entry.validUntil,
        );
      }
    },
  };
}

export type PackagesStore = ReturnType<typeof createPackagesStore>;
export type VettingStore = ReturnType<typeof createVettingStore>;

import { createHash } from 'node:crypto';
import { inTransaction, openDatabase, type SqlDatabase } from './store/database';
import { createIdpsStore } from './store/idps-store';
import { createPackagesStore, createVettingStore } from './store/packages-store';
import { createPartiesStore } from './store/parties-store';
import { createUsersStore } from './store/users-store';

export type LedgerStateOptions = {
  /** Keep state in `DIR/sandbox.db`; in memory when absent. */
  dataDir?: string;
  /** The participant's node name, e.g. `sandbox` as in Canton's sandbox topology. */
  participantName?: string;
};

/** Multihash of SHA-256 as Canton prints fingerprints: `1220` + 64 hex characters. */
export function fingerprintOf(seed: string) {
  return `1220${createHash('sha256').update(seed).digest('hex')}`;
}

/** Everything the sandbox knows, in one SQLite database, plus its fixed identity. */
export function createLedgerState({
  dataDir,
  participantName = 'sandbox',
}: LedgerStateOptions = {}) {
  const db: SqlDatabase = openDatabase(dataDir);
  const namespace = fingerprintOf(`ledger-console-sandbox/${participantName}`);
  const state = {
    db,
    participantName,
    /** The participant's namespace; local parties are `<hint>::<namespace>`. */
    namespace,
    participantId: `${participantName}::${namespace}`,
    /** The one synchronizer the sandbox is connected to. */
    synchronizerId: `local::${fingerprintOf('ledger-console-sandbox/synchronizer/local')}`,
    users: createUsersStore(db),
    idps: createIdpsStore(db),
    parties: createPartiesStore(db),
    packages: createPackagesStore(db),
    vetting: createVettingStore(db),
    transaction: <T>(fn: () => T): T => inTransaction(db, fn),
    close: () => {
      db.close();
    },
  };
  // participant_admin exists from the start, like the real DB migration creates it (§2.3).
  state.transaction(() => {
    if (!state.users.get('participant_admin')) {
      state.users.insert({
        id: 'participant_admin',
        primaryParty: '',
        isDeactivated: false,
        resourceVersion: 0,
        annotations: {},
        identityProviderId: '',
        primaryPartyAuthentication: false,
      });
      state.users.addRights('participant_admin', [{ kind: 'ParticipantAdmin', party: '' }]);
    }
  });
  return state;
}

export type LedgerState = ReturnType<typeof createLedgerState>;

import { createHash } from 'node:crypto';
import { encodePackagePayload } from './daml-lf/encode-package';
import { DEMO_MODULES, DEMO_PACKAGE_NAME, DEMO_PACKAGE_VERSION } from './ledger/demo-package';
import { createLedger } from './ledger/ledger';
import { createTemplateResolver } from './ledger/template-resolver';
import { inTransaction, openDatabase, type SqlDatabase } from './store/database';
import { createIdpsStore } from './store/idps-store';
import { createLedgerStore } from './store/ledger-store';
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

/** The built-in package as a real Daml-LF archive, encoded once per process. */
let demoArchive: { payload: Uint8Array; packageId: string } | undefined;
export function demoPackageArchive() {
  if (!demoArchive) {
    const payload = encodePackagePayload({
      name: DEMO_PACKAGE_NAME,
      version: DEMO_PACKAGE_VERSION,
      modules: DEMO_MODULES,
    });
    demoArchive = { payload, packageId: createHash('sha256').update(payload).digest('hex') };
  }
  return demoArchive;
}

/** Everything the sandbox knows, in one SQLite database, plus its fixed identity. */
export function createLedgerState({
  dataDir,
  participantName = 'sandbox',
}: LedgerStateOptions = {}) {
  const db: SqlDatabase = openDatabase(dataDir);
  const namespace = fingerprintOf(`ledger-console-sandbox/${participantName}`);
  const participantId = `${participantName}::${namespace}`;
  const synchronizerId = `local::${fingerprintOf('ledger-console-sandbox/synchronizer/local')}`;
  const parties = createPartiesStore(db);
  const packages = createPackagesStore(db);
  const ledgerStore = createLedgerStore(db);
  const transaction = <T>(fn: () => T): T => inTransaction(db, fn);
  const demo = demoPackageArchive();
  const state = {
    db,
    participantName,
    /** The participant's namespace; local parties are `<hint>::<namespace>`. */
    namespace,
    participantId,
    /** The one synchronizer the sandbox is connected to. */
    synchronizerId,
    users: createUsersStore(db),
    idps: createIdpsStore(db),
    parties,
    packages,
    vetting: createVettingStore(db),
    /** Updates, contracts and completions. */
    history: ledgerStore,
    ledger: createLedger({
      store: ledgerStore,
      parties,
      synchronizerId,
      participantId,
      demo: () => ({ packageId: demo.packageId, packageName: DEMO_PACKAGE_NAME }),
      transaction,
    }),
    templates: createTemplateResolver(packages, () => demo.packageId),
    demoPackageId: demo.packageId,
    transaction,
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
    // The built-in package is stored and vetted like an uploaded one, so every package view
    // (listing, bytes, status, vetting) shows it as a participant would.
    if (
      state.packages.insert({
        packageId: demo.packageId,
        name: DEMO_PACKAGE_NAME,
        version: DEMO_PACKAGE_VERSION,
        lfVersion: '2.1',
        payload: demo.payload,
        uploadedAt: new Date().toISOString(),
      })
    ) {
      const vetting = state.vetting.get(synchronizerId, participantId);
      state.vetting.save({
        synchronizerId,
        participantId,
        serial: (vetting?.serial ?? 0) + 1,
        packages: [
          ...(vetting?.packages ?? []),
          { packageId: demo.packageId, validFrom: null, validUntil: null },
        ].sort((a, b) => (a.packageId < b.packageId ? -1 : 1)),
      });
    }
  });
  return state;
}

export type LedgerState = ReturnType<typeof createLedgerState>;

import { createHash } from 'node:crypto';
import { encodePackagePayload } from '@ledger-console/participant/daml-lf/encode-package';
import { DEMO_MODULES, DEMO_PACKAGE_NAME, DEMO_PACKAGE_VERSION } from './ledger/demo-package';
import { createDecodedPackages } from './ledger/decoded-packages';
import { createInterfaceCatalog } from './ledger/interface-catalog';
import { createLedger } from './ledger/ledger';
import {
  createOffsetCheckpointCache,
  DEFAULT_OFFSET_CHECKPOINT_CONFIG,
  synchronizerTimes,
  type OffsetCheckpointConfig,
} from './ledger/offset-checkpoints';
import { createTemplateResolver } from './ledger/template-resolver';
import { inTransaction, openDatabase, type SqlDatabase } from './store/database';
import { createIdpsStore } from './store/idps-store';
import { createLedgerStore } from './store/ledger-store';
import { createPackagesStore, createVettingStore } from './store/packages-store';
import { createPartiesStore, hostedPartyCheck } from './store/parties-store';
import { createSeedProgressStore } from './store/seed-progress-store';
import { createUsersStore, defaultUser } from './store/users-store';
import { connectedSynchronizers, fingerprintOf } from './synchronizers';

export type LedgerStateOptions = {
  /** Keep state in `DIR/sandbox.db`; in memory when absent. */
  dataDir?: string;
  /** The participant's node name, e.g. `sandbox` as in Canton's sandbox topology. */
  participantName?: string;
  /**
   * The aliases of the synchronizers the participant is connected to, in order (default
   * `['local']`). Each gets the id `<alias>::<fingerprint>`; commands run where routing puts
   * them, as on a participant.
   */
  synchronizers?: readonly string[];
  /**
   * When tailing streams get offset checkpoints (ledger/offset-checkpoints.ts); Canton's
   * defaults, 15 s and 60 s, unless given (tests shorten them).
   */
  offsetCheckpoints?: Partial<OffsetCheckpointConfig>;
  /**
   * Report traffic cost (`--traffic-cost`): `paidTrafficCost` on completions and transactions
   * and `costEstimation` on prepare, from the model in ledger/interactive/cost-estimation.ts.
   * Off by default, like a participant on a synchronizer without traffic control.
   */
  trafficCost?: boolean;
  /**
   * Keep in the active contract set only contracts a party hosted here is a stakeholder of, as
   * a participant of a fleet does (fleet/): the others it only witnessed (divulged) show in its
   * ledger effects, never in its ACS, its ACS deltas or its contract lookups. A lone sandbox
   * keeps every contract it recorded, as it always has.
   */
  hostedContractsOnly?: boolean;
};

export { fingerprintOf };

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
  synchronizers: aliases,
  offsetCheckpoints,
  trafficCost = false,
  hostedContractsOnly = false,
}: LedgerStateOptions = {}) {
  const synchronizers = connectedSynchronizers(aliases);
  const synchronizerIds = synchronizers.map((synchronizer) => synchronizer.id);
  const [synchronizerId = ''] = synchronizerIds;
  const db: SqlDatabase = openDatabase(dataDir);
  const namespace = fingerprintOf(`ledger-console-sandbox/${participantName}`);
  const participantId = `${participantName}::${namespace}`;
  const parties = createPartiesStore(db);
  /** The connected synchronizers `party` is hosted on, in connection order. */
  const hostingSynchronizers = (party: string): string[] => {
    const recorded = parties.recordedSynchronizers(party);
    if (recorded.length === 0) return parties.get(party)?.isLocal ? [synchronizerId] : [];
    return synchronizerIds.filter((id) => recorded.includes(id));
  };
  const packages = createPackagesStore(db);
  const vetting = createVettingStore(db);
  /** Whether the package is vetted on the synchronizer, now (its bounds are ISO instants). */
  const vettedOn = (id: string, packageId: string) => {
    const now = Date.now();
    return (vetting.get(id, participantId)?.packages ?? []).some(
      (entry) =>
        entry.packageId === packageId &&
        (entry.validFrom === null || Date.parse(entry.validFrom) <= now) &&
        (entry.validUntil === null || now < Date.parse(entry.validUntil)),
    );
  };
  const ledgerStore = createLedgerStore(db);
  const transaction = <T>(fn: () => T): T => inTransaction(db, fn);
  const demo = demoPackageArchive();
  const decoded = createDecodedPackages(packages);
  const state = {
    db,
    participantName,
    /** The participant's namespace; local parties are `<hint>::<namespace>`. */
    namespace,
    participantId,
    /**
     * The first connected synchronizer: where parties are allocated by default, and the one a
     * request without a synchronizer id means when it is the only one.
     */
    synchronizerId,
    /** Every connected synchronizer's id, in connection order (the first is `synchronizerId`). */
    synchronizerIds,
    /** Every connected synchronizer with its alias, in connection order. */
    synchronizers,
    /** Whether the participant reports traffic cost (LedgerStateOptions.trafficCost). */
    trafficCost,
    hostingSynchronizers,
    /** Whether this participant has vetted the package on the synchronizer, now. */
    vettedOn,
    users: createUsersStore(db),
    idps: createIdpsStore(db),
    parties,
    packages,
    vetting,
    /** The demo seed's bookkeeping (not ledger data): lets a restart finish an interrupted seed. */
    seedProgress: createSeedProgressStore(db),
    /** Updates, contracts and completions. */
    history: ledgerStore,
    ledger: createLedger({
      store: ledgerStore,
      parties,
      synchronizerId,
      synchronizerIds,
      participantId,
      hostingSynchronizers,
      vettedOn,
      ...(hostedContractsOnly ? { hostsStakeholders: () => hostedPartyCheck(parties) } : {}),
      demo: () => ({ packageId: demo.packageId, packageName: DEMO_PACKAGE_NAME }),
      transaction,
    }),
    templates: createTemplateResolver(packages, decoded, () => demo.packageId),
    /** Which interfaces templates implement, and views through them, for every stored package. */
    interfaces: createInterfaceCatalog(decoded, () => demo.packageId),
    /** The checkpoint tailing streams send: the ledger end, cached (none for an empty ledger). */
    offsetCheckpoints: createOffsetCheckpointCache(
      () => {
        const offset = ledgerStore.ledgerEnd();
        if (offset === 0) return undefined;
        return {
          offset,
          synchronizerTimes: synchronizerTimes(
            synchronizerIds,
            ledgerStore.recordTimesBySynchronizer(),
          ),
        };
      },
      { ...DEFAULT_OFFSET_CHECKPOINT_CONFIG, ...offsetCheckpoints },
    ),
    demoPackageId: demo.packageId,
    transaction,
    close: () => {
      db.close();
    },
  };
  // participant_admin exists from the start, like the real DB migration creates it (§2.3).
  state.transaction(() => {
    if (!state.users.get('participant_admin')) {
      state.users.insert(defaultUser('participant_admin'));
      state.users.addRights('participant_admin', [{ kind: 'ParticipantAdmin', party: '' }]);
    }
    // The built-in package is stored and vetted like an uploaded one, so every package view
    // (listing, bytes, status, vetting) shows it as a participant would: vetted on every
    // synchronizer, and on one first connected in a later run of the same data directory.
    const stored = state.packages.insert({
      packageId: demo.packageId,
      name: DEMO_PACKAGE_NAME,
      version: DEMO_PACKAGE_VERSION,
      lfVersion: '2.1',
      payload: demo.payload,
      uploadedAt: new Date().toISOString(),
    });
    for (const id of synchronizerIds) {
      const vetting = state.vetting.get(id, participantId);
      if (!stored && vetting) continue;
      if (vetting?.packages.some((entry) => entry.packageId === demo.packageId)) continue;
      state.vetting.save({
        synchronizerId: id,
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

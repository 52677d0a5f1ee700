import type { PartySigningKey, SigningKeySpec } from '../ledger/external/keys';
import type { HostingPermission } from '../ledger/external/topology';
import type { SqlDatabase } from './database';

export type PartyRecord = {
  party: string;
  /** Hosted on this participant (parties of other participants are known but not local). */
  isLocal: boolean;
  identityProviderId: string;
  resourceVersion: number;
  annotations: Record<string, string>;
};

type PartyRow = {
  party: string;
  is_local: number;
  idp: string;
  resource_version: number;
  annotations: string;
};

const fromRow = (row: PartyRow): PartyRecord => ({
  party: row.party,
  isLocal: row.is_local === 1,
  identityProviderId: row.idp,
  resourceVersion: row.resource_version,
  annotations: JSON.parse(row.annotations) as Record<string, string>,
});

export function createPartiesStore(db: SqlDatabase) {
  const statements = {
    get: db.prepare('select * from parties where party = ?'),
    page: db.prepare(
      'select * from parties where party > ? and substr(party, 1, length(?)) = ? order by party limit ?',
    ),
    upsert: db.prepare(
      'insert into parties (party, is_local, idp, resource_version, annotations) values (?, ?, ?, ?, ?) on conflict (party) do update set is_local = excluded.is_local, idp = excluded.idp, resource_version = excluded.resource_version, annotations = excluded.annotations',
    ),
    countByIdp: db.prepare('select count(*) as n from parties where idp = ?'),
    signingKeys: db.prepare(
      'select fingerprint, spec, spki, threshold from party_signing_keys where party = ? order by fingerprint',
    ),
    addSigningKey: db.prepare(
      'insert into party_signing_keys (party, fingerprint, spec, spki, threshold) values (?, ?, ?, ?, ?) on conflict do nothing',
    ),
    synchronizers: db.prepare(
      'select synchronizer_id from party_synchronizers where party = ? order by synchronizer_id',
    ),
    host: db.prepare(
      'insert into party_synchronizers (party, synchronizer_id) values (?, ?) on conflict do nothing',
    ),
    permission: db.prepare(
      'select permission from party_permissions where party = ? and synchronizer_id = ?',
    ),
    setPermission: db.prepare(
      'insert into party_permissions (party, synchronizer_id, permission) values (?, ?, ?) on conflict do update set permission = excluded.permission',
    ),
  };
  return {
    get(party: string): PartyRecord | undefined {
      const row = statements.get.get(party) as PartyRow | undefined;
      return row && fromRow(row);
    },
    /** Parties whose id starts with `prefix`, strictly after `afterParty`, in byte order. */
    page(prefix: string, afterParty: string, limit: number): PartyRecord[] {
      return (statements.page.all(afterParty, prefix, prefix, limit) as PartyRow[]).map(fromRow);
    },
    save(party: PartyRecord) {
      statements.upsert.run(
        party.party,
        party.isLocal ? 1 : 0,
        party.identityProviderId,
        party.resourceVersion,
        JSON.stringify(party.annotations),
      );
    },
    /**
     * The synchronizers `party` was allocated on, as recorded; empty for parties allocated before
     * the sandbox recorded them (those are hosted on its first synchronizer).
     */
    recordedSynchronizers(party: string): string[] {
      return (statements.synchronizers.all(party) as { synchronizer_id: string }[]).map(
        (row) => row.synchronizer_id,
      );
    },
    /** Records that `party` is hosted on `synchronizerId` (idempotent). */
    host(party: string, synchronizerId: string) {
      statements.host.run(party, synchronizerId);
    },
    /** How this participant hosts `party` on `synchronizerId`: SUBMISSION unless recorded. */
    permission(party: string, synchronizerId: string): HostingPermission {
      const row = statements.permission.get(party, synchronizerId) as
        { permission: HostingPermission } | undefined;
      return row?.permission ?? 'SUBMISSION';
    },
    /** Records a hosting without submission rights (an external party's). */
    setPermission(party: string, synchronizerId: string, permission: HostingPermission) {
      statements.setPermission.run(party, synchronizerId, permission);
    },
    /**
     * An external party's signing keys and how many of them must sign; undefined for a party the
     * participant signs for (a local party, or one this participant does not know).
     */
    signingKeys(party: string): { keys: PartySigningKey[]; threshold: number } | undefined {
      const rows = statements.signingKeys.all(party) as {
        fingerprint: string;
        spec: string;
        spki: Uint8Array;
        threshold: number;
      }[];
      const [first] = rows;
      if (!first) return undefined;
      return {
        keys: rows.map((row) => ({
          fingerprint: row.fingerprint,
          spec: row.spec as SigningKeySpec,
          spki: Buffer.from(row.spki),
        })),
        threshold: first.threshold,
      };
    },
    /** Records an external party's signing keys (call inside the allocating transaction). */
    setSigningKeys(party: string, keys: readonly PartySigningKey[], threshold: number) {
      for (const key of keys) {
        statements.addSigningKey.run(party, key.fingerprint, key.spec, key.spki, threshold);
      }
    },
    countByIdp(identityProviderId: string): number {
      return (statements.countByIdp.get(identityProviderId) as { n: number }).n;
    },
  };
}

export type PartiesStore = ReturnType<typeof createPartiesStore>;

/**
 * Whether this participant hosts a party, each party looked up once: for one pass over many
 * events or contracts (a projection, an active contract set), while the topology stands still.
 */
export function hostedPartyCheck(parties: Pick<PartiesStore, 'get'>) {
  const known = new Map<string, boolean>();
  return (party: string) => {
    let hosted = known.get(party);
    if (hosted === undefined) {
      hosted = parties.get(party)?.isLocal === true;
      known.set(party, hosted);
    }
    return hosted;
  };
}

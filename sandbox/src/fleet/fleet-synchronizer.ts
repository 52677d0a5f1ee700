import type { LedgerState } from '../ledger-state';
import type { InformeeVettingCheck } from '../ledger/ledger';
import type {
  ReassignmentRecord,
  TopologyRecord,
  TransactionRecord,
  UpdateRecord,
} from '../ledger/transaction';
import type { VettingState } from '../store/packages-store';
import { hostedPartyCheck, type PartyRecord } from '../store/parties-store';

/**
 * The synchronizer(s) a fleet of in-process participants shares. Each member commits on its own
 * (its routing, its offsets) and publishes what it committed; this delivers to every other
 * member what that member sees of it, as a synchronizer delivers a confirmation request's views
 * to the participants hosting their informees:
 *
 * - topology: a party hosted on one member becomes known to all (not local there, hosted on the
 *   same synchronizer, so their routing finds its informees); an external party whose hosting
 *   names another member becomes local there too, with that member's own topology event;
 * - transactions: the member's projection, the nodes one of its parties witnesses (a node's
 *   witnesses already include its ancestors' informees, so a visible node brings its whole
 *   subtree), under the same update id, times and node ids, at the member's next offset; a
 *   member that witnesses nothing stores nothing;
 * - reassignments: to members hosting a stakeholder of the moved contracts;
 * - vetting: each member's VettedPackages mappings are in every member's topology state, and
 *   routing refuses a transaction an informee's participant has not vetted the packages of.
 *
 * Command id, submission id, user and traffic cost belong to the submitting participant: the
 * others store the update without them (its completion exists only there).
 */

/** One participant of the fleet, as the synchronizer reaches it. */
export type FleetParticipantState = Pick<
  LedgerState,
  | 'participantId'
  | 'parties'
  | 'ledger'
  | 'transaction'
  | 'hostingSynchronizers'
  | 'vettedOn'
  | 'vetting'
>;

/** What a non-submitting participant keeps of a submission's metadata. */
const withoutSubmitterData = <U extends TransactionRecord | ReassignmentRecord>(update: U): U => {
  const received = { ...update, commandId: '', submissionId: '', userId: '' };
  if (received.kind === 'transaction') delete received.paidTrafficCost;
  return received;
};

/**
 * The projection of `tx` to the parties `hosts` accepts: the nodes they witness, with the node
 * ids of the whole transaction. Undefined when they witness nothing.
 */
export function projectionOf(
  tx: TransactionRecord,
  hosts: (party: string) => boolean,
): TransactionRecord | undefined {
  const nodes = tx.nodes.filter((node) => node.witnesses.some(hosts));
  if (nodes.length === 0) return undefined;
  return withoutSubmitterData({ ...tx, nodes });
}

/** A party another participant hosts, as a participant lists it: known, not local. */
const remoteParty = (party: string): PartyRecord => ({
  party,
  isLocal: false,
  identityProviderId: '',
  resourceVersion: 0,
  annotations: {},
});

/**
 * Connects the members: each one's committed updates reach the others from now on, and every
 * party already hosted somewhere becomes known everywhere (a member that joins later, or a data
 * directory from a smaller fleet, learns the topology it missed; not the transactions). Returns
 * the function that disconnects them.
 */
export function connectFleet(members: readonly FleetParticipantState[]): () => void {
  // Deliveries announce on the receiving member, whose own listener must not publish them again.
  let delivering = false;

  /** Makes `party` known to `member` on the synchronizers; call inside its transaction. */
  const learnParty = (
    member: FleetParticipantState,
    party: string,
    synchronizerIds: readonly string[],
  ) => {
    const known = member.parties.get(party);
    if (known?.isLocal) return;
    if (!known) member.parties.save(remoteParty(party));
    const recorded = known ? member.parties.recordedSynchronizers(party) : [];
    for (const id of synchronizerIds) if (!recorded.includes(id)) member.parties.host(party, id);
  };

  const deliverTopology = (from: FleetParticipantState, update: TopologyRecord) => {
    for (const member of members) {
      if (member === from) continue;
      const hosting = update.hosting?.find((host) => host.participantId === member.participantId);
      if (!hosting) {
        member.transaction(() => {
          learnParty(member, update.party, [update.synchronizerId]);
        });
        continue;
      }
      // An external party this member hosts too: it becomes local here, with the permission the
      // party's hosting gives this member, and this member's own topology event.
      const signing = from.parties.signingKeys(update.party);
      const recorded = member.transaction(() => {
        const existing = member.parties.get(update.party);
        member.parties.save(
          existing
            ? { ...existing, isLocal: true, resourceVersion: existing.resourceVersion + 1 }
            : { ...remoteParty(update.party), isLocal: true },
        );
        member.parties.host(update.party, update.synchronizerId);
        member.parties.setPermission(update.party, update.synchronizerId, hosting.permission);
        if (signing) member.parties.setSigningKeys(update.party, signing.keys, signing.threshold);
        return member.ledger.recordPartyAllocation(
          update.party,
          update.synchronizerId,
          update.hosting,
        );
      });
      member.ledger.announce(recorded);
    }
  };

  const deliver = (from: FleetParticipantState, update: UpdateRecord) => {
    if (update.kind === 'topology') {
      deliverTopology(from, update);
      return;
    }
    for (const member of members) {
      if (member === from) continue;
      const hosts = hostedPartyCheck(member.parties);
      if (update.kind === 'transaction') {
        const projection = projectionOf(update, hosts);
        if (projection) member.ledger.receive(projection);
      } else if (
        update.contracts.some(({ node }) => [...node.signatories, ...node.observers].some(hosts))
      ) {
        member.ledger.receive(withoutSubmitterData(update));
      }
    }
  };

  // The topology each member already has, shared before anything new is published: one
  // transaction per member, writing only what it does not know yet (a restart writes nothing).
  for (const member of members) {
    const local = localParties(member).map((party) => ({
      party,
      synchronizerIds: member.hostingSynchronizers(party),
    }));
    for (const other of members) {
      if (other === member) continue;
      other.transaction(() => {
        for (const { party, synchronizerIds } of local) learnParty(other, party, synchronizerIds);
      });
    }
  }

  // Routing on any member sees every member's vetting, as the synchronizer's topology shows it.
  const unvettedByHosts: InformeeVettingCheck = (synchronizerId, packagesByInformee) => {
    const missing = new Map<string, { participantId: string; packageId: string }>();
    for (const member of members) {
      const hosts = hostedPartyCheck(member.parties);
      for (const [party, packageIds] of packagesByInformee) {
        if (!hosts(party)) continue;
        for (const packageId of packageIds) {
          if (member.vettedOn(synchronizerId, packageId)) continue;
          const participantId = member.participantId;
          missing.set(JSON.stringify([participantId, packageId]), { participantId, packageId });
        }
      }
    }
    return [...missing.values()];
  };
  for (const member of members) member.ledger.checkInformeeVetting(unvettedByHosts);

  // Each member's VettedPackages mappings reach the others' topology state too, so listing the
  // vetting (and package preferences) on one shows every participant's, as on a synchronizer.
  const ownSaves = members.map((member) => member.vetting.save.bind(member.vetting));
  const mirror = (from: FleetParticipantState, vetting: VettingState) => {
    if (vetting.participantId !== from.participantId) return;
    for (const other of members) if (other !== from) other.vetting.save(vetting);
  };
  members.forEach((member, index) => {
    const save = ownSaves[index];
    if (!save) return;
    member.vetting.save = (vetting) => {
      save(vetting);
      mirror(member, vetting);
    };
  });
  for (const member of members) {
    for (const vetting of member.vetting.all()) mirror(member, vetting);
  }

  const unsubscribes = members.map((member) =>
    member.ledger.subscribe((update) => {
      if (delivering) return;
      delivering = true;
      try {
        deliver(member, update);
      } finally {
        delivering = false;
      }
    }),
  );
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    members.forEach((member, index) => {
      const save = ownSaves[index];
      if (save) member.vetting.save = save;
    });
  };
}

/** Every party the member hosts, in id order. */
function localParties(member: FleetParticipantState): string[] {
  const local: string[] = [];
  let after = '';
  for (;;) {
    const page = member.parties.page('', after, 1000);
    for (const record of page) if (record.isLocal) local.push(record.party);
    const last = page.at(-1);
    if (!last || page.length < 1000) return local;
    after = last.party;
  }
}

import { SandboxError } from '../errors/sandbox-error';
import type { LedgerStore } from '../store/ledger-store';
import type { PartiesStore } from '../store/parties-store';
import { interpret, type Command, type DemoPackageInfo } from './interpreter';
import {
  assignmentExclusivityAfter,
  commandBatch,
  planAssignment,
  planUnassignment,
  reassignmentIdOf,
  type PlannedReassignment,
  type ReassignmentRequest,
  type ReassignmentTopology,
} from './reassignment';
import { routeTransaction } from './routing';
import {
  formatMicros,
  newUpdateId,
  nowMicros,
  type CreateNode,
  type ReassignmentRecord,
  type TopologyRecord,
  type TransactionRecord,
  type UpdateRecord,
} from './transaction';

/** The participant's maximum deduplication duration (ParticipantInitConfig, §7.1). */
export const MAX_DEDUPLICATION_MICROS = 7n * 24n * 3600n * 1_000_000n;

export type Deduplication =
  { kind: 'duration'; micros: bigint } | { kind: 'offset'; offset: number } | { kind: 'default' };

export type SubmitRequest = {
  commands: Command[];
  userId: string;
  actAs: string[];
  readAs: string[];
  commandId: string;
  workflowId: string;
  submissionId: string;
  deduplication: Deduplication;
  /** Lower bound for the ledger time, in microseconds since the epoch. */
  minLedgerTimeMicros: bigint | null;
  disclosed: ReadonlyMap<string, CreateNode>;
  /** The synchronizer the request prescribes (a connected one), or null to let routing choose. */
  synchronizerId: string | null;
  traceparent: string;
};

type LedgerDeps = {
  store: LedgerStore;
  parties: PartiesStore;
  /** The sandbox's first synchronizer: where parties are allocated unless told otherwise. */
  synchronizerId: string;
  /** Every connected synchronizer, in connection order. */
  synchronizerIds: readonly string[];
  participantId: string;
  /** The connected synchronizers a local party is hosted on. */
  hostingSynchronizers: (party: string) => readonly string[];
  /** Whether this participant has vetted the package on the synchronizer, now. */
  vettedOn: (synchronizerId: string, packageId: string) => boolean;
  demo: () => DemoPackageInfo;
  transaction: <T>(fn: () => T) => T;
};

/** The change id of a submission: user, the set of actAs parties, command id (§7.5). */
const changeKey = (request: Pick<SubmitRequest, 'userId' | 'actAs' | 'commandId'>) =>
  JSON.stringify([request.userId, [...new Set(request.actAs)].sort(), request.commandId]);

/**
 * The sandbox's ledger: commits interpreted commands and party allocations as updates with
 * consecutive offsets, and tells listeners (streams) about each new update.
 */
export function createLedger({
  store,
  parties,
  synchronizerId,
  synchronizerIds,
  participantId,
  hostingSynchronizers,
  vettedOn,
  demo,
  transaction,
}: LedgerDeps) {
  const topology: ReassignmentTopology = {
    store,
    synchronizerIds,
    participantId,
    hostingSynchronizers,
    vettedOn,
  };
  const listeners = new Set<(update: UpdateRecord) => void>();
  /** After the commit, and only then: memory and listeners learn of the update. */
  const announce = (update: UpdateRecord) => {
    store.committed(update);
    for (const listener of listeners) listener(update);
  };

  /**
   * Appends a planned (un)assignment at the next offset with its completion; call inside the
   * committing transaction. The unassignment's time names the reassignment.
   */
  const recordReassignment = (
    metadata: Omit<ReassignmentRequest, 'commands'> & { reassignmentId?: string },
    planned: PlannedReassignment,
  ): ReassignmentRecord => {
    const offset = store.ledgerEnd() + 1;
    const micros = nowMicros();
    const update: ReassignmentRecord = {
      kind: 'reassignment',
      event: planned.event,
      offset,
      updateId: newUpdateId(),
      commandId: metadata.commandId,
      workflowId: metadata.workflowId,
      userId: metadata.userId,
      submitter: metadata.submitter,
      submissionId: metadata.submissionId,
      recordTime: formatMicros(micros),
      synchronizerId: planned.synchronizerId,
      traceparent: metadata.traceparent,
      reassignmentId:
        planned.reassignmentId ??
        reassignmentIdOf(
          planned.source,
          planned.target,
          micros,
          planned.contracts.map(({ node, reassignmentCounter }) => ({
            contractId: node.contractId,
            reassignmentCounter,
          })),
        ),
      source: planned.source,
      target: planned.target,
      assignmentExclusivity:
        planned.event === 'unassigned' ? assignmentExclusivityAfter(micros) : null,
      contracts: planned.contracts,
    };
    store.appendUpdate(update);
    store.insertCompletion({
      offset,
      commandId: update.commandId,
      updateId: update.updateId,
      userId: update.userId,
      actAs: [update.submitter],
      submissionId: update.submissionId,
      recordTime: update.recordTime,
      synchronizerId: update.synchronizerId,
      // Reassignments are not deduplicated: their completions carry no period.
      deduplicationPeriod: { Empty: {} },
      traceparent: update.traceparent,
    });
    return update;
  };

  /** The assignment completing an unassignment recorded in the same transaction. */
  const assignmentOf = (unassigned: ReassignmentRecord): PlannedReassignment => ({
    event: 'assigned',
    source: unassigned.source,
    target: unassigned.target,
    synchronizerId: unassigned.target,
    reassignmentId: unassigned.reassignmentId,
    contracts: unassigned.contracts,
  });

  const checkDeduplication = (request: SubmitRequest, now: bigint) => {
    const accepted = store.acceptedChange(changeKey(request));
    if (!accepted) return;
    const within =
      request.deduplication.kind === 'offset'
        ? accepted.offset > request.deduplication.offset
        : now - BigInt(accepted.record_micros) <
          (request.deduplication.kind === 'duration'
            ? request.deduplication.micros
            : MAX_DEDUPLICATION_MICROS);
    if (within) {
      throw new SandboxError(
        'DUPLICATE_COMMAND',
        'A command with the given command id has already been successfully processed',
        {
          context: {
            existing_submission_id: accepted.submission_id,
            completion_offset: String(accepted.offset),
          },
        },
      );
    }
  };

  return {
    ledgerEnd: () => store.ledgerEnd(),
    /** Runs `listener` after each committed update; returns the unsubscribe function. */
    subscribe(listener: (update: UpdateRecord) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    submit(request: SubmitRequest): TransactionRecord {
      const now = nowMicros();
      checkDeduplication(request, now);
      const demoInfo = demo();
      const interpreted = interpret(
        request.commands,
        { actAs: request.actAs, readAs: request.readAs, disclosed: request.disclosed },
        {
          contract: (contractId) => store.contract(contractId),
          activeContractIdByKey: (hash) => store.activeContractIdByKey(hash),
        },
        demoInfo,
      );
      // Routing comes after interpretation: submitters must be hosted here (§7.5, inferred), with
      // submission rights somewhere; an external party is only confirmed for, it signs itself.
      const foreign = request.actAs.filter(
        (party) =>
          !parties.get(party)?.isLocal ||
          hostingSynchronizers(party).every(
            (hosting) => parties.permission(party, hosting) !== 'SUBMISSION',
          ),
      );
      if (foreign.length > 0) {
        throw new SandboxError(
          'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT',
          `This participant cannot submit as the given submitter on any connected synchronizer: ${foreign.join(', ')}`,
          { resources: foreign.map((party) => ['PARTY', party]) },
        );
      }
      const informees = [...new Set(interpreted.nodes.flatMap((node) => node.witnesses))].sort();
      const unknown = informees.filter((party) => parties.get(party) === undefined);
      if (unknown.length > 0) {
        throw new SandboxError(
          'UNKNOWN_INFORMEES',
          `The following informees are not hosted on any participant: ${unknown.join(', ')}`,
          { resources: unknown.map((party) => ['PARTY', party]) },
        );
      }
      const route = routeTransaction(topology, {
        actAs: request.actAs,
        readAs: request.readAs,
        informees,
        inputs: interpreted.inputContracts.flatMap((contractId) => {
          const stored = store.contract(contractId);
          if (!stored) return [];
          const { node } = stored;
          return [
            {
              contractId,
              stakeholders: [...new Set([...node.signatories, ...node.observers])],
              location: stored.location,
            },
          ];
        }),
        prescribed: request.synchronizerId,
      });
      const moved: ReassignmentRecord[] = [];
      const record = transaction(() => {
        for (const { submitter, unassignment } of route.reassignments) {
          // ContractsReassigner: the transaction's command and user, no workflow id.
          const metadata = {
            submitter,
            userId: request.userId,
            commandId: request.commandId,
            workflowId: '',
            submissionId: request.submissionId,
            traceparent: request.traceparent,
          };
          const unassigned = recordReassignment(metadata, unassignment);
          moved.push(unassigned, recordReassignment(metadata, assignmentOf(unassigned)));
        }
        const offset = store.ledgerEnd() + 1;
        // After reassignments the transaction's times follow theirs on the same synchronizer.
        const at = moved.length > 0 ? nowMicros() : now;
        const ledgerTime =
          request.minLedgerTimeMicros !== null && request.minLedgerTimeMicros > at
            ? request.minLedgerTimeMicros
            : at;
        const tx: TransactionRecord = {
          kind: 'transaction',
          offset,
          updateId: newUpdateId(),
          commandId: request.commandId,
          workflowId: request.workflowId,
          userId: request.userId,
          actAs: request.actAs,
          submissionId: request.submissionId,
          effectiveAt: formatMicros(ledgerTime),
          // Record time never precedes ledger time.
          recordTime: formatMicros(ledgerTime > at ? ledgerTime : at),
          synchronizerId: route.synchronizerId,
          traceparent: request.traceparent,
          nodes: interpreted.nodes,
        };
        store.appendUpdate(tx);
        store.insertCompletion({
          offset,
          commandId: tx.commandId,
          updateId: tx.updateId,
          userId: tx.userId,
          actAs: tx.actAs,
          submissionId: tx.submissionId,
          recordTime: tx.recordTime,
          synchronizerId: tx.synchronizerId,
          deduplicationPeriod: deduplicationPeriodOf(request.deduplication),
          traceparent: tx.traceparent,
        });
        store.recordChange(changeKey(request), offset, request.submissionId, now);
        return tx;
      });
      for (const update of moved) announce(update);
      announce(record);
      return record;
    },

    /**
     * A reassignment command (ReassignmentCommands): a batch of unassignments from one
     * synchronizer to another, or the assignment that completes one, committed as one update
     * with its completion. Throws the participant's error, committing nothing.
     */
    submitReassignment(request: ReassignmentRequest): ReassignmentRecord {
      const batch = commandBatch(request.commands);
      const planned =
        batch.kind === 'unassign'
          ? planUnassignment(topology, request.submitter, batch)
          : planAssignment(topology, request.submitter, batch);
      const update = transaction(() => recordReassignment(request, planned));
      announce(update);
      return update;
    },

    /**
     * A newly hosted party: a topology update at the next offset (§7.4, inferred). Call inside
     * the allocating transaction, then `announce` the result once it has committed. `hosting`
     * names every hosting participant of an external party; a local party is hosted here alone
     * with SUBMISSION.
     */
    recordPartyAllocation(
      party: string,
      onSynchronizer: string = synchronizerId,
      hosting?: TopologyRecord['hosting'],
    ) {
      const update: TopologyRecord = {
        kind: 'topology',
        offset: store.ledgerEnd() + 1,
        updateId: newUpdateId(),
        recordTime: formatMicros(nowMicros()),
        synchronizerId: onSynchronizer,
        party,
        participantId,
        ...(hosting === undefined ? {} : { hosting }),
      };
      store.appendUpdate(update);
      return update;
    },
    announce,
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/** The deduplication period a completion reports: what the participant actually applied. */
function deduplicationPeriodOf(deduplication: Deduplication): unknown {
  if (deduplication.kind === 'offset') {
    return { DeduplicationOffset: { value: deduplication.offset } };
  }
  const micros =
    deduplication.kind === 'duration' ? deduplication.micros : MAX_DEDUPLICATION_MICROS;
  return {
    DeduplicationDuration: {
      value: {
        seconds: Number(micros / 1_000_000n),
        nanos: Number(micros % 1_000_000n) * 1000,
        unknownFields: { fields: {} },
      },
    },
  };
}

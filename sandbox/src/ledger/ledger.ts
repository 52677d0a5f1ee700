import { SandboxError } from '../errors/sandbox-error';
import type { LedgerStore } from '../store/ledger-store';
import type { PartiesStore } from '../store/parties-store';
import {
  interpret,
  type Command,
  type DemoPackageInfo,
  type InterpretOptions,
  type InterpretedTransaction,
} from './interpreter';
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
import { routeTransaction, type Route } from './routing';
import {
  formatMicros,
  markWitnessedOnly,
  newContractId,
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
  /**
   * With traffic cost on: what ordering the transaction's confirmation request costs, from the
   * interpreted (traced) transaction and the synchronizer it is routed to.
   */
  trafficCost?: (interpreted: InterpretedTransaction, synchronizerId: string) => bigint;
};

/** The commands and parties of a submission, as the interpreter takes them. */
export type InterpretRequest = Pick<
  SubmitRequest,
  'commands' | 'actAs' | 'readAs' | 'disclosed' | 'synchronizerId'
>;

/**
 * An externally signed transaction to commit: its root re-run as commands against the current
 * ledger (as the confirming participant of an external party does), checked against what was
 * prepared and signed, then committed with its created contracts' ids suffixed.
 */
export type PreparedExecution = {
  /** The prepared root as commands; built inside the re-run, whose failures reject the transaction. */
  commands: () => Command[];
  actAs: string[];
  userId: string;
  commandId: string;
  submissionId: string;
  deduplication: Deduplication;
  traceparent: string;
  /** The synchronizer the prepared transaction names (a connected one). */
  synchronizerId: string;
  /** The transaction's input contracts, authenticated against the store by the caller. */
  inputs: ReadonlyMap<string, CreateNode>;
  /** The prepared transaction's ids of the contracts it creates (unsuffixed), in creation order. */
  createdContractIds: readonly string[];
  /** The ledger time the submission asks for (the execute request's min ledger time, or now). */
  requestedLedgerTimeMicros: bigint | null;
  minLedgerEffectiveTimeMicros: bigint | null;
  maxLedgerEffectiveTimeMicros: bigint | null;
  preparationTimeMicros: bigint;
  maxRecordTimeMicros: bigint | null;
  /**
   * Throws unless the re-run transaction is the prepared one; `preparedId` maps each suffixed id
   * back to its prepared form.
   */
  conform: (
    interpreted: InterpretedTransaction,
    preparedId: (contractId: string) => string,
  ) => void;
  /** The prepared transaction's hash, hex: what the committed transaction shows as its external hash. */
  externalTransactionHash: string;
  /** With traffic cost on: what ordering its confirmation request costs. */
  paidTrafficCost?: bigint;
};

/** A contract id as a transaction creates it, before its suffix: `00` and a discriminator. */
const LOCAL_CONTRACT_ID = /^00[0-9a-f]{64}$/;

/** Synchronizer parameters Canton's synchronizers have by default (DynamicSynchronizerParameters). */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS = 60n * 1_000_000n;
export const PREPARATION_TIME_RECORD_TIME_TOLERANCE_MICROS = 24n * 3600n * 1_000_000n;

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
  /**
   * A fleet participant's hosting check: transactions are stored with the nodes it only
   * witnessed marked (TransactionRecord.witnessedOnly). Absent on a lone sandbox.
   */
  hostsStakeholders?: () => (party: string) => boolean;
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
  hostsStakeholders,
  demo,
  transaction,
}: LedgerDeps) {
  /** A transaction as this participant stores it. */
  const asStored = (tx: TransactionRecord) =>
    hostsStakeholders ? markWitnessedOnly(tx, hostsStakeholders()) : tx;
  const topology: ReassignmentTopology = {
    store,
    synchronizerIds,
    participantId,
    hostingSynchronizers,
    vettedOn,
  };
  const listeners = new Set<(update: UpdateRecord) => void>();
  /** The fleet's check that informees' participants vetted what they see (none when alone). */
  let informeeVetting: InformeeVettingCheck | undefined;
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

  const checkDeduplication = (
    request: Pick<SubmitRequest, 'userId' | 'actAs' | 'commandId' | 'deduplication'>,
    now: bigint,
  ) => {
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

  const interpretFor = (request: InterpretRequest, options: InterpretOptions = {}) =>
    interpret(
      request.commands,
      { actAs: request.actAs, readAs: request.readAs, disclosed: request.disclosed },
      {
        contract: (contractId) => store.contract(contractId),
        activeContractIdByKey: (hash) => store.activeContractIdByKey(hash),
      },
      demo(),
      options,
    );

  /**
   * Whether this participant can commit the transaction (submitters, informees), and where:
   * Canton's routing over the connected synchronizers, with the reassignments it needs first.
   */
  const route = (
    request: InterpretRequest,
    interpreted: InterpretedTransaction,
    signedBy: 'participant' | 'parties',
  ): Route => {
    const { actAs } = request;
    // Routing comes after interpretation: submitters must be hosted here (§7.5, inferred), with
    // submission rights when the participant signs for them; an external party signs for itself
    // and needs a participant that confirms for it.
    const canSubmit = (party: string) =>
      parties.get(party)?.isLocal === true &&
      hostingSynchronizers(party).some((hosting) => {
        const permission = parties.permission(party, hosting);
        return signedBy === 'participant'
          ? permission === 'SUBMISSION'
          : permission !== 'OBSERVATION';
      });
    const foreign = actAs.filter((party) => !canSubmit(party));
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
    const chosen = routeTransaction(topology, {
      actAs,
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
    const unvetted = informeeVetting?.(chosen.synchronizerId, packagesByInformee(interpreted));
    if (unvetted && unvetted.length > 0) {
      // UsableSynchronizers.UnknownPackage, reported as the routing's unusable synchronizer.
      throw new SandboxError(
        'NO_SYNCHRONIZER_FOR_SUBMISSION',
        'No valid synchronizer for submission found.',
        {
          context: {
            unusableSynchronizers: `Map(${chosen.synchronizerId} -> Some packages are not known to all informees on synchronizer ${chosen.synchronizerId}: ${unvetted
              .map(
                ({ participantId: unvettedBy, packageId }) =>
                  `Participant PAR::${unvettedBy} has not vetted ${packageId}`,
              )
              .join(', ')})`,
          },
        },
      );
    }
    if (signedBy === 'parties' && chosen.reassignments.length > 0) {
      // An externally signed transaction names its synchronizer, and nobody may reassign its
      // inputs on the parties' behalf (inferred: Canton routes it without automatic reassignment).
      throw new SandboxError(
        'NO_SYNCHRONIZER_FOR_SUBMISSION',
        `No valid synchronizer for submission found: the input contracts are not all assigned to ${chosen.synchronizerId}, and an externally signed transaction is not reassigned automatically`,
      );
    }
    return chosen;
  };

  /**
   * Writes the reassignments the route needs, then the transaction, its completion and its change
   * id, in one SQLite transaction.
   */
  const commit = (
    request: Pick<
      SubmitRequest,
      'userId' | 'actAs' | 'commandId' | 'submissionId' | 'deduplication' | 'traceparent'
    >,
    interpreted: InterpretedTransaction,
    chosen: Route,
    now: bigint,
    at: {
      ledgerTime: bigint;
      recordTime: bigint;
      workflowId: string;
      externalTransactionHash: string | undefined;
      paidTrafficCost: bigint | undefined;
    },
  ): TransactionRecord => {
    const moved: ReassignmentRecord[] = [];
    const record = transaction(() => {
      for (const { submitter, unassignment } of chosen.reassignments) {
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
      // After reassignments the transaction's times follow theirs on the same synchronizer.
      const shift = moved.length > 0 ? nowMicros() - now : 0n;
      const offset = store.ledgerEnd() + 1;
      const tx: TransactionRecord = asStored({
        kind: 'transaction',
        offset,
        updateId: newUpdateId(),
        commandId: request.commandId,
        workflowId: at.workflowId,
        userId: request.userId,
        actAs: request.actAs,
        submissionId: request.submissionId,
        effectiveAt: formatMicros(at.ledgerTime + shift),
        recordTime: formatMicros(at.recordTime + shift),
        synchronizerId: chosen.synchronizerId,
        traceparent: request.traceparent,
        nodes: interpreted.nodes,
        ...(at.externalTransactionHash === undefined
          ? {}
          : { externalTransactionHash: at.externalTransactionHash }),
        ...(at.paidTrafficCost === undefined
          ? {}
          : { paidTrafficCost: Number(at.paidTrafficCost) }),
      });
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
        ...(tx.paidTrafficCost === undefined ? {} : { paidTrafficCost: tx.paidTrafficCost }),
      });
      store.recordChange(changeKey(request), offset, request.submissionId, now);
      return tx;
    });
    for (const update of moved) announce(update);
    announce(record);
    return record;
  };

  return {
    /**
     * Lets routing ask whether the participants hosting a transaction's informees vetted the
     * packages of what they see (a fleet's synchronizer knows every participant's vetting).
     */
    checkInformeeVetting(check: InformeeVettingCheck) {
      informeeVetting = check;
    },
    ledgerEnd: () => store.ledgerEnd(),
    /** Runs `listener` after each committed update; returns the unsubscribe function. */
    subscribe(listener: (update: UpdateRecord) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    submit(request: SubmitRequest): TransactionRecord {
      const now = nowMicros();
      checkDeduplication(request, now);
      // The traffic cost measures the transaction as prepare encodes it, which needs the trace.
      const interpreted = interpretFor(request, request.trafficCost ? { trace: true } : {});
      const chosen = route(request, interpreted, 'participant');
      const ledgerTime =
        request.minLedgerTimeMicros !== null && request.minLedgerTimeMicros > now
          ? request.minLedgerTimeMicros
          : now;
      return commit(request, interpreted, chosen, now, {
        ledgerTime,
        // Record time never precedes ledger time.
        recordTime: ledgerTime > now ? ledgerTime : now,
        workflowId: request.workflowId,
        externalTransactionHash: undefined,
        paidTrafficCost: request.trafficCost?.(interpreted, chosen.synchronizerId),
      });
    },

    /**
     * Interprets commands exactly as `submit` does, with the checks that decide whether they
     * could be committed here, and commits nothing: what `prepare` turns into a prepared
     * transaction. The trace says what a prepared transaction shows beyond the emitted nodes.
     */
    prepare(
      request: InterpretRequest,
      options: InterpretOptions,
    ): { interpreted: InterpretedTransaction; synchronizerId: string } {
      const interpreted = interpretFor(request, { ...options, trace: true });
      const chosen = route(request, interpreted, 'parties');
      return { interpreted, synchronizerId: chosen.synchronizerId };
    },

    /**
     * Commits an externally signed transaction whose signatures the caller verified, in the order
     * the participant checks it: deduplication at submission, then (as the confirming
     * participant) the input contracts' activeness, the time bounds, and model conformance.
     */
    executePrepared(request: PreparedExecution): TransactionRecord {
      const now = nowMicros();
      checkDeduplication(request, now);
      const inactive = [...request.inputs.keys()].filter(
        (contractId) => store.contract(contractId)?.archivedOffset != null,
      );
      if (inactive.length > 0) {
        throw new SandboxError(
          'LOCAL_VERDICT_INACTIVE_CONTRACTS',
          // The contracts are named in the resources only, as LocalRejectErrorImpl does.
          'Rejected transaction is referring to inactive contracts ',
          { resources: inactive.map((contractId) => ['CONTRACT_ID', contractId]) },
        );
      }
      const ledgerTime = ledgerTimeWithin(request, now);
      checkTimes(request, ledgerTime, now);
      const prepared = new Map<string, string>();
      let created = 0;
      let interpreted: InterpretedTransaction;
      try {
        interpreted = interpretFor(
          {
            commands: request.commands(),
            actAs: request.actAs,
            readAs: [],
            disclosed: request.inputs,
            synchronizerId: request.synchronizerId,
          },
          {
            trace: true,
            newContractId: () => {
              const id = request.createdContractIds[created++];
              if (id === undefined) {
                throw new Error('the transaction creates more contracts than prepared');
              }
              if (!LOCAL_CONTRACT_ID.test(id)) {
                throw new Error(`the created contract id ${id} is not a new, unsuffixed one`);
              }
              const suffixed = `${id}${newContractId().slice(id.length)}`;
              prepared.set(suffixed, id);
              return suffixed;
            },
          },
        );
        if (created !== request.createdContractIds.length) {
          throw new Error('the transaction creates fewer contracts than prepared');
        }
        request.conform(interpreted, (contractId) => prepared.get(contractId) ?? contractId);
      } catch (error) {
        throw modelConformance(error);
      }
      const chosen = route(
        { ...request, readAs: [], disclosed: request.inputs, commands: [] },
        interpreted,
        'parties',
      );
      return commit(request, interpreted, chosen, now, {
        ledgerTime,
        recordTime: now,
        // Interactive submissions carry no workflow id.
        workflowId: '',
        externalTransactionHash: request.externalTransactionHash,
        paidTrafficCost: request.paidTrafficCost,
      });
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
    /**
     * An update another participant of the fleet committed, as this participant sees it (its
     * projection): stored at this participant's next offset, with no completion, then announced.
     */
    receive(update: UpdateRecord): UpdateRecord {
      const stored = transaction(() => {
        const received: UpdateRecord = {
          ...(update.kind === 'transaction' ? asStored(update) : update),
          offset: store.ledgerEnd() + 1,
        };
        store.appendUpdate(received);
        return received;
      });
      announce(stored);
      return stored;
    },
    announce,
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/**
 * For each informee, the packages of the nodes it sees: what its hosting participants must have
 * vetted on the synchronizer. Returns who did not, with which package.
 */
export type InformeeVettingCheck = (
  synchronizerId: string,
  packagesByInformee: ReadonlyMap<string, ReadonlySet<string>>,
) => { participantId: string; packageId: string }[];

function packagesByInformee(interpreted: InterpretedTransaction): Map<string, Set<string>> {
  const packages = new Map<string, Set<string>>();
  for (const node of interpreted.nodes) {
    const packageId = node.templateId.slice(0, node.templateId.indexOf(':'));
    for (const party of node.witnesses) {
      let seen = packages.get(party);
      if (!seen) packages.set(party, (seen = new Set()));
      seen.add(packageId);
    }
  }
  return packages;
}

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

/**
 * The ledger time of an externally signed transaction: the one asked for, or now, moved into the
 * prepared bounds (PreparedTransactionDecoder.adjustLedgerTimeToBounds).
 */
function ledgerTimeWithin(request: PreparedExecution, now: bigint): bigint {
  const requested =
    request.requestedLedgerTimeMicros !== null && request.requestedLedgerTimeMicros > now
      ? request.requestedLedgerTimeMicros
      : now;
  const { minLedgerEffectiveTimeMicros: min, maxLedgerEffectiveTimeMicros: max } = request;
  if (min !== null && requested < min) return min;
  if (max !== null && requested > max) return max;
  return requested;
}

/** TimeValidator.checkTimestamps, with the record time the sandbox assigns (now). */
function checkTimes(request: PreparedExecution, ledgerTime: bigint, recordTime: bigint) {
  const outside = (time: bigint, tolerance: bigint) =>
    time < recordTime - tolerance || time > recordTime + tolerance;
  if (outside(ledgerTime, LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS)) {
    throw new SandboxError(
      'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
      `Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=${formatMicros(ledgerTime)}, recordTime=${formatMicros(recordTime)}, maxDelta=PT1M`,
    );
  }
  if (outside(request.preparationTimeMicros, PREPARATION_TIME_RECORD_TIME_TOLERANCE_MICROS)) {
    throw new SandboxError(
      'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      `Rejected transaction as delta of the preparation time and the record time exceed the time tolerance preparationTime=${formatMicros(request.preparationTimeMicros)}, recordTime=${formatMicros(recordTime)}, maxDelta=PT24H`,
    );
  }
  if (request.maxRecordTimeMicros !== null && recordTime > request.maxRecordTimeMicros) {
    throw new SandboxError(
      'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED',
      `Rejected transaction as record time exceeds the maximum record time: recordTime=${formatMicros(recordTime)}, maxRecordTime=${formatMicros(request.maxRecordTimeMicros)}`,
    );
  }
}

/**
 * A re-run that fails or differs from what was signed: the confirming participant rejects the
 * transaction as malformed (a security alert, so its details never reach the submitter).
 */
function modelConformance(error: unknown): SandboxError {
  const reason = error instanceof SandboxError ? error.reason : (error as Error).message;
  return new SandboxError(
    'LOCAL_VERDICT_FAILED_MODEL_CONFORMANCE_CHECK',
    `Rejected transaction due to a failed model conformance check: ${reason}`,
  );
}

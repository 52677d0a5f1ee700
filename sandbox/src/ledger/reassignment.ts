import { invalidArgument } from '../errors/sandbox-error';
import type { ContractRecord, LedgerStore } from '../store/ledger-store';
import { HASH_PURPOSE, cantonHash } from './external/keys';
import { formatMicros, type CreateNode, type ReassignedContract } from './transaction';

/**
 * Reassignments as a participant connected to several synchronizers validates them
 * (CantonSyncService.submitReassignment, Unassignment/AssignmentProcessingSteps): the checks, in
 * Canton's order and words, and the records they produce. Nothing here writes: `ledger.ts`
 * commits what these functions plan.
 */

export type ReassignmentCommand =
  | { kind: 'unassign'; contractId: string; source: string; target: string }
  | { kind: 'assign'; reassignmentId: string; source: string; target: string };

export type ReassignmentRequest = {
  submitter: string;
  userId: string;
  commandId: string;
  workflowId: string;
  submissionId: string;
  traceparent: string;
  commands: ReassignmentCommand[];
};

/** What validation reads: the ledger and the participant's topology. */
export type ReassignmentTopology = {
  store: LedgerStore;
  synchronizerIds: readonly string[];
  participantId: string;
  /** The connected synchronizers a party is hosted on by this participant. */
  hostingSynchronizers: (party: string) => readonly string[];
  /** Whether this participant has vetted the package on the synchronizer, now. */
  vettedOn: (synchronizerId: string, packageId: string) => boolean;
};

/** One half of a reassignment, checked and ready to be recorded. */
export type PlannedReassignment = {
  event: 'unassigned' | 'assigned';
  source: string;
  target: string;
  /** The update's synchronizer: the source for an unassignment, the target for an assignment. */
  synchronizerId: string;
  /** An assignment's; an unassignment's is derived from its time when it is recorded. */
  reassignmentId?: string;
  contracts: ReassignedContract[];
};

/** The default dynamic synchronizer parameter `assignmentExclusivityTimeout` (60 s). */
export const ASSIGNMENT_EXCLUSIVITY_MICROS = 60_000_000n;

// Canton's errors print Scala collections and LF values as Scala does.
const contractIdText = (contractId: string) => `ContractId(${contractId})`;
const scalaCollection = (kind: 'List' | 'Set', items: readonly string[]) =>
  `${kind}(${items.join(', ')})`;
export const participantText = (participantId: string) => `PAR::${participantId}`;

/** A reassignment processor error that is no RpcError: the sync service words it as INVALID_ARGUMENT. */
const rejected = (message: string) => invalidArgument(message);
/** A ReassignmentValidationError, turned into a submission error first. */
const submissionFailed = (message: string) => rejected(`Submission failed because: ${message}`);

const stakeholdersOf = (node: CreateNode) => [...new Set([...node.signatories, ...node.observers])];

const packageIdOf = (templateId: string) => templateId.slice(0, templateId.indexOf(':'));

/**
 * ReassignmentCommandsBatch.create: either unassignments that share source and target, or a
 * single assignment.
 */
export function commandBatch(
  commands: readonly ReassignmentCommand[],
):
  | { kind: 'unassign'; source: string; target: string; contractIds: string[] }
  | { kind: 'assign'; source: string; target: string; reassignmentId: string } {
  const invalid = (reason: string) =>
    invalidArgument(`The batch of reassignment commands was invalid: ${reason}`);
  const [first] = commands;
  if (!first) throw invalid('no commands');
  if (first.kind === 'assign') {
    if (commands.length > 1) throw invalid('mixed assign with other commands');
    return first;
  }
  const contractIds: string[] = [];
  for (const command of commands) {
    if (command.kind !== 'unassign') throw invalid('mixed assign with other commands');
    if (command.source !== first.source || command.target !== first.target) {
      throw invalid('differing synchronizers');
    }
    // Canton keys the batch by contract id; the sandbox refuses a repeated one (inferred).
    if (contractIds.includes(command.contractId)) {
      throw invalid(`contract ${command.contractId} is given twice`);
    }
    contractIds.push(command.contractId);
  }
  return { kind: 'unassign', source: first.source, target: first.target, contractIds };
}

/** CantonSyncService.lookupPsid: the synchronizer must be one this participant is connected to. */
export function requireConnected(topology: ReassignmentTopology, synchronizerId: string) {
  if (!topology.synchronizerIds.includes(synchronizerId)) {
    throw invalidArgument(
      `Unable to resolve ${synchronizerId} to a connected physical synchronizer id`,
    );
  }
}

/** ReassignmentValidation.checkSubmitter: a stakeholder this participant hosts on `synchronizerId`. */
function checkSubmitter(
  topology: ReassignmentTopology,
  reference: string,
  submitter: string,
  stakeholders: readonly string[],
  synchronizerId: string,
) {
  if (!stakeholders.includes(submitter)) {
    throw submissionFailed(`For ${reference}: submitter \`${submitter}\` is not a stakeholder. `);
  }
  if (!topology.hostingSynchronizers(submitter).includes(synchronizerId)) {
    throw submissionFailed(
      `For ${reference}: ${submitter} is not hosted on ${participantText(topology.participantId)}`,
    );
  }
}

/**
 * The stakeholders not hosted on `synchronizerId`: the sandbox is the only participant, so a
 * party it does not host there has no participant there.
 */
const notHostedOn = (topology: ReassignmentTopology, parties: readonly string[], id: string) =>
  parties.filter((party) => !topology.hostingSynchronizers(party).includes(id));

/**
 * An unassignment of `contractIds` from `source` to `target` by `submitter`, checked as
 * UnassignmentProcessingSteps.createSubmission and UnassignmentRequest.validated do. Throws the
 * participant's error; returns the contracts with their incremented counters.
 */
export function planUnassignment(
  topology: ReassignmentTopology,
  submitter: string,
  batch: { source: string; target: string; contractIds: readonly string[] },
): PlannedReassignment {
  const { source, target, contractIds } = batch;
  requireConnected(topology, source);
  requireConnected(topology, target);
  if (source === target) {
    throw rejected(
      `Cannot unassign contracts \`${scalaCollection('List', contractIds.map(contractIdText))}\`: source and target synchronizers are the same`,
    );
  }
  const contracts: { record: ContractRecord; reassignmentCounter: number }[] = [];
  for (const contractId of contractIds) {
    const record = topology.store.contract(contractId);
    const status = record && topology.store.contractStatusOn(contractId, source);
    if (!record || !status) {
      throw rejected(
        `Cannot unassign contract \`${contractIdText(contractId)}\`: unknown contract`,
      );
    }
    if (status.kind !== 'active') {
      const printed =
        status.kind === 'archived' ? 'Archived' : `ReassignedAway(Target(${status.target}))`;
      throw rejected(
        `Cannot unassign contract \`${contractIdText(contractId)}\` because it's not active. Current status ${printed}`,
      );
    }
    contracts.push({ record, reassignmentCounter: status.reassignmentCounter + 1 });
  }
  const [head] = contracts;
  if (!head) throw invalidArgument('The batch of reassignment commands was invalid: no commands');
  const stakeholders = stakeholdersOf(head.record.node);
  const sameStakeholders = (node: CreateNode) => {
    const other = stakeholdersOf(node);
    return other.length === stakeholders.length && other.every((p) => stakeholders.includes(p));
  };
  if (!contracts.every(({ record }) => sameStakeholders(record.node))) {
    // ContractsReassignmentBatch.DifferingStakeholders, printed as Canton's case class (inferred).
    throw rejected(
      `DifferingStakeholders(${scalaCollection(
        'List',
        contracts.map(({ record }) => `Stakeholders(${stakeholdersOf(record.node).join(', ')})`),
      )})`,
    );
  }
  const reference = `unassignment of ${scalaCollection('Set', contractIds.map(contractIdText))}`;
  checkSubmitter(topology, reference, submitter, stakeholders, source);
  const inactiveOnSource = notHostedOn(topology, stakeholders, source);
  if (inactiveOnSource.length > 0) {
    throw submissionFailed(
      `The following stakeholders are not active: ${scalaCollection('Set', inactiveOnSource)}`,
    );
  }
  const inactiveOnTarget = notHostedOn(topology, stakeholders, target);
  if (inactiveOnTarget.length > 0) {
    throw submissionFailed(
      `The following stakeholders are not active on the target synchronizer: ${scalaCollection('Set', inactiveOnTarget)}`,
    );
  }
  const packageIds = [
    ...new Set(contracts.map(({ record }) => packageIdOf(record.node.templateId))),
  ];
  for (const synchronizerId of [source, target]) {
    const unvetted = packageIds.filter((id) => !topology.vettedOn(synchronizerId, id));
    if (unvetted.length > 0) {
      throw submissionFailed(
        `Cannot unassign contracts \`${scalaCollection('Set', contractIds.map(contractIdText))}\` on synchronizer \`${synchronizerId}\`: ${unvetted
          .map(
            (id) => `Participant ${participantText(topology.participantId)} has not vetted ${id}`,
          )
          .join(', ')}`,
      );
    }
  }
  return {
    event: 'unassigned',
    source,
    target,
    synchronizerId: source,
    contracts: contracts.map(({ record, reassignmentCounter }) => ({
      node: record.node,
      createdAt: record.createdAt,
      reassignmentCounter,
    })),
  };
}

/**
 * The assignment completing the unassignment `reassignmentId` on `target`, checked as
 * AssignmentProcessingSteps.createSubmission does. The command's source is not consulted: the
 * sync service only resolves the target, whose reassignment store holds the unassignment.
 */
export function planAssignment(
  topology: ReassignmentTopology,
  submitter: string,
  command: { reassignmentId: string; target: string },
): PlannedReassignment {
  const { target } = command;
  const reassignmentId = command.reassignmentId.toLowerCase();
  requireConnected(topology, target);
  const known = topology.store.reassignment(reassignmentId);
  const noData = (cause: string) =>
    rejected(
      `Cannot find reassignment data for reassignment \`ReassignmentId(${reassignmentId})\`: ${cause}`,
    );
  if (known?.target !== target) throw noData('unknown reassignment id');
  if (known.assignedOffset !== null) throw noData('reassignment already completed');
  const unassigned = topology.store.updateByOffset(known.unassignedOffset);
  if (unassigned?.kind !== 'reassignment') {
    throw new Error(`reassignment ${reassignmentId} has no unassignment record`);
  }
  const [head] = unassigned.contracts;
  const stakeholders = head ? stakeholdersOf(head.node) : [];
  checkSubmitter(
    topology,
    `assignment ReassignmentId(${reassignmentId})`,
    submitter,
    stakeholders,
    target,
  );
  return {
    event: 'assigned',
    source: unassigned.source,
    target,
    synchronizerId: target,
    reassignmentId,
    contracts: unassigned.contracts,
  };
}

const int64be = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
};

/** HashBuilder.addString: the UTF-8 bytes, prefixed with their length as an int32. */
const lengthPrefixed = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/**
 * ReassignmentId.V0 as hex: the version byte 0x00, then the hash (purpose ReassignmentId) of
 * source, target, the unassignment's time and each contract with its counter, by contract id.
 */
export function reassignmentIdOf(
  source: string,
  target: string,
  unassignedAtMicros: bigint,
  contracts: readonly { contractId: string; reassignmentCounter: number }[],
): string {
  const parts = [lengthPrefixed(source), lengthPrefixed(target), int64be(unassignedAtMicros)];
  const sorted = [...contracts].sort((a, b) =>
    a.contractId < b.contractId ? -1 : a.contractId > b.contractId ? 1 : 0,
  );
  for (const { contractId, reassignmentCounter } of sorted) {
    parts.push(lengthPrefixed(contractId), int64be(BigInt(reassignmentCounter)));
  }
  const hash = cantonHash(HASH_PURPOSE.reassignmentId, Buffer.concat(parts));
  return `00${hash.toString('hex')}`;
}

/** `00` (the version) followed by hex bytes: what ReassignmentId.fromProtoPrimitive parses. */
export function isWellFormedReassignmentId(value: string): boolean {
  return /^00(?:[0-9a-fA-F]{2})*$/.test(value);
}

/** The assignment exclusivity an unassignment records: its time plus the default timeout. */
export const assignmentExclusivityAfter = (unassignedAtMicros: bigint) =>
  formatMicros(unassignedAtMicros + ASSIGNMENT_EXCLUSIVITY_MICROS);

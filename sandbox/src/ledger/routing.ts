import { SandboxError } from '../errors/sandbox-error';
import type { ContractLocation } from '../store/ledger-store';
import {
  planUnassignment,
  type PlannedReassignment,
  type ReassignmentTopology,
} from './reassignment';

/**
 * Transaction routing as a participant connected to several synchronizers does it
 * (TransactionRoutingProcessor, SynchronizerSelector, SynchronizerRankComputation): the
 * synchronizers where every submitter and informee is hosted are admissible; a transaction whose
 * input contracts all sit on one of them runs there; otherwise the contracts are first
 * reassigned to the best one (fewest reassignments, then the smallest id: all synchronizers have
 * the default priority), by a submitting or reading stakeholder.
 */

export type RoutingRequest = {
  actAs: readonly string[];
  readAs: readonly string[];
  informees: readonly string[];
  /** The contracts the transaction used from before it, with where each is now. */
  inputs: readonly {
    contractId: string;
    stakeholders: readonly string[];
    location: ContractLocation;
  }[];
  /** The request's `synchronizerId`, when it names one (already known to be connected). */
  prescribed: string | null;
};

/** Contracts one stakeholder moves to the chosen synchronizer before the transaction. */
export type AutomaticReassignment = { submitter: string; unassignment: PlannedReassignment };

export type Route = { synchronizerId: string; reassignments: AutomaticReassignment[] };

type LocatedInput = { contractId: string; stakeholders: readonly string[]; synchronizerId: string };

const routingError = (
  code: ConstructorParameters<typeof SandboxError>[0],
  cause: string,
  context: Record<string, string> = {},
  resources: [string, string][] = [],
) => new SandboxError(code, cause, { context, resources });

const scalaSet = (items: Iterable<string>) => `Set(${[...items].join(', ')})`;
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function routeTransaction(
  participant: ReassignmentTopology,
  request: RoutingRequest,
): Route {
  // Each party's hosting is read once per routing: every check below asks again.
  const hosting = new Map<string, readonly string[]>();
  const topology: ReassignmentTopology = {
    ...participant,
    hostingSynchronizers: (party) => {
      let synchronizers = hosting.get(party);
      if (!synchronizers) {
        synchronizers = participant.hostingSynchronizers(party);
        hosting.set(party, synchronizers);
      }
      return synchronizers;
    },
  };
  const hostsAll = (parties: readonly string[], synchronizerId: string) =>
    parties.every((party) => topology.hostingSynchronizers(party).includes(synchronizerId));

  // ContractsSynchronizerData: a contract in flight has no synchronizer. Canton skips a disclosed
  // one here (it may be unknown to the participant) and the synchronizer then rejects the
  // transaction; the sandbox knows every contract, so it refuses it here too.
  const inFlight = request.inputs
    .filter((input) => input.location.status === 'unassigned')
    .map((input) => input.contractId);
  if (inFlight.length > 0) {
    throw routingError(
      'UNKNOWN_CONTRACT_SYNCHRONIZERS',
      `The synchronizers for the contracts (${inFlight.join(', ')}) are currently unknown due to ongoing contract reassignments or disconnected synchronizers.`,
      { notFound: `List(${inFlight.join(', ')})`, archived: 'Map()' },
      [['CONTRACT_IDS', `[${inFlight.join(', ')}]`]],
    );
  }
  const located: LocatedInput[] = [];
  for (const input of request.inputs) {
    if (input.location.status !== 'assigned') continue;
    located.push({
      contractId: input.contractId,
      stakeholders: input.stakeholders,
      synchronizerId: input.location.synchronizerId,
    });
  }

  // AdmissibleSynchronizersComputation.forParties.
  const connected = topology.synchronizerIds;
  const withSubmitters = connected.filter((id) => hostsAll(request.actAs, id));
  if (withSubmitters.length === 0) {
    throw routingError(
      'SUBMITTERS_NOT_ACTIVE',
      'There is no common synchronizer where all submitters are active',
      { synchronizers: scalaSet(connected), informees: scalaSet(request.actAs) },
    );
  }
  const withInformees = connected.filter((id) => hostsAll(request.informees, id));
  if (withInformees.length === 0) {
    throw routingError(
      'INFORMEES_NOT_ACTIVE',
      'There is no common synchronizer where all informees are active',
      { synchronizers: scalaSet(connected), informees: scalaSet(request.informees) },
    );
  }
  const admissible = withSubmitters.filter((id) => withInformees.includes(id));
  if (admissible.length === 0) {
    throw routingError(
      'NO_COMMON_SYNCHRONIZER',
      'There is no common synchronizer to which all submitters can submit and all informees are connected.',
      { submitters: scalaSet(request.actAs), informees: scalaSet(request.informees) },
    );
  }

  const requirePrescribable = (synchronizerId: string) => {
    if (!admissible.includes(synchronizerId)) {
      throw routingError(
        'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
        `Not all informees are on the specified synchronizer: ${synchronizerId}, but on ${scalaSet(admissible)}`,
      );
    }
  };

  const inputSynchronizers = [...new Set(located.map((input) => input.synchronizerId))];
  const [inputSynchronizer] = inputSynchronizers;
  const { prescribed } = request;
  const multiSynchronizer =
    inputSynchronizers.length > 1 ||
    (prescribed !== null && inputSynchronizers.some((id) => id !== prescribed)) ||
    (inputSynchronizer !== undefined && !hostsAll(request.informees, inputSynchronizer));

  if (!multiSynchronizer) {
    const chosen = prescribed ?? inputSynchronizer;
    if (chosen !== undefined) {
      requirePrescribable(chosen);
      return { synchronizerId: chosen, reassignments: [] };
    }
    const [best = ''] = [...admissible].sort(byId);
    return { synchronizerId: best, reassignments: [] };
  }

  // checkValidityOfMultiSynchronizer: someone reading must be a stakeholder of every input.
  const readers = [...new Set([...request.actAs, ...request.readAs])];
  const unreassignable = located.filter(
    (input) => !input.stakeholders.some((party) => readers.includes(party)),
  );
  if (unreassignable.length > 0) {
    throw routingError(
      'SUBMITTER_ALWAYS_STAKEHOLDER',
      'The given contracts cannot be reassigned as no submitter is a stakeholder.',
      { cids: `List(${unreassignable.map((input) => input.contractId).join(', ')})` },
    );
  }

  const rankFor = (target: string) => rank(topology, located, readers, target);
  let target: string;
  let moves: Move[];
  if (prescribed !== null) {
    requirePrescribable(prescribed);
    const ranked = rankFor(prescribed);
    if ('failure' in ranked) throw ranked.failure;
    target = prescribed;
    moves = ranked.moves;
  } else {
    const failures: string[] = [];
    let best: { target: string; moves: Move[] } | undefined;
    for (const candidate of [...admissible].sort(byId)) {
      const ranked = rankFor(candidate);
      if ('failure' in ranked) {
        failures.push(`${candidate}: ${ranked.failure.reason}`);
      } else if (!best || ranked.moves.length < best.moves.length) {
        best = { target: candidate, moves: ranked.moves };
      }
    }
    if (!best) {
      throw routingError(
        'NO_SYNCHRONIZER_FOR_SUBMISSION',
        `No valid synchronizer found for synchronizer ranking. Discarded synchronizers: ${failures.join(', ')}`,
      );
    }
    ({ target, moves } = best);
  }
  return { synchronizerId: target, reassignments: batches(topology, moves, target) };
}

/** One contract to move: from where, by whom. */
type Move = { contractId: string; source: string; submitter: string; stakeholders: string };

/**
 * SynchronizerRankComputation.compute: for each contract elsewhere, the first reader that is a
 * stakeholder hosted on its synchronizer, with every stakeholder hosted on both.
 */
function rank(
  topology: ReassignmentTopology,
  inputs: readonly LocatedInput[],
  readers: readonly string[],
  target: string,
): { moves: Move[] } | { failure: SandboxError } {
  const moves: Move[] = [];
  for (const input of inputs) {
    const source = input.synchronizerId;
    if (source === target || moves.some((move) => move.contractId === input.contractId)) continue;
    const problems: string[] = [];
    let submitter: string | undefined;
    for (const reader of readers.filter((party) => input.stakeholders.includes(party))) {
      const problem = reassignProblem(topology, input, reader, source, target);
      if (problem === undefined) {
        submitter = reader;
        break;
      }
      problems.push(`Read ${reader} cannot reassign: ${problem}`);
    }
    if (submitter === undefined) {
      return {
        failure: routingError(
          'AUTOMATIC_REASSIGNMENT_FOR_TRANSACTION_FAILED',
          'Automatically reassigning contracts to a common synchronizer failed.',
          {
            reason: `Cannot reassign contract ${input.contractId} from ${source} to ${target}: ${problems.join(',')}`,
          },
        ),
      };
    }
    moves.push({
      contractId: input.contractId,
      source,
      submitter,
      stakeholders: [...input.stakeholders].sort().join(','),
    });
  }
  return { moves };
}

/** Why `reader` cannot reassign the contract (checkSubmitter, then the reassigning participants). */
function reassignProblem(
  topology: ReassignmentTopology,
  input: LocatedInput,
  reader: string,
  source: string,
  target: string,
): string | undefined {
  if (!topology.hostingSynchronizers(reader).includes(source)) {
    return `For unassignment of Set(ContractId(${input.contractId})): ${reader} is not hosted on PAR::${topology.participantId}`;
  }
  for (const [kind, synchronizerId] of [
    ['source', source],
    ['target', target],
  ] as const) {
    const missing = input.stakeholders.filter(
      (party) => !topology.hostingSynchronizers(party).includes(synchronizerId),
    );
    if (missing.length > 0) {
      return `The following stakeholders are not active on the ${kind} synchronizer: ${scalaSet(missing)}`;
    }
  }
  return undefined;
}

/**
 * ContractsReassigner.reassign: one unassignment (and assignment) per submitter, source and
 * stakeholders, each checked as a submitted one would be.
 */
function batches(
  topology: ReassignmentTopology,
  moves: readonly Move[],
  target: string,
): AutomaticReassignment[] {
  const groups = new Map<string, { submitter: string; source: string; contractIds: string[] }>();
  for (const move of moves) {
    const key = JSON.stringify([move.submitter, move.source, move.stakeholders]);
    const group = groups.get(key);
    if (group) group.contractIds.push(move.contractId);
    else {
      groups.set(key, {
        submitter: move.submitter,
        source: move.source,
        contractIds: [move.contractId],
      });
    }
  }
  return [...groups.values()].map(({ submitter, source, contractIds }) => {
    try {
      return {
        submitter,
        unassignment: planUnassignment(topology, submitter, { source, target, contractIds }),
      };
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      throw routingError(
        'AUTOMATIC_REASSIGNMENT_FOR_TRANSACTION_FAILED',
        'Automatically reassigning contracts to a common synchronizer failed.',
        { reason: error.reason },
      );
    }
  });
}

import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { api, unwrap } from './client';
import { eventQueries } from './events';
import { openLedgerStream } from './ledger-stream';
import type { Schemas } from './schema';
import { getLedgerEnd, readScopeKey, updateQueries, type ReadScope } from './updates';
import { isRecord } from '@/lib/values/is-record';

/**
 * Moving a contract between synchronizers (reassignment): an unassignment on the source, then an
 * assignment on the target with the id the unassigned event names (external-signing.md
 * §Reassignment). The participant never assigns by itself, so a contract stays in flight between
 * the two until someone does; {@link locateContract} tells where a contract is now.
 */

export const REASSIGNMENT_ENDPOINT = '/v2/commands/submit-and-wait-for-reassignment';

/** Who moves the contract, and as which user (required when the session has none). */
export type ReassignmentSubmission = {
  submitter: string;
  /** Omitted: the token's user. */
  userId?: string;
};

export type UnassignRequest = ReassignmentSubmission & {
  contractId: string;
  source: string;
  target: string;
};

export type AssignRequest = ReassignmentSubmission & {
  reassignmentId: string;
  source: string;
  target: string;
};

/** One committed half of a move, as the submitter sees it. */
export type ReassignmentOutcome = {
  updateId: string;
  offset: number;
  /** The unassignment's id: what the assignment completes. */
  reassignmentId: string;
  /** The synchronizer the update was committed on: the source, then the target. */
  synchronizerId: string;
  reassignmentCounter: number;
};

function commandsOf(
  { submitter, userId }: ReassignmentSubmission,
  command: Schemas['ReassignmentCommand'],
): Schemas['ReassignmentCommands'] {
  return {
    commandId: `console-reassign-${crypto.randomUUID()}`,
    submitter,
    ...(userId ? { userId } : {}),
    commands: [command],
  };
}

/** The submitter's view of the events: the one of the contract moved, with its reassignment id. */
function submitterFormat(submitter: string): Schemas['EventFormat'] {
  return {
    filtersByParty: {
      [submitter]: {
        cumulative: [
          { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
        ],
      },
    },
    verbose: false,
  };
}

/**
 * The request an unassignment sends, exactly (also what "Copy as curl" copies). A fresh command
 * id each time: a retried move is a new change.
 */
export function unassignCall(request: UnassignRequest): LedgerApiRequest & {
  body: Schemas['SubmitAndWaitForReassignmentRequest'];
} {
  const { contractId, source, target } = request;
  return {
    method: 'POST',
    path: REASSIGNMENT_ENDPOINT,
    body: {
      reassignmentCommands: commandsOf(request, {
        command: { UnassignCommand: { value: { contractId, source, target } } },
      }),
      eventFormat: submitterFormat(request.submitter),
    },
  };
}

/** The request an assignment sends, exactly. */
export function assignCall(request: AssignRequest): LedgerApiRequest & {
  body: Schemas['SubmitAndWaitForReassignmentRequest'];
} {
  const { reassignmentId, source, target } = request;
  return {
    method: 'POST',
    path: REASSIGNMENT_ENDPOINT,
    body: {
      reassignmentCommands: commandsOf(request, {
        command: { AssignCommand: { value: { reassignmentId, source, target } } },
      }),
      eventFormat: submitterFormat(request.submitter),
    },
  };
}

function outcomeOf(reassignment: Schemas['JsReassignment']): ReassignmentOutcome {
  const [event] = reassignment.events;
  const detail =
    event === undefined
      ? undefined
      : 'JsAssignmentEvent' in event
        ? event.JsAssignmentEvent
        : event.JsUnassignedEvent.value;
  if (!detail) throw new Error('The participant answered with a reassignment without events');
  return {
    updateId: reassignment.updateId,
    offset: reassignment.offset,
    reassignmentId: detail.reassignmentId,
    synchronizerId: reassignment.synchronizerId,
    reassignmentCounter: detail.reassignmentCounter,
  };
}

// ── requests ───────────────────────────────────────────────────────────────────

/** Step 1 of a move: the contract leaves `source`; it is in flight until assigned. */
export async function unassignContract(request: UnassignRequest): Promise<ReassignmentOutcome> {
  const { body } = unassignCall(request);
  const { reassignment } = unwrap(await api.POST(REASSIGNMENT_ENDPOINT, { body }));
  return outcomeOf(reassignment);
}

/** Step 2: the contract becomes active on `target`. */
export async function assignContract(request: AssignRequest): Promise<ReassignmentOutcome> {
  const { body } = assignCall(request);
  const { reassignment } = unwrap(await api.POST(REASSIGNMENT_ENDPOINT, { body }));
  return outcomeOf(reassignment);
}

/** Where a contract is at the ledger end, as its stakeholders' active contract set says. */
export type ContractLocation =
  | { kind: 'assigned'; synchronizerId: string; reassignmentCounter: number }
  | {
      /** Unassigned from `source`, not yet assigned to `target`. */
      kind: 'in-flight';
      reassignmentId: string;
      source: string;
      target: string;
      /** The party that unassigned it, when visible. */
      submitter: string | undefined;
      unassignedOffset: number;
      reassignmentCounter: number;
    }
  /** Archived, or not visible to the parties read. */
  | { kind: 'not-active' };

/** The ACS filter that finds the contract: its template, for the stakeholders the scope reads. */
function locationRequest(
  templateId: string,
  stakeholders: readonly string[],
  scope: ReadScope,
  activeAtOffset: number,
) {
  const filters: Schemas['Filters'] = {
    cumulative: [
      {
        identifierFilter: {
          TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } },
        },
      },
    ],
  };
  const parties =
    scope.kind === 'any-party'
      ? undefined
      : stakeholders.filter((party) => scope.parties.includes(party));
  const eventFormat: Schemas['EventFormat'] =
    parties === undefined
      ? { filtersForAnyParty: filters, verbose: false }
      : {
          filtersByParty: Object.fromEntries(parties.map((party) => [party, filters])),
          verbose: false,
        };
  return { parties, body: { activeAtOffset, eventFormat } };
}

/** The location an ACS element gives `contractId`, or undefined when it is another contract. */
export function locationOf(element: unknown, contractId: string): ContractLocation | undefined {
  if (!isRecord(element) || !isRecord(element.contractEntry)) return undefined;
  const entry = element.contractEntry;
  const active = entry.JsActiveContract as Schemas['JsActiveContract'] | undefined;
  if (isRecord(active) && active.createdEvent.contractId === contractId) {
    return {
      kind: 'assigned',
      synchronizerId: active.synchronizerId,
      reassignmentCounter: active.reassignmentCounter,
    };
  }
  const unassigned = entry.JsIncompleteUnassigned as Schemas['JsIncompleteUnassigned'] | undefined;
  if (isRecord(unassigned) && unassigned.createdEvent.contractId === contractId) {
    const event = unassigned.unassignedEvent;
    return {
      kind: 'in-flight',
      reassignmentId: event.reassignmentId,
      source: event.source,
      target: event.target,
      submitter: event.submitter === '' ? undefined : event.submitter,
      unassignedOffset: event.offset,
      reassignmentCounter: event.reassignmentCounter,
    };
  }
  return undefined;
}

/**
 * Where `contractId` is now: the stakeholders' active contracts of its template are streamed
 * (`/v2/state/active-contracts`; no endpoint looks one contract's location up) until it is found,
 * so the cost is bounded by that template's contracts, and the stream closes at the first match.
 */
export async function locateContract(
  contract: { contractId: string; templateId: string; stakeholders: readonly string[] },
  scope: ReadScope,
  signal?: AbortSignal,
): Promise<ContractLocation> {
  const activeAt = await getLedgerEnd(signal);
  const { parties, body } = locationRequest(
    contract.templateId,
    contract.stakeholders,
    scope,
    activeAt,
  );
  if (parties?.length === 0) return { kind: 'not-active' };
  return new Promise<ContractLocation>((resolve, reject) => {
    let isSettled = false;
    const settle = (outcome: () => void) => {
      if (isSettled) return;
      isSettled = true;
      stream.close();
      outcome();
    };
    const stream = openLedgerStream({
      path: '/v2/state/active-contracts',
      request: () => body,
      batchMs: 0,
      onElements: (elements) => {
        for (const element of elements) {
          const location = locationOf(element, contract.contractId);
          if (location) {
            settle(() => {
              resolve(location);
            });
            return;
          }
        }
      },
      onStatus: (status) => {
        if (status.kind === 'ended') {
          settle(() => {
            resolve({ kind: 'not-active' });
          });
        } else if (status.kind === 'failed') {
          settle(() => {
            reject(status.error);
          });
        }
      },
    });
    signal?.addEventListener('abort', () => {
      settle(() => {
        reject(signal.reason instanceof Error ? signal.reason : new Error('Aborted'));
      });
    });
  });
}

// ── cache ──────────────────────────────────────────────────────────────────────

/** What a move changes: the contract's location and events, the ACS (its ledger end), updates. */
const MOVED = [['reassignments'], eventQueries.all(), updateQueries.all()] as const;

export const reassignmentQueries = {
  all: () => ['reassignments'] as const,
  location: (
    contract: { contractId: string; templateId: string; stakeholders: readonly string[] },
    scope: ReadScope,
  ) =>
    // The template and stakeholders are the contract's own: its id keys them.
    // eslint-disable-next-line @tanstack/query/exhaustive-deps
    queryOptions({
      queryKey: [
        ...reassignmentQueries.all(),
        'location',
        contract.contractId,
        ...readScopeKey(scope),
      ],
      queryFn: ({ signal }) => locateContract(contract, scope, signal),
    }),
};

export const reassignmentMutations = {
  // Each half invalidates: a move that stops after the unassignment leaves the contract in flight,
  // and the page must say so.
  unassign: () =>
    mutationOptions({
      mutationKey: ['reassignments', 'unassign'],
      mutationFn: unassignContract,
      meta: { invalidates: MOVED },
    }),
  assign: () =>
    mutationOptions({
      mutationKey: ['reassignments', 'assign'],
      mutationFn: assignContract,
      meta: { invalidates: MOVED },
    }),
};

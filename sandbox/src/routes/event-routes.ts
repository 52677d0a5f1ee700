import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { SandboxError, invalidField, missingField } from '../errors/sandbox-error';
import { message, readJsonBody, str } from '../http/decode';
import type { SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { visibility } from '../ledger/event-filter';
import { archivedEvent, createdEvent } from '../ledger/projection';
import { isWellFormedContractId } from '../ledger/transaction';
import { requireReadForEventFormat } from '../ledger/update-stream';
import type { Schemas } from '../wire-types';
import { toEventFilter } from '../ledger/event-format';
import { eventFormatSchema } from '../http/stream-requests';

/** `/v2/events/**`: the create and archive events of one contract (ledger-api-behaviour.md §9). */

const eventsByContractIdRequest = z.object({
  contractId: str(),
  eventFormat: message(eventFormatSchema),
});

/** FieldValidator.requireContractId: the event and contract services check it alike. */
export function requireContractId(contractId: string) {
  if (contractId === '') throw missingField('contract_id');
  if (!isWellFormedContractId(contractId)) {
    throw invalidField('contract_id', `cannot parse ContractId "${contractId}"`);
  }
}

export function eventRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>().post('/events-by-contract-id', async (c) => {
    const { contractId, eventFormat } = await readJsonBody(c, eventsByContractIdRequest);
    const claims = requireAuthenticated(c.get('caller'));
    if (eventFormat) requireReadForEventFormat(claims, eventFormat);
    requireContractId(contractId);
    if (!eventFormat) throw missingField('event_format');
    const filter = toEventFilter(state, eventFormat);
    const notFound = () =>
      // The CONTRACT_ID resource mirrors UPDATE_NOT_FOUND's UPDATE_ID (inferred).
      new SandboxError('CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.', {
        resources: [['CONTRACT_ID', contractId]],
      });

    const contract = state.history.contract(contractId);
    // The events are those of the ACS-delta view: a transient contract has none (inferred).
    if (contract?.node.archivedInNode !== null) throw notFound();
    const { node } = contract;
    const seen = visibility(filter, node, [...node.signatories, ...node.observers]);
    if (!seen) throw notFound();
    const created = {
      createdEvent: createdEvent(node, contract.createdOffset, contract.createdAt, seen, true),
      // The synchronizer that sequenced the creation, wherever the contract is now.
      synchronizerId: contract.createdOn,
    };
    let archived: Schemas['JsArchived'] | null = null;
    if (contract.archivedOffset !== null) {
      const update = state.history.updateByOffset(contract.archivedOffset);
      const exercise =
        update?.kind === 'transaction'
          ? update.nodes.find((candidate) => candidate.nodeId === contract.archivedNode)
          : undefined;
      if (update && exercise?.kind === 'exercise') {
        const archivedBy = visibility(filter, exercise, exercise.stakeholders);
        if (archivedBy) {
          archived = {
            archivedEvent: archivedEvent(exercise, update.offset, archivedBy),
            synchronizerId: update.synchronizerId,
          };
        }
      }
    }
    return c.json({ created, archived } as Schemas['JsGetEventsByContractIdResponse']);
  });
}

import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { SandboxError, invalidArgument } from '../errors/sandbox-error';
import { list, readJsonBody, str } from '../http/decode';
import type { SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { visibility, type EventFilter, type PartyFilter } from '../ledger/event-filter';
import { requireReadFor } from '../ledger/event-format';
import { createdEvent } from '../ledger/projection';
import { partyProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import { requireContractId } from './event-routes';

/**
 * `/v2/contracts/**`: the contract service's lookup of one contract's payload, active or archived
 * (ApiContractService). It reads the participant's contract store, not the event log, so a
 * contract created and archived in one transaction is found too.
 */

const getContractRequest = z.object({
  contractId: str(),
  queryingParties: list(z.string()),
});

/** A witness wildcard over every template, with the blob (ApiContractService's projection). */
const EVERYTHING: PartyFilter = {
  wildcard: true,
  templates: new Map(),
  interfaces: new Map(),
  wildcardIncludesBlob: true,
};

/** The querying parties as an event filter; none means every stakeholder, as any party. */
function queryingFilter(parties: readonly string[]): EventFilter {
  if (parties.length === 0) return { byParty: new Map(), anyParty: EVERYTHING, verbose: false };
  return {
    byParty: new Map(parties.map((party) => [party, EVERYTHING])),
    anyParty: null,
    verbose: false,
  };
}

export function contractRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>().post('/contract-by-id', async (c) => {
    const { contractId, queryingParties } = await readJsonBody(c, getContractRequest);
    const claims = requireAuthenticated(c.get('caller'));
    const filter = queryingFilter(queryingParties);
    // RequiredClaims.readAsForAllPartiesOrAnyPartyIfEmpty, before any field is validated.
    requireReadFor(claims, filter);
    requireContractId(contractId);
    for (const party of filter.byParty.keys()) {
      const problem = partyProblem(party);
      if (problem) throw invalidArgument(problem);
    }
    const contract = state.history.contract(contractId);
    const { node } = contract ?? {};
    // The witnesses are the querying parties among the stakeholders; none of them, no contract.
    const seen = node && visibility(filter, node, [...node.signatories, ...node.observers]);
    if (!contract || !node || !seen) {
      throw new SandboxError(
        'CONTRACT_PAYLOAD_NOT_FOUND',
        'Contract payload not found, or not visible.',
        {
          resources: [['CONTRACT_ID', contractId]],
        },
      );
    }
    // Offset 1, node 0 and acsDelta false are the service's fixed placeholders: a contract store
    // knows neither (the API says not to read them).
    const event = createdEvent(node, 1, contract.createdAt, seen, false);
    const response: Schemas['GetContractResponse'] = { createdEvent: { ...event, nodeId: 0 } };
    return c.json(response);
  });
}

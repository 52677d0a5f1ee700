import { canReadAs, type Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import type { LedgerState } from '../ledger-state';
import type {
  EventFilter,
  InterfaceSelection,
  PartyFilter,
  TransactionShape,
} from './event-filter';
import { partyProblem } from '../validation/identifiers';

// ── The requests' formats, as the HTTP layer decodes them (http/stream-requests.ts) ──

export type IdentifierFilter =
  | { WildcardFilter: { value: { includeCreatedEventBlob: boolean } } }
  | { TemplateFilter: { value: { templateId: string; includeCreatedEventBlob: boolean } } }
  | {
      InterfaceFilter: {
        value: {
          interfaceId: string;
          includeInterfaceView: boolean;
          includeCreatedEventBlob: boolean;
        };
      };
    }
  | { Empty: object };

export type Filters = { cumulative: { identifierFilter?: IdentifierFilter | null }[] };

export type EventFormat = {
  filtersByParty: Record<string, Filters>;
  filtersForAnyParty?: Filters | null;
  verbose: boolean;
};

export type TransactionShapeName =
  | 'TRANSACTION_SHAPE_UNSPECIFIED'
  | 'TRANSACTION_SHAPE_ACS_DELTA'
  | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

export type TransactionFormat = {
  eventFormat?: EventFormat | null;
  transactionShape: TransactionShapeName;
};

/** The legacy `TransactionFilter` of the deprecated endpoints: an event format without verbose. */
export type TransactionFilter = Omit<EventFormat, 'verbose'>;

export type UpdateFormat = {
  includeTransactions?: TransactionFormat | null;
  includeReassignments?: EventFormat | null;
  includeTopologyEvents?: {
    includeParticipantAuthorizationEvents?: { parties: string[] } | null;
  } | null;
};

// ── Validation into the ledger's filter model ──

function partyFilterOf(state: LedgerState, filters: Filters | null | undefined): PartyFilter {
  const templates = new Map<string, { includeCreatedEventBlob: boolean }>();
  const interfaces = new Map<string, InterfaceSelection>();
  let wildcard = false;
  let wildcardIncludesBlob = false;
  const cumulative = filters?.cumulative ?? [];
  for (const { identifierFilter: filter } of cumulative) {
    if (!filter || 'Empty' in filter) continue;
    if ('WildcardFilter' in filter) {
      wildcard = true;
      wildcardIncludesBlob ||= filter.WildcardFilter.value.includeCreatedEventBlob;
    } else if ('TemplateFilter' in filter) {
      const { templateId, includeCreatedEventBlob } = filter.TemplateFilter.value;
      if (!state.templates.knows(templateId)) {
        throw new SandboxError(
          'TEMPLATES_OR_INTERFACES_NOT_FOUND',
          `Templates do not exist: [${templateId}].`,
          {
            resources: [['TEMPLATE_ID', templateId]],
          },
        );
      }
      templates.set(templateId, { includeCreatedEventBlob });
    } else {
      const { interfaceId, includeInterfaceView, includeCreatedEventBlob } =
        filter.InterfaceFilter.value;
      if (!state.templates.knowsInterface(interfaceId)) {
        // The message and resource follow the template case (inferred).
        throw new SandboxError(
          'TEMPLATES_OR_INTERFACES_NOT_FOUND',
          `Interfaces do not exist: [${interfaceId}].`,
          { resources: [['INTERFACE_ID', interfaceId]] },
        );
      }
      // Two filters on one interface: either asking for the view or the blob is enough.
      const earlier = interfaces.get(interfaceId);
      interfaces.set(interfaceId, {
        includeInterfaceView: includeInterfaceView || (earlier?.includeInterfaceView ?? false),
        includeCreatedEventBlob:
          includeCreatedEventBlob || (earlier?.includeCreatedEventBlob ?? false),
        implementedBy: (templateId) => state.interfaces.implementation(interfaceId, templateId),
      });
    }
  }
  // No cumulative filter at all means one wildcard (Filters doc in the spec).
  if (cumulative.length === 0) wildcard = true;
  return { wildcard, templates, interfaces, wildcardIncludesBlob };
}

function checkParty(party: string) {
  const problem = partyProblem(party);
  if (problem !== undefined) throw invalidArgument(`Invalid party: ${problem}`);
}

/** Parses an event format and checks it, raising the errors the real validator raises. */
export function toEventFilter(
  state: LedgerState,
  format: TransactionFilter & { verbose?: boolean },
): EventFilter {
  const byParty = new Map<string, PartyFilter>();
  for (const [party, filters] of Object.entries(format.filtersByParty)) {
    checkParty(party);
    byParty.set(party, partyFilterOf(state, filters));
  }
  const anyParty = format.filtersForAnyParty
    ? partyFilterOf(state, format.filtersForAnyParty)
    : null;
  if (byParty.size === 0 && !anyParty) {
    throw invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
  }
  return { byParty, anyParty, verbose: format.verbose ?? false };
}

export function shapeOf(shape: TransactionShapeName): TransactionShape {
  if (shape === 'TRANSACTION_SHAPE_UNSPECIFIED') throw missingField('transaction_shape');
  return shape === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'ACS_DELTA' : 'LEDGER_EFFECTS';
}

/** ReadAs for each party named, ReadAsAnyParty for any-party filters (§4.6). */
export function requireReadFor(claims: Claims, filter: Pick<EventFilter, 'byParty' | 'anyParty'>) {
  const parties = [...filter.byParty.keys()];
  if (parties.some((party) => !canReadAs(claims, party))) {
    throw permissionDenied('Claims do not authorize to read data for the requested parties.');
  }
  if (filter.anyParty && !claims.readAsAnyParty && !claims.actAsAnyParty) {
    throw permissionDenied('Claims do not authorize to read data for any party.');
  }
}

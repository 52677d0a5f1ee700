import { z } from 'zod';
import { canReadAs, type Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { bool, list, message, ownRecord } from '../http/decode';
import type { LedgerState } from '../ledger-state';
import type { EventFilter, PartyFilter, TransactionShape } from '../ledger/event-filter';
import { partyProblem } from '../validation/identifiers';

// ── Wire shapes (relaxed like the real decoder, §0.3) ──

const identifierFilter = z.union([
  z.object({
    WildcardFilter: z.object({
      value: z
        .object({ includeCreatedEventBlob: bool() })
        .default({ includeCreatedEventBlob: false }),
    }),
  }),
  z.object({
    TemplateFilter: z.object({
      value: z.object({ templateId: z.string(), includeCreatedEventBlob: bool() }),
    }),
  }),
  z.object({
    InterfaceFilter: z.object({
      value: z.object({
        interfaceId: z.string(),
        includeInterfaceView: bool(),
        includeCreatedEventBlob: bool(),
      }),
    }),
  }),
  z.object({ Empty: z.object({}) }),
]);

export const filtersSchema = z.object({
  cumulative: list(z.object({ identifierFilter: message(identifierFilter) })),
});
type FiltersWire = z.infer<typeof filtersSchema>;

export const eventFormatSchema = z.object({
  filtersByParty: ownRecord(filtersSchema).default({}),
  filtersForAnyParty: message(filtersSchema),
  verbose: bool(),
});
export type EventFormatWire = z.infer<typeof eventFormatSchema>;

export const transactionShapeSchema = z.enum([
  'TRANSACTION_SHAPE_UNSPECIFIED',
  'TRANSACTION_SHAPE_ACS_DELTA',
  'TRANSACTION_SHAPE_LEDGER_EFFECTS',
]);

export const transactionFormatSchema = z.object({
  eventFormat: message(eventFormatSchema),
  transactionShape: transactionShapeSchema.default('TRANSACTION_SHAPE_UNSPECIFIED'),
});
export type TransactionFormatWire = z.infer<typeof transactionFormatSchema>;

/** The legacy `TransactionFilter` of the deprecated endpoints: an event format without verbose. */
export const transactionFilterSchema = z.object({
  filtersByParty: ownRecord(filtersSchema).default({}),
  filtersForAnyParty: message(filtersSchema),
});

export const updateFormatSchema = z.object({
  includeTransactions: message(transactionFormatSchema),
  includeReassignments: message(eventFormatSchema),
  includeTopologyEvents: message(
    z.object({
      includeParticipantAuthorizationEvents: message(z.object({ parties: list(z.string()) })),
    }),
  ),
});
export type UpdateFormatWire = z.infer<typeof updateFormatSchema>;

// ── Validation into the ledger's filter model ──

function partyFilterOf(state: LedgerState, filters: FiltersWire | null | undefined): PartyFilter {
  const templates = new Map<string, { includeCreatedEventBlob: boolean }>();
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
    }
    // Interface filters select nothing here: no contract of the sandbox implements an interface.
  }
  // No cumulative filter at all means one wildcard (Filters doc in the spec).
  if (cumulative.length === 0) wildcard = true;
  return { wildcard, templates, wildcardIncludesBlob };
}

function checkParty(party: string) {
  const problem = partyProblem(party);
  if (problem !== undefined) throw invalidArgument(`Invalid party: ${problem}`);
}

/** Parses an event format and checks it, raising the errors the real validator raises. */
export function toEventFilter(
  state: LedgerState,
  format: Pick<EventFormatWire, 'filtersByParty' | 'filtersForAnyParty'> & { verbose?: boolean },
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

export function shapeOf(shape: TransactionFormatWire['transactionShape']): TransactionShape {
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

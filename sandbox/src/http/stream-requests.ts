import { z } from 'zod';
import type {
  EventFormat,
  Filters,
  TransactionFilter,
  TransactionFormat,
  UpdateFormat,
} from '../ledger/event-format';
import {
  HTTP_LIST_IDLE_TIMEOUT_MS,
  type CompletionStreamRequest,
  type GetActiveContractsRequest,
  type GetCompletionsRequest,
  type GetUpdatesRequest,
} from '../ledger/update-stream';
import { bool, list, message, ownRecord, parseInt64, str } from './decode';

/**
 * Decoders of the stream-like endpoints' requests (updates, active contracts, completions), for
 * the list endpoints and the websockets alike; relaxed like the real decoder (§0.3). Each
 * `satisfies` the request type the ledger takes, so the two cannot drift apart.
 */

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

const filtersSchema = z.object({
  cumulative: list(z.object({ identifierFilter: message(identifierFilter) })),
}) satisfies z.ZodType<Filters>;

export const eventFormatSchema = z.object({
  filtersByParty: ownRecord(filtersSchema).default({}),
  filtersForAnyParty: message(filtersSchema),
  verbose: bool(),
}) satisfies z.ZodType<EventFormat>;

const transactionShapeSchema = z.enum([
  'TRANSACTION_SHAPE_UNSPECIFIED',
  'TRANSACTION_SHAPE_ACS_DELTA',
  'TRANSACTION_SHAPE_LEDGER_EFFECTS',
]);

export const transactionFormatSchema = z.object({
  eventFormat: message(eventFormatSchema),
  transactionShape: transactionShapeSchema.default('TRANSACTION_SHAPE_UNSPECIFIED'),
}) satisfies z.ZodType<TransactionFormat>;

const transactionFilterSchema = z.object({
  filtersByParty: ownRecord(filtersSchema).default({}),
  filtersForAnyParty: message(filtersSchema),
}) satisfies z.ZodType<TransactionFilter>;

export const updateFormatSchema = z.object({
  includeTransactions: message(transactionFormatSchema),
  includeReassignments: message(eventFormatSchema),
  includeTopologyEvents: message(
    z.object({
      includeParticipantAuthorizationEvents: message(z.object({ parties: list(z.string()) })),
    }),
  ),
}) satisfies z.ZodType<UpdateFormat>;

const int64 = () => z.number().int();

/** The legacy DTO of `/v2/updates`, `/flats` and `/trees` (JSV2/LegacyDTOs.scala). */
export const getUpdatesRequestSchema = z.object({
  beginExclusive: int64().default(0),
  endInclusive: int64().nullish(),
  filter: message(transactionFilterSchema),
  verbose: bool(),
  updateFormat: message(updateFormatSchema),
  descendingOrder: bool(),
}) satisfies z.ZodType<GetUpdatesRequest>;

export const getActiveContractsRequestSchema = z.object({
  filter: message(transactionFilterSchema),
  verbose: bool(),
  activeAtOffset: int64().default(0),
  eventFormat: message(eventFormatSchema),
  streamContinuationToken: str(),
}) satisfies z.ZodType<GetActiveContractsRequest>;

export const completionStreamRequestSchema = z.object({
  userId: str(),
  parties: list(z.string()),
  beginExclusive: int64().default(0),
}) satisfies z.ZodType<CompletionStreamRequest>;

export const getCompletionsRequestSchema = z.object({
  parties: list(z.string()),
  beginExclusive: int64().default(0),
}) satisfies z.ZodType<GetCompletionsRequest>;

/** The `limit` and `stream_idle_timeout_ms` query parameters (int64; tapir's 400 otherwise). */
export function listParams(query: (name: string) => string | undefined): {
  limit: number | undefined;
  idleTimeoutMs: number;
} {
  const int64Param = (name: string) => {
    const raw = query(name);
    return raw === undefined ? undefined : Number(parseInt64(raw, `query parameter ${name}`));
  };
  const limit = int64Param('limit');
  const idle = int64Param('stream_idle_timeout_ms');
  // setTimeout cannot wait longer than 2^31-1 ms (it would fire at once instead).
  const idleTimeoutMs = Math.min(idle ?? HTTP_LIST_IDLE_TIMEOUT_MS, 2 ** 31 - 1);
  return { limit, idleTimeoutMs };
}

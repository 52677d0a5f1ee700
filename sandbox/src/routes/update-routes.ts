import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import type { Claims } from '../auth/claims';
import { SandboxError, invalidArgument, missingField } from '../errors/sandbox-error';
import { bool, list, message, parseInt64, readJsonBody, str } from '../http/decode';
import { validatePageSize } from './common-validation';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { wildcardFor, type EventFilter, type TransactionShape } from '../ledger/event-filter';
import { toJsTransaction, toJsTransactionTree } from '../ledger/projection';
import type { UpdateRecord } from '../ledger/transaction';
import {
  collectList,
  decodeToken,
  encodeToken,
  formatDigest,
  nonPositiveOffset,
  negativeOffset,
  renderUpdate,
  requireNotAfterLedgerEnd,
  requireReadForEventFormat,
  requireReadForUpdateFormat,
  streamUpdates,
  toUpdateSelection,
  type UpdatesEndpoint,
} from '../ledger/update-stream';
import { ledgerStringProblem, partyProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import {
  requireReadFor,
  shapeOf,
  toEventFilter,
  type TransactionFormat,
  type UpdateFormat,
} from '../ledger/event-format';
import {
  getUpdatesRequestSchema,
  listParams,
  transactionFormatSchema,
  updateFormatSchema,
} from '../http/stream-requests';

/**
 * `/v2/updates/**`: the update stream as lists, point lookups by id and offset (current and
 * deprecated forms) and pages (ledger-api-behaviour.md §9).
 */

/** Page size of `get-updates-page` when none is asked for, and the most it serves (inferred). */
export const DEFAULT_UPDATES_PAGE_SIZE = 100;
export const MAX_UPDATES_PAGE_SIZE = 1000;

const int64 = () => z.number().int();

const updateByIdRequest = z.object({ updateId: str(), updateFormat: message(updateFormatSchema) });
const updateByOffsetRequest = z.object({
  offset: int64().default(0),
  updateFormat: message(updateFormatSchema),
});
const updateByHashRequest = z.object({
  transactionHash: str(),
  updateFormat: message(updateFormatSchema),
});
const transactionByIdRequest = z.object({
  updateId: str(),
  requestingParties: list(z.string()),
  transactionFormat: message(transactionFormatSchema),
});
const transactionByOffsetRequest = z.object({
  offset: int64().default(0),
  requestingParties: list(z.string()),
  transactionFormat: message(transactionFormatSchema),
});
const updatesPageRequest = z.object({
  beginOffsetExclusive: int64().default(0),
  endOffsetInclusive: int64().nullish(),
  maxPageSize: int64().nullish(),
  updateFormat: message(updateFormatSchema),
  descendingOrder: bool(),
  pageToken: str(),
});

const UPDATE_ID = /^1220[0-9a-f]{64}$/;

const updateNotFound = (resource: [string, string]) =>
  new SandboxError('UPDATE_NOT_FOUND', 'Update not found, or not visible.', {
    resources: [resource],
  });

function requireUpdateFormat(format: UpdateFormat | null | undefined): UpdateFormat {
  if (!format) throw missingField('update_format');
  return format;
}

function checkParties(parties: readonly string[]) {
  for (const party of parties) {
    const problem = partyProblem(party);
    if (problem) throw invalidArgument(problem);
  }
}

/** requireLedgerString on an id that may not be empty. */
function checkUpdateId(updateId: string) {
  if (updateId === '') throw missingField('update_id');
  const problem = ledgerStringProblem(updateId);
  if (problem) throw invalidArgument(problem);
}

/**
 * The deprecated lookups take either `requestingParties` (wildcards, ACS delta, verbose) or a
 * transaction format (UpdateServiceRequestValidator.validateTransactionById).
 */
function legacyTransactionFormat(
  state: LedgerState,
  parties: string[],
  format: TransactionFormat | null | undefined,
): { filter: EventFilter; shape: TransactionShape } {
  if (format && parties.length > 0) {
    throw invalidArgument(
      'Both requesting_parties and transaction_format are specified. Please use either backwards compatible arguments (requesting_parties) or transaction_format, but not both.',
    );
  }
  if (format) {
    const shape = shapeOf(format.transactionShape);
    if (!format.eventFormat) throw missingField('event_format');
    return { filter: toEventFilter(state, format.eventFormat), shape };
  }
  if (parties.length === 0) {
    throw invalidArgument(
      'Either requesting_parties or transaction_format is required. Please use either backwards compatible arguments (requesting_parties) or transaction_format, but not both.',
    );
  }
  checkParties(parties);
  return { filter: wildcardFor(parties), shape: 'ACS_DELTA' };
}

function requireReadForLegacy(
  claims: Claims,
  parties: string[],
  format: TransactionFormat | null | undefined,
) {
  requireReadFor(claims, wildcardFor(parties));
  if (format?.eventFormat) requireReadForEventFormat(claims, format.eventFormat);
}

/** A transaction in the legacy lookups' presentation, or UPDATE_NOT_FOUND. */
function transactionOf(
  update: UpdateRecord | undefined,
  { filter, shape }: { filter: EventFilter; shape: TransactionShape },
  notFound: [string, string],
) {
  const transaction =
    update?.kind === 'transaction' ? toJsTransaction(update, filter, shape) : null;
  if (!transaction) throw updateNotFound(notFound);
  return { transaction };
}

/** The deprecated tree lookups: a wildcard for each party, ledger effects. */
function treeOf(update: UpdateRecord | undefined, parties: string[], notFound: [string, string]) {
  const tree =
    update?.kind === 'transaction' ? toJsTransactionTree(update, wildcardFor(parties)) : null;
  if (!tree) throw updateNotFound(notFound);
  return { transaction: tree };
}

function treeParties(c: SandboxContext): string[] {
  const parties = c.req.queries('parties') ?? [];
  requireReadFor(requireAuthenticated(c.get('caller')), wildcardFor(parties));
  return parties;
}

function checkTreeParties(parties: string[]) {
  if (parties.length === 0) throw missingField('requesting_parties');
  checkParties(parties);
}

type PageToken = {
  kind: 'updates';
  cursor: number;
  begin: number;
  end: number | null;
  descending: boolean;
  format: string;
};

const invalidPageToken = (reason: string) =>
  new SandboxError('INVALID_UPDATES_PAGE_TOKEN', `Invalid updates page token: ${reason}`);

/** The cursor of a page token, if it was made for this very request. */
function pageCursor(token: string, expected: Omit<PageToken, 'kind' | 'cursor'>) {
  if (token === '') return undefined;
  const payload = decodeToken(token) as Partial<PageToken> | undefined;
  if (payload?.kind !== 'updates' || typeof payload.cursor !== 'number') {
    throw invalidPageToken('the token was not issued by this participant');
  }
  if (
    payload.begin !== expected.begin ||
    payload.end !== expected.end ||
    payload.descending !== expected.descending ||
    payload.format !== expected.format
  ) {
    throw invalidPageToken(
      'begin_offset_exclusive, end_offset_inclusive, update_format and descending_order must be those of the request that issued the token',
    );
  }
  return payload.cursor;
}

const PAGE_SCAN_BATCH = 500;

export function updateRoutes(state: LedgerState) {
  const listOf = (endpoint: UpdatesEndpoint) => async (c: SandboxContext) => {
    const { limit, idleTimeoutMs } = listParams((name) => c.req.query(name));
    const body = await readJsonBody(c, getUpdatesRequestSchema);
    const stream = streamUpdates(
      state,
      { endpoint, body, caller: c.get('caller') },
      { idleTimeoutMs, signal: c.req.raw.signal },
    );
    return c.json(await collectList(stream, limit));
  };

  return new Hono<SandboxEnv>()
    .post('/', listOf('updates'))
    .post('/flats', listOf('flats'))
    .post('/trees', listOf('trees'))
    .post('/update-by-id', async (c) => {
      const { updateId, updateFormat } = await readJsonBody(c, updateByIdRequest);
      const claims = requireAuthenticated(c.get('caller'));
      if (updateFormat) requireReadForUpdateFormat(claims, updateFormat);
      checkUpdateId(updateId);
      if (!UPDATE_ID.test(updateId)) {
        // UpdateId.fromLedgerString wants a hex SHA-256 multihash; its own words are inferred.
        throw invalidArgument(
          `Invalid update id ${updateId}: expected a hex-encoded SHA-256 multihash (1220 followed by 64 hex characters)`,
        );
      }
      const selection = toUpdateSelection(state, requireUpdateFormat(updateFormat));
      const update = state.history.updateById(updateId);
      const rendered = update && renderUpdate(update, selection);
      if (!rendered) throw updateNotFound(['UPDATE_ID', updateId]);
      return c.json({ update: rendered });
    })
    .post('/update-by-offset', async (c) => {
      const { offset, updateFormat } = await readJsonBody(c, updateByOffsetRequest);
      const claims = requireAuthenticated(c.get('caller'));
      if (updateFormat) requireReadForUpdateFormat(claims, updateFormat);
      if (offset <= 0) throw nonPositiveOffset('offset', offset);
      const selection = toUpdateSelection(state, requireUpdateFormat(updateFormat));
      // Beyond the ledger end is simply not found here, unlike for streams (§9).
      const update = state.history.updateByOffset(offset);
      const rendered = update && renderUpdate(update, selection);
      if (!rendered) throw updateNotFound(['OFFSET', String(offset)]);
      return c.json({ update: rendered });
    })
    .post('/update-by-hash', async (c) => {
      const { transactionHash, updateFormat } = await readJsonBody(c, updateByHashRequest);
      const claims = requireAuthenticated(c.get('caller'));
      if (updateFormat) requireReadForUpdateFormat(claims, updateFormat);
      if (transactionHash === '') throw missingField('transaction_hash');
      toUpdateSelection(state, requireUpdateFormat(updateFormat));
      // Only externally signed (prepared) transactions have a hash; the sandbox makes none.
      throw updateNotFound(['TRANSACTION_HASH', transactionHash]);
    })
    .post('/transaction-by-id', async (c) => {
      const body = await readJsonBody(c, transactionByIdRequest);
      const { updateId, requestingParties, transactionFormat } = body;
      requireReadForLegacy(
        requireAuthenticated(c.get('caller')),
        requestingParties,
        transactionFormat,
      );
      const format = legacyTransactionFormat(state, requestingParties, transactionFormat);
      checkUpdateId(updateId);
      return c.json(
        transactionOf(state.history.updateById(updateId), format, ['UPDATE_ID', updateId]),
      );
    })
    .post('/transaction-by-offset', async (c) => {
      const body = await readJsonBody(c, transactionByOffsetRequest);
      const { offset, requestingParties, transactionFormat } = body;
      requireReadForLegacy(
        requireAuthenticated(c.get('caller')),
        requestingParties,
        transactionFormat,
      );
      const format = legacyTransactionFormat(state, requestingParties, transactionFormat);
      if (offset <= 0) throw nonPositiveOffset('offset', offset);
      return c.json(
        transactionOf(state.history.updateByOffset(offset), format, ['OFFSET', String(offset)]),
      );
    })
    .get('/transaction-tree-by-id/:updateId', (c) => {
      const updateId = c.req.param('updateId');
      const parties = treeParties(c);
      checkUpdateId(updateId);
      checkTreeParties(parties);
      return c.json(treeOf(state.history.updateById(updateId), parties, ['UPDATE_ID', updateId]));
    })
    .get('/transaction-tree-by-offset/:offset', (c) => {
      const offset = Number(parseInt64(c.req.param('offset'), 'path parameter offset'));
      const parties = treeParties(c);
      if (offset <= 0) throw nonPositiveOffset('offset', offset);
      checkTreeParties(parties);
      return c.json(
        treeOf(state.history.updateByOffset(offset), parties, ['OFFSET', String(offset)]),
      );
    })
    .post('/get-updates-page', async (c) => {
      const body = await readJsonBody(c, updatesPageRequest);
      const claims = requireAuthenticated(c.get('caller'));
      if (body.updateFormat) requireReadForUpdateFormat(claims, body.updateFormat);
      const begin = body.beginOffsetExclusive;
      if (begin < 0) throw negativeOffset('begin_offset_exclusive', begin);
      const end = body.endOffsetInclusive ?? null;
      if (end !== null && end <= 0) throw nonPositiveOffset('end_offset_inclusive', end, true);
      const ledgerEnd = state.history.ledgerEnd();
      requireNotAfterLedgerEnd('Begin', begin, ledgerEnd);
      if (end !== null) requireNotAfterLedgerEnd('End', end, ledgerEnd);
      const pageSize = validatePageSize(body.maxPageSize, {
        defaultSize: DEFAULT_UPDATES_PAGE_SIZE,
        maxSize: MAX_UPDATES_PAGE_SIZE,
      });
      const updateFormat = requireUpdateFormat(body.updateFormat);
      const selection = toUpdateSelection(state, updateFormat);
      const descending = body.descendingOrder;
      const identity = { begin, end, descending, format: formatDigest(updateFormat) };
      const cursor = pageCursor(body.pageToken, identity);
      const nextToken = (at: number) => encodeToken({ kind: 'updates', cursor: at, ...identity });

      const page: Schemas['JsGetUpdateResponse'][] = [];
      const matched: number[] = [];
      // Ascending pages scan (low, high]; descending ones scan the same range from the top.
      const low = descending ? begin : (cursor ?? begin);
      const high = descending ? (cursor ?? end ?? ledgerEnd) : (end ?? ledgerEnd);
      let after = low;
      let upTo = high;
      scan: while (after < upTo) {
        const batch = state.history.updates(after, upTo, PAGE_SCAN_BATCH, descending);
        for (const update of batch) {
          const rendered = renderUpdate(update, selection);
          if (!rendered) continue;
          page.push({ update: rendered });
          matched.push(update.offset);
          if (page.length === pageSize) break scan;
        }
        const last = batch.at(-1);
        if (!last || batch.length < PAGE_SCAN_BATCH) break;
        if (descending) upTo = last.offset - 1;
        else after = last.offset;
      }

      const full = page.length === pageSize;
      const lastMatch = matched.at(-1) ?? 0;
      let lowest = low;
      let highest = high;
      let nextPageToken: string | null = null;
      if (descending) {
        if (full) {
          lowest = lastMatch - 1;
          if (lowest > low) nextPageToken = nextToken(lowest);
        }
      } else if (full) {
        highest = lastMatch;
        if (end === null || highest < end) nextPageToken = nextToken(highest);
      } else if (end === null) {
        // Without an end an ascending page always has a next one, to tail the ledger.
        nextPageToken = nextToken(highest);
      }
      const response: Record<string, unknown> = {
        updates: page,
        lowestPageOffsetExclusive: lowest,
        highestPageOffsetInclusive: highest,
        nextPageToken,
      };
      return c.json(response as Schemas['JsGetUpdatesPageResponse']);
    });
}

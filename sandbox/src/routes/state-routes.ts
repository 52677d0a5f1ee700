import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { z } from 'zod';
import { effectiveIdp, requireAuthenticated, requirePartyAccess } from '../auth/authorizer';
import { SandboxError, invalidField, missingField } from '../errors/sandbox-error';
import { decodeJson, message, readJsonBody, str } from '../http/decode';
import { readIncomingText } from '../http/body-limit';
import { validatePageSize } from './common-validation';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import {
  collectList,
  decodeToken,
  encodeToken,
  formatDigest,
  isAfter,
  negativeOffset,
  positionOf,
  requireNotAfterLedgerEnd,
  requireReadForEventFormat,
  streamActiveContracts,
  toActiveContractResponse,
  visibleActiveContracts,
  workflowIds,
  type SnapshotPosition,
} from '../ledger/update-stream';
import { partyProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import { toEventFilter } from '../ledger/event-format';
import { synchronizerTimes } from '../ledger/offset-checkpoints';
import {
  eventFormatSchema,
  getActiveContractsRequestSchema,
  listParams,
} from '../http/stream-requests';

/**
 * `/v2/state/**`: ledger end, pruning, connected synchronizers and the active contract set, as a
 * list and in pages (ledger-api-behaviour.md §8, §9).
 */

/** Page size of `active-contracts-page` when none is asked for, and the most it serves (inferred). */
export const DEFAULT_ACS_PAGE_SIZE = 100;
export const MAX_ACS_PAGE_SIZE = 1000;

const activeContractsPageRequest = z.object({
  activeAtOffset: z.number().int().nullish(),
  eventFormat: message(eventFormatSchema),
  maxPageSize: z.number().int().nullish(),
  pageToken: str(),
});

/** Each synchronizer is connected under the alias its id starts with. */
const aliasOf = (synchronizerId: string) => synchronizerId.slice(0, synchronizerId.indexOf('::'));

/** `<identifier>::<namespace>`, what ParticipantId.fromProtoPrimitive accepts after `PAR::`. */
const PARTICIPANT_ID = /^[^:]+::[^:]+$/;

/**
 * The body of this GET. fetch (and so the in-process sandbox) cannot carry one, but a client
 * talking HTTP can, and the Node adapter leaves it unread on the incoming message.
 */
async function bodyOfGet(c: SandboxContext): Promise<string> {
  const text = await c.req.text();
  if (text !== '') return text;
  const env: unknown = c.env;
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || typeof incoming[Symbol.asyncIterator] !== 'function') return '';
  return readIncomingText(incoming, c.get('maxBodyBytes'));
}

const invalidPageToken = (reason: string) =>
  new SandboxError(
    'INVALID_ACTIVE_CONTRACTS_PAGE_TOKEN',
    `Invalid active contracts page token: ${reason}`,
  );

type AcsPageToken = SnapshotPosition & { kind: 'acs-page'; activeAt: number; format: string };

function pageTokenOf(token: string): AcsPageToken | undefined {
  if (token === '') return undefined;
  const payload = decodeToken(token) as Partial<AcsPageToken> | undefined;
  if (
    payload?.kind !== 'acs-page' ||
    typeof payload.activeAt !== 'number' ||
    typeof payload.offset !== 'number' ||
    typeof payload.nodeId !== 'number' ||
    typeof payload.format !== 'string'
  ) {
    throw invalidPageToken('the token was not issued by this participant');
  }
  return payload as AcsPageToken;
}

export function stateRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .get('/ledger-end', (c) => {
      requireAuthenticated(c.get('caller'));
      // One entry per connected synchronizer that has seen an update: an empty ledger has seen
      // no record time yet (inferred).
      return c.json({
        offset: state.history.ledgerEnd(),
        synchronizerTimes: synchronizerTimes(
          state.synchronizerIds,
          state.history.recordTimesBySynchronizer(),
        ),
      });
    })
    .get('/latest-pruned-offsets', (c) => {
      requireAuthenticated(c.get('caller'));
      // The sandbox never prunes.
      return c.json({
        participantPrunedUpToInclusive: 0,
        allDivulgedContractsPrunedUpToInclusive: 0,
      });
    })
    .get('/connected-synchronizers', (c) => {
      const party = c.req.query('party') ?? '';
      const participantId = c.req.query('participantId') ?? '';
      const claims = requireAuthenticated(c.get('caller'));
      if (party !== '') {
        // Admin, IdP admin, or any right for the party; plus the IdP match (§4.6).
        effectiveIdp(claims, c.req.query('identityProviderId') ?? '');
        if (!claims.admin && !claims.idpAdmin) requirePartyAccess(claims, [party]);
        const problem = partyProblem(party);
        if (problem) throw invalidField('party', problem);
      }
      if (participantId !== '' && !PARTICIPANT_ID.test(participantId)) {
        throw invalidField(
          'participant_id',
          `Invalid unique identifier \`${participantId}\`: expected <identifier>::<namespace>`,
        );
      }
      const wire = (synchronizerId: string) => ({
        synchronizerAlias: aliasOf(synchronizerId),
        synchronizerId,
      });
      let connected: Schemas['ConnectedSynchronizer'][];
      if (participantId !== '' && participantId !== state.participantId) {
        // The sandbox knows of no other participant's connections.
        connected = [];
      } else if (party === '') {
        connected = state.synchronizerIds.map((id) => ({
          ...wire(id),
          permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED',
        }));
      } else {
        // A local party may submit on each synchronizer it was allocated on, an external one
        // only confirms or observes there; the others do not host it.
        const hosting = state.hostingSynchronizers(party);
        connected = hosting.map((id) => ({
          ...wire(id),
          permission: `PARTICIPANT_PERMISSION_${state.parties.permission(party, id)}`,
        }));
      }
      return c.json({ connectedSynchronizers: connected });
    })
    .post('/active-contracts', async (c) => {
      const { limit, idleTimeoutMs } = listParams((name) => c.req.query(name));
      const body = await readJsonBody(c, getActiveContractsRequestSchema);
      const stream = streamActiveContracts(
        state,
        { body, caller: c.get('caller') },
        { idleTimeoutMs, signal: c.req.raw.signal },
      );
      return c.json(await collectList(stream, limit));
    })
    .get('/active-contracts-page', async (c) => {
      const text = await bodyOfGet(c);
      // Without a body it answers as for `{}`, like the deprecated vetting GET (sandbox-fidelity).
      const body = decodeJson(text.trim() === '' ? '{}' : text, activeContractsPageRequest);
      const claims = requireAuthenticated(c.get('caller'));
      if (body.eventFormat) requireReadForEventFormat(claims, body.eventFormat);
      if (!body.eventFormat) throw missingField('event_format');
      const filter = toEventFilter(state, body.eventFormat);
      const token = pageTokenOf(body.pageToken);
      const ledgerEnd = state.history.ledgerEnd();
      // Without an offset: the ledger end, or the one the first page was taken at.
      const activeAt = body.activeAtOffset ?? token?.activeAt ?? ledgerEnd;
      if (activeAt < 0) throw negativeOffset('active_at_offset', activeAt);
      requireNotAfterLedgerEnd('active_at_offset', activeAt, ledgerEnd);
      const pageSize = validatePageSize(body.maxPageSize, {
        defaultSize: DEFAULT_ACS_PAGE_SIZE,
        maxSize: MAX_ACS_PAGE_SIZE,
      });
      const format = formatDigest(body.eventFormat);
      if (token && (token.activeAt !== activeAt || token.format !== format)) {
        throw invalidPageToken(
          'active_at_offset and event_format must be those of the request that issued the token',
        );
      }
      const workflowIdOf = workflowIds(state);
      const page: Schemas['JsGetActiveContractsResponse'][] = [];
      let last: SnapshotPosition | undefined;
      let more = false;
      for (const visible of visibleActiveContracts(state, filter, activeAt)) {
        if (token && !isAfter(visible.contract, token)) continue;
        if (page.length === pageSize) {
          more = true;
          break;
        }
        // The continuation token is only for the streaming call (GetActiveContractsResponse).
        page.push(
          toActiveContractResponse(
            state,
            visible,
            workflowIdOf(visible.contract.createdOffset),
            '',
          ),
        );
        last = positionOf(visible.contract);
      }
      const nextPageToken =
        more && last ? encodeToken({ kind: 'acs-page', activeAt, format, ...last }) : null;
      const response: Record<string, unknown> = {
        activeContracts: page,
        activeAtOffset: activeAt,
        nextPageToken,
      };
      return c.json(response as Schemas['JsGetActiveContractsPageResponse']);
    });
}

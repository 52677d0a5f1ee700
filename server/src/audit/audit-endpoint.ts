import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditPage,
  type AuditScope,
} from '@ledger-console/edge/console-api';
import {
  ConsoleRequestError,
  consoleErrorBody,
  identifyCaller,
  sendJsonNoStore,
  type Caller,
} from '../participant-caller';
import type { AuditLog } from './audit-log';
import type { AuditFilter, AuditReadScope } from './audit-store';

/**
 * `GET /__console/audit` (AUDIT_LOG_PATH): a page of the shared audit log, scoped as the Ledger
 * API scopes what a caller may read. The participant says who the caller is, with the caller's
 * own token (participant-caller.ts): a participant admin reads every entry, an IdP admin those
 * of actors in its identity provider, anybody else their own.
 */

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;
const MAX_FILTER_CHARS = 256;
const PARAMETERS = new Set([
  'pageSize',
  'pageToken',
  'from',
  'to',
  'actor',
  'action',
  'outcome',
  'text',
]);

/** An answer of this endpoint's other than a page. */
class AuditRequestError extends ConsoleRequestError {}

const invalid = (cause: string, context: Record<string, string> = {}) =>
  new AuditRequestError(400, 'LEDGER_CONSOLE_INVALID_AUDIT_QUERY', cause, context);

/** The paging token of the entry a page ended with: opaque to readers, checked when read back. */
export function pageTokenOf(lastId: string): string {
  return Buffer.from(`audit:v1:${lastId}`, 'utf8').toString('base64url');
}

function idOfPageToken(token: string): number {
  const decoded = /^[\w-]{1,64}$/.test(token)
    ? Buffer.from(token, 'base64url').toString('utf8')
    : '';
  const match = /^audit:v1:(\d{1,15})$/.exec(decoded);
  if (!match)
    throw invalid('pageToken is not a token this endpoint gave out.', {
      pageToken: token.slice(0, 64),
    });
  return Number(match[1]);
}

function instant(value: string, name: string): number {
  // ISO 8601 with a date and, if a time, a zone: Date.parse alone takes many other forms.
  const iso = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
  const ms = iso.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) {
    throw invalid(`${name} must be an ISO 8601 instant such as 2026-01-31T09:00:00Z.`, {
      [name]: value.slice(0, 64),
    });
  }
  return ms;
}

/** The page size and filter of a query string; throws AuditRequestError for anything off. */
export function parseAuditQuery(search: string): { pageSize: number; filter: AuditFilter } {
  const query = new URLSearchParams(search);
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!PARAMETERS.has(key)) {
      throw invalid(
        `Unknown query parameter ${key.slice(0, 64)}; known: ${[...PARAMETERS].join(', ')}.`,
      );
    }
    if (seen.has(key)) throw invalid(`Give ${key} at most once.`);
    seen.add(key);
  }
  const value = (name: string) => {
    const given = query.get(name);
    if (given === null || given === '') return undefined;
    if (given.length > MAX_FILTER_CHARS) {
      throw invalid(`${name} is longer than ${String(MAX_FILTER_CHARS)} characters.`);
    }
    return given;
  };
  const filter: AuditFilter = {};
  let pageSize = DEFAULT_PAGE_SIZE;
  const size = value('pageSize');
  if (size !== undefined) {
    pageSize = /^\d{1,4}$/.test(size) ? Number(size) : NaN;
    if (!(pageSize >= 1 && pageSize <= MAX_PAGE_SIZE)) {
      throw invalid(`pageSize must be a whole number from 1 to ${String(MAX_PAGE_SIZE)}.`, {
        pageSize: size,
      });
    }
  }
  const token = value('pageToken');
  if (token !== undefined) filter.beforeId = idOfPageToken(token);
  const from = value('from');
  if (from !== undefined) filter.fromMs = instant(from, 'from');
  const to = value('to');
  if (to !== undefined) filter.toMs = instant(to, 'to');
  const actor = value('actor');
  if (actor !== undefined) filter.actor = actor;
  const action = value('action');
  if (action !== undefined) {
    if (!(AUDIT_ACTIONS as readonly string[]).includes(action)) {
      throw invalid(`action must be one of ${AUDIT_ACTIONS.join(', ')}.`, { action });
    }
    filter.action = action as AuditAction;
  }
  const outcome = value('outcome');
  if (outcome !== undefined) {
    if (outcome !== 'ok' && outcome !== 'failed') throw invalid('outcome must be ok or failed.');
    filter.outcome = outcome;
  }
  const text = value('text');
  if (text !== undefined) filter.text = text;
  return { pageSize, filter };
}

/** What the caller may read, from what the participant said about them. */
function readScope(caller: Exclude<Caller, { kind: 'refused' | 'unknown' }>): {
  read: AuditReadScope;
  scope: AuditScope;
  identityProviderId: string | null;
} {
  switch (caller.kind) {
    case 'participant-admin':
      return { read: { kind: 'all' }, scope: 'all', identityProviderId: null };
    case 'identity-provider-admin':
      return {
        read: { kind: 'identity-provider', identityProviderId: caller.identityProviderId },
        scope: 'identity-provider',
        identityProviderId: caller.identityProviderId,
      };
    case 'user':
      return {
        read: { kind: 'own', userId: caller.userId },
        scope: 'own',
        identityProviderId: caller.identityProviderId,
      };
  }
}

/**
 * The request handler of `GET /__console/audit` for one participant of the console (ADR 022): the
 * caller is identified by that participant, so the page holds that participant's entries only;
 * the default participant's also those recorded before consoles named their participants.
 */
export function createAuditHandler(
  log: AuditLog,
  ledgerUrl: URL,
  participant: { name: string; isDefault: boolean },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      try {
        if (req.method !== 'GET') {
          res.setHeader('Allow', 'GET');
          throw new AuditRequestError(405, 'LEDGER_CONSOLE_METHOD_NOT_ALLOWED', 'Use GET.');
        }
        const { pageSize, filter } = parseAuditQuery((req.url ?? '').split('?')[1] ?? '');
        filter.participant = { name: participant.name, orUnnamed: participant.isDefault };
        let caller: Caller;
        try {
          caller = await identifyCaller(ledgerUrl, req.headers.authorization);
        } catch (error) {
          throw new AuditRequestError(
            502,
            'LEDGER_UNREACHABLE',
            `Ledger Console could not ask the participant who the caller is: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (caller.kind === 'refused') {
          // The participant's own refusal, as it would answer the same token on any endpoint.
          res.writeHead(401, {
            'Content-Type': 'application/json',
            'Cache-Control': 'no-store',
          });
          res.end(caller.answer.text);
          return;
        }
        if (caller.kind === 'unknown') {
          throw new AuditRequestError(
            403,
            'LEDGER_CONSOLE_AUDIT_SCOPE_UNKNOWN',
            `The participant did not say which user the token stands for, so the console cannot tell whose entries it may show: ${caller.reason}.`,
          );
        }
        const { read, scope, identityProviderId } = readScope(caller);
        let page: Awaited<ReturnType<AuditLog['read']>>;
        try {
          page = await log.read(read, filter, pageSize);
        } catch (error) {
          throw new AuditRequestError(
            503,
            'LEDGER_CONSOLE_AUDIT_LOG_UNAVAILABLE',
            `The console's audit log cannot be read: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        const last = page.entries.at(-1);
        const body: AuditPage = {
          entries: page.entries,
          nextPageToken: page.more && last !== undefined ? pageTokenOf(last.id) : '',
          scope,
          identityProviderId,
          store: log.storeKind,
          retention: log.retention,
        };
        sendJsonNoStore(res, 200, body);
      } catch (error) {
        const failure =
          error instanceof AuditRequestError
            ? error
            : new AuditRequestError(
                503,
                'LEDGER_CONSOLE_AUDIT_LOG_UNAVAILABLE',
                `The console's audit log failed: ${error instanceof Error ? error.message : String(error)}`,
              );
        sendJsonNoStore(
          res,
          failure.status,
          consoleErrorBody(failure.status, failure.code, failure.message, failure.context),
        );
      }
    })();
  };
}

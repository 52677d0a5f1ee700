import {
  AUDIT_ACTIONS,
  AUDIT_LOG_PATH,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditPage,
  type AuditScope,
} from '@ledger-console/edge/console-api';
import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { AuditExport, AuditQuery } from '@/lib/activity/audit-log';
import { MAX_AUDIT_EXPORT_ENTRIES } from '@/lib/activity/audit-log';
import { toApiError } from '@/lib/errors/api-error';
import { isRecord } from '@/lib/values/is-record';
import { api } from './client';

export type { AuditAction, AuditEntry, AuditPage, AuditScope };

/**
 * The console server's shared audit log (`GET /__console/audit`, ADR 020), or that the page is
 * served without it: the Vite dev server and any static host answer 404 there, which is no error
 * but a console without a shared log (the Activity page then says so and shows this browser's).
 */
export type AuditLogAnswer = { kind: 'log'; page: AuditPage } | { kind: 'not-offered' };

export type AuditPageRequest = AuditQuery & { pageSize: number; pageToken: string };

// The console server bounds its answers; these bound what the page renders whatever sits between.
const MAX_ENTRIES_PER_PAGE = 500;
const MAX_TEXT = 4096;
const MAX_ID = 2048;

const SCOPES: readonly unknown[] = ['all', 'identity-provider', 'own'] satisfies AuditScope[];
const STORES: readonly unknown[] = ['memory', 'file', 'remote'] satisfies AuditPage['store'][];

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

function textOrNull(value: unknown, max: number): string | null | undefined {
  return value === null ? null : text(value, max);
}

function count(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function toActor(value: unknown): AuditActor | undefined {
  if (!isRecord(value) || typeof value.authenticated !== 'boolean') return undefined;
  const issuer = textOrNull(value.issuer, MAX_ID);
  const subject = textOrNull(value.subject, MAX_ID);
  const userId = textOrNull(value.userId, MAX_ID);
  const identityProviderId = textOrNull(value.identityProviderId, MAX_ID);
  if (issuer === undefined || subject === undefined) return undefined;
  if (userId === undefined || identityProviderId === undefined) return undefined;
  return { issuer, subject, userId, identityProviderId, authenticated: value.authenticated };
}

/** One entry, every field checked and bounded; undefined when it is not an entry. */
function toEntry(value: unknown): AuditEntry | undefined {
  if (!isRecord(value)) return undefined;
  const id = text(value.id, 200);
  const at = text(value.at, 40);
  const participant = text(value.participant, MAX_ID);
  const actor = toActor(value.actor);
  const method = text(value.method, 16);
  const path = text(value.path, MAX_TEXT);
  const resource = textOrNull(value.resource, MAX_ID);
  const summary = text(value.summary, MAX_TEXT);
  const errorCode = textOrNull(value.errorCode, 200);
  const { status, durationMs } = value;
  if (id === undefined || at === undefined || !Number.isFinite(Date.parse(at))) return undefined;
  if (participant === undefined || actor === undefined || method === undefined) return undefined;
  if (path === undefined || resource === undefined || summary === undefined) return undefined;
  if (errorCode === undefined || typeof status !== 'number' || count(durationMs) == null) {
    return undefined;
  }
  // An action this console does not know yet (a newer server) is still an entry: `other`.
  const action = (AUDIT_ACTIONS as readonly unknown[]).includes(value.action)
    ? (value.action as AuditAction)
    : 'other';
  return {
    id,
    at,
    participant,
    actor,
    action,
    method,
    path,
    resource,
    summary,
    status,
    errorCode,
    durationMs: durationMs as number,
  };
}

function toPage(value: unknown): AuditPage | undefined {
  if (!isRecord(value) || !Array.isArray(value.entries) || !isRecord(value.retention)) {
    return undefined;
  }
  const entries = value.entries.slice(0, MAX_ENTRIES_PER_PAGE).map(toEntry);
  if (!entries.every((entry) => entry !== undefined)) return undefined;
  const nextPageToken = text(value.nextPageToken, MAX_TEXT);
  const identityProviderId = textOrNull(value.identityProviderId, MAX_ID);
  const days = count(value.retention.days);
  const maxEntries = count(value.retention.maxEntries);
  if (nextPageToken === undefined || identityProviderId === undefined) return undefined;
  if (!SCOPES.includes(value.scope) || !STORES.includes(value.store)) return undefined;
  if (days === undefined || maxEntries === undefined) return undefined;
  return {
    entries,
    nextPageToken,
    scope: value.scope as AuditScope,
    identityProviderId,
    store: value.store as AuditPage['store'],
    retention: { days, maxEntries },
  };
}

/** One page of the shared log, newest first, as the caller's token may see it. */
export async function getAuditPage({
  pageSize,
  pageToken,
  ...filter
}: AuditPageRequest): Promise<AuditLogAnswer> {
  const { data, error, response } = await api.GET(AUDIT_LOG_PATH, {
    params: { query: { ...filter, pageSize, ...(pageToken === '' ? {} : { pageToken }) } },
    // Without it the Vite dev server answers its index.html (200) instead of 404.
    headers: { Accept: 'application/json' },
    // The body is checked below, whatever the content type said.
    parseAs: 'text',
  });
  if (response.status === 404) return { kind: 'not-offered' };
  if (!response.ok) throw toApiError(response.status, error);
  let body: unknown;
  try {
    body = typeof data === 'string' ? JSON.parse(data) : undefined;
  } catch {
    body = undefined;
  }
  const page = toPage(body);
  if (!page) throw toApiError(502, 'The console server sent an unreadable audit log page');
  return { kind: 'log', page };
}

/**
 * Every entry the filter matches, newest first, up to {@link MAX_AUDIT_EXPORT_ENTRIES}: page after
 * page of the largest size, so an export is the filtered log and not only the page on screen.
 */
export async function collectAuditEntries(
  query: AuditQuery,
  max: number = MAX_AUDIT_EXPORT_ENTRIES,
): Promise<AuditExport> {
  const entries: AuditEntry[] = [];
  let pageToken = '';
  do {
    const answer = await getAuditPage({ ...query, pageSize: MAX_ENTRIES_PER_PAGE, pageToken });
    if (answer.kind === 'not-offered') break;
    entries.push(...answer.page.entries);
    pageToken = answer.page.nextPageToken;
  } while (pageToken !== '' && entries.length < max);
  return { entries: entries.slice(0, max), isTruncated: entries.length > max || pageToken !== '' };
}

export const auditQueries = {
  all: () => ['audit'] as const,
  pages: () => [...auditQueries.all(), 'page'] as const,
  page: (request: AuditPageRequest) =>
    queryOptions({
      queryKey: [...auditQueries.pages(), request],
      queryFn: () => getAuditPage(request),
      // A log others write to: what it held a moment ago may already be incomplete.
      staleTime: 5_000,
    }),
};

export const auditMutations = {
  /** Reads every matching entry for a file (a one-click action: a failure is a toast). */
  collect: () =>
    mutationOptions({
      mutationKey: [...auditQueries.all(), 'collect'],
      mutationFn: (query: AuditQuery) => collectAuditEntries(query),
    }),
};

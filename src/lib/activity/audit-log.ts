/**
 * The console server's shared audit log as the Activity page reads it: its filters as URL search
 * params and as the endpoint's query, what the caller's scope and the store mean in words, the
 * export rows, and which of this browser's own activity entries an audit entry is (for the
 * before → after only the browser knows). Pure: the wire contract is packages/edge console-api.ts.
 */
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditPage,
} from '@ledger-console/edge/console-api';
import type { ActivityEntry } from './activity-log';
import type { ActivitySubject } from './activity-spec';

// ── filters ──────────────────────────────────────────────────────────────────

export const AUDIT_WINDOWS = ['', '1h', '24h', '7d', '30d', 'custom'] as const;
/** '' = any time; `custom` uses {@link AuditFilter.from} and {@link AuditFilter.to}. */
export type AuditWindow = (typeof AUDIT_WINDOWS)[number];

const WINDOW_MS: Record<Exclude<AuditWindow, '' | 'custom'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

export type AuditOutcome = 'ok' | 'failed';

export type AuditFilter = {
  window: AuditWindow;
  /** ISO 8601, only with `custom`: inclusive start and exclusive end; '' for open. */
  from: string;
  to: string;
  /** A user id or token subject, as the server matches it; '' for anyone. */
  actor: string;
  action: AuditAction | '';
  outcome: AuditOutcome | '';
  /** Part of the path, resource or summary; '' for all. */
  text: string;
};

export const NO_AUDIT_FILTER: AuditFilter = {
  window: '',
  from: '',
  to: '',
  actor: '',
  action: '',
  outcome: '',
  text: '',
};

/** Bounds of the free-text filters: a URL someone sends must not make a huge request. */
export const MAX_AUDIT_TEXT_CHARS = 200;
export const MAX_AUDIT_ACTOR_CHARS = 256;

function bounded(text: string | null, max: number): string {
  return (text ?? '').slice(0, max);
}

/** An ISO time the endpoint accepts, or '' for anything unreadable. */
function isoOrEmpty(text: string | null): string {
  if (!text || text.length > 40) return '';
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

const isAction = (value: string | null): value is AuditAction =>
  (AUDIT_ACTIONS as readonly (string | null)[]).includes(value);

/** Reads the filter from search params; anything unknown or out of bounds falls back to "any". */
export function parseAuditFilter(params: URLSearchParams): AuditFilter {
  const window = params.get('window');
  const action = params.get('action');
  const outcome = params.get('outcome');
  const isCustom = window === 'custom';
  return {
    window: (AUDIT_WINDOWS as readonly (string | null)[]).includes(window)
      ? (window as AuditWindow)
      : '',
    from: isCustom ? isoOrEmpty(params.get('from')) : '',
    to: isCustom ? isoOrEmpty(params.get('to')) : '',
    actor: bounded(params.get('actor'), MAX_AUDIT_ACTOR_CHARS),
    action: isAction(action) ? action : '',
    outcome: outcome === 'ok' || outcome === 'failed' ? outcome : '',
    text: bounded(params.get('text'), MAX_AUDIT_TEXT_CHARS),
  };
}

/** Adds the filter to `params`, leaving out what is "any"; returns `params`. */
export function appendAuditFilter(params: URLSearchParams, filter: AuditFilter): URLSearchParams {
  if (filter.window !== '') params.set('window', filter.window);
  if (filter.window === 'custom') {
    if (filter.from !== '') params.set('from', filter.from);
    if (filter.to !== '') params.set('to', filter.to);
  }
  if (filter.actor !== '') params.set('actor', filter.actor);
  if (filter.action !== '') params.set('action', filter.action);
  if (filter.outcome !== '') params.set('outcome', filter.outcome);
  if (filter.text !== '') params.set('text', filter.text);
  return params;
}

/**
 * The Activity page's search for the shared log's entries that mention `id` (a user id, a party):
 * in their path, resource or summary. Past the text bound, the id's start still matches what it matched.
 */
export function auditMentionsSearch(id: string): string {
  const filter = { ...NO_AUDIT_FILTER, text: id.slice(0, MAX_AUDIT_TEXT_CHARS) };
  return `?${appendAuditFilter(new URLSearchParams(), filter).toString()}`;
}

export function hasAuditFilter(filter: AuditFilter): boolean {
  return (
    filter.window !== '' ||
    filter.actor.trim() !== '' ||
    filter.action !== '' ||
    filter.outcome !== '' ||
    filter.text.trim() !== ''
  );
}

/** The endpoint's query parameters for a filter, without paging. */
export type AuditQuery = {
  from?: string;
  to?: string;
  actor?: string;
  action?: AuditAction;
  outcome?: AuditOutcome;
  text?: string;
};

/**
 * The query for a filter. A relative window ends now, so its start is taken at `now` and rounded
 * down to the minute: the same view asked twice within a minute is the same query (one cache
 * entry), and its pages are read with one start.
 */
export function toAuditQuery(filter: AuditFilter, now: number): AuditQuery {
  const query: AuditQuery = {};
  if (filter.window === 'custom') {
    if (filter.from !== '') query.from = filter.from;
    if (filter.to !== '') query.to = filter.to;
  } else if (filter.window !== '') {
    const start = now - WINDOW_MS[filter.window];
    query.from = new Date(start - (start % 60_000)).toISOString();
  }
  const actor = filter.actor.trim();
  if (actor !== '') query.actor = actor;
  if (filter.action !== '') query.action = filter.action;
  if (filter.outcome !== '') query.outcome = filter.outcome;
  const text = filter.text.trim();
  if (text !== '') query.text = text;
  return query;
}

// ── reading an entry ─────────────────────────────────────────────────────────

/** A 2xx answer; anything else (0 = no answer) failed. */
export function isAuditSuccess(entry: Pick<AuditEntry, 'status'>): boolean {
  return entry.status >= 200 && entry.status < 300;
}

/** Who, as the participant vouched for it: its user (and IdP), else the token's subject. */
export function auditActorLabel(actor: AuditActor): string {
  if (!actor.authenticated) return 'not authenticated';
  if (actor.userId !== null) {
    return actor.identityProviderId
      ? `${actor.userId} (${actor.identityProviderId})`
      : actor.userId;
  }
  if (actor.subject !== null) return `token of ${actor.subject}`;
  return 'a token without a user';
}

export function auditResultLabel(entry: Pick<AuditEntry, 'status' | 'errorCode'>): string {
  if (isAuditSuccess(entry)) return 'ok';
  if (entry.errorCode) return entry.errorCode;
  return entry.status === 0 ? 'no answer' : `HTTP ${entry.status}`;
}

/** The page's line about whose entries the caller sees. */
export function auditScopeText(page: Pick<AuditPage, 'scope' | 'identityProviderId'>): string {
  switch (page.scope) {
    case 'all':
      return 'You see all entries.';
    case 'identity-provider':
      return `You see the entries of identity provider ${page.identityProviderId ?? '(unnamed)'}, which you administer.`;
    case 'own':
      return 'You see your own entries only.';
  }
}

/** Where the log is kept and for how long, and how to keep it when it is in memory. */
export function auditStoreText(page: Pick<AuditPage, 'store' | 'retention'>): string {
  const where = {
    memory:
      'Kept in the console server’s memory: it is lost when the server restarts. To keep it, start the server with --data-dir <folder> or --audit-db <file or libsql:// URL>.',
    file: 'Kept in a database file of the console server.',
    remote:
      'Kept in a shared libsql database, so every console server writing to it shows the same log.',
  }[page.store];
  const { days, maxEntries } = page.retention;
  const limits = [
    days === null ? '' : `for ${days} ${days === 1 ? 'day' : 'days'}`,
    maxEntries === null ? '' : `at most ${maxEntries.toLocaleString('en-US')} entries`,
  ].filter((part) => part !== '');
  return limits.length === 0 ? where : `${where} Entries are kept ${limits.join(', ')}.`;
}

// ── this browser's entries ───────────────────────────────────────────────────

/**
 * How far apart in time a browser entry and the server's entry of the same call may be. The
 * browser stamps the call as it starts, the server when the participant answered: the server's
 * time is later by the call's duration, and the two clocks may disagree by some seconds.
 */
const BEFORE_MS = 30_000;
const AFTER_MS = 5 * 60_000;

function pathOnly(path: string): string {
  return path.split('?')[0] ?? path;
}

function sameOutcome(local: ActivityEntry, entry: AuditEntry): boolean {
  return local.result.kind === 'ok'
    ? isAuditSuccess(entry)
    : !isAuditSuccess(entry) && local.result.status === entry.status;
}

function sameActor(local: ActivityEntry, entry: AuditEntry): boolean {
  // Only a contradiction rules a pair out: either side may not know the user.
  if (local.actor.kind !== 'user' || entry.actor.userId === null) return true;
  return local.actor.userId === entry.actor.userId;
}

function subjectId(subject: ActivitySubject): string {
  switch (subject.kind) {
    case 'user':
      return subject.userId;
    case 'party':
      return subject.party;
    case 'identity-provider':
      return subject.identityProviderId;
    case 'package':
      return subject.packageId;
  }
}

function sameResource(local: ActivityEntry, entry: AuditEntry): boolean {
  const { resource } = entry;
  if (resource === null || local.subjects.length === 0) return true;
  // The server may name an allocated party by its hint, the browser by the whole party id.
  return local.subjects.some((subject) => {
    const id = subjectId(subject);
    return id === resource || id.startsWith(`${resource}::`);
  });
}

/**
 * Which of this browser's activity entries is which audit entry, by audit entry id. The server
 * records no request id the browser also knows, so a pair is the same call when method and path
 * agree, the outcome agrees (ok with 2xx, else the same status), the user and the resource do not
 * differ, and the browser's time lies from {@link BEFORE_MS} after to {@link AFTER_MS} before the
 * server's. All possible pairs are ranked by how far apart they are (a browser time after the
 * server's, only clock skew, counts extra), and taken best first, each entry once: two quick
 * identical calls (say, two grants on the same user) pair with their own, not both with one.
 */
export function pairBrowserEntries(
  entries: readonly AuditEntry[],
  local: readonly ActivityEntry[],
): Map<string, ActivityEntry> {
  const candidates: { entry: AuditEntry; local: ActivityEntry; cost: number }[] = [];
  for (const entry of entries) {
    const at = Date.parse(entry.at);
    if (!Number.isFinite(at)) continue;
    for (const candidate of local) {
      if (candidate.call.method !== entry.method) continue;
      if (pathOnly(candidate.call.path) !== pathOnly(entry.path)) continue;
      if (!sameOutcome(candidate, entry) || !sameActor(candidate, entry)) continue;
      if (!sameResource(candidate, entry)) continue;
      // A call starts before it is answered: the browser's time is normally the earlier one.
      const gap = at - Date.parse(candidate.at);
      if (!(gap >= -BEFORE_MS && gap <= AFTER_MS)) continue;
      candidates.push({ entry, local: candidate, cost: gap >= 0 ? gap : AFTER_MS - gap });
    }
  }
  candidates.sort((a, b) => a.cost - b.cost);
  const pairs = new Map<string, ActivityEntry>();
  const used = new Set<string>();
  for (const { entry, local: candidate } of candidates) {
    if (pairs.has(entry.id) || used.has(candidate.id)) continue;
    pairs.set(entry.id, candidate);
    used.add(candidate.id);
  }
  return pairs;
}

// ── export ───────────────────────────────────────────────────────────────────

/** At most this many entries go into one file; the page says when more matched. */
export const MAX_AUDIT_EXPORT_ENTRIES = 10_000;

export const AUDIT_CSV_HEADER = [
  'at',
  'participant',
  'user',
  'identity provider',
  'token issuer',
  'token subject',
  'authenticated',
  'action',
  'method',
  'path',
  'resource',
  'summary',
  'status',
  'error code',
  'duration ms',
] as const;

/**
 * One row per entry in {@link AUDIT_CSV_HEADER}'s order: times absolute (ISO 8601, UTC), numbers
 * as numbers; quoting and defusing formula-like text is the CSV writer's job.
 */
export function auditCsvRows(entries: readonly AuditEntry[]): (string | number | boolean)[][] {
  return entries.map((entry) => [
    entry.at,
    entry.participant,
    entry.actor.userId ?? '',
    entry.actor.identityProviderId ?? '',
    entry.actor.issuer ?? '',
    entry.actor.subject ?? '',
    entry.actor.authenticated,
    entry.action,
    entry.method,
    entry.path,
    entry.resource ?? '',
    entry.summary,
    entry.status,
    entry.errorCode ?? '',
    entry.durationMs,
  ]);
}

export type AuditExport = {
  entries: AuditEntry[];
  /** More entries matched than {@link MAX_AUDIT_EXPORT_ENTRIES}: the newest are in the file. */
  isTruncated: boolean;
};

/** The entries as a JSON document that says what was asked and whether it is complete. */
export function auditJson(
  { entries, isTruncated }: AuditExport,
  query: AuditQuery,
  exportedAt: Date,
): string {
  return `${JSON.stringify(
    {
      format: 'ledger-console.audit-log',
      version: 1,
      exportedAt: exportedAt.toISOString(),
      filter: query,
      isTruncated,
      entries,
    },
    null,
    2,
  )}\n`;
}

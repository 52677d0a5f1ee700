/**
 * The activity log: the admin calls this console made (who, when, which call, before → after,
 * result), kept in the browser. Pure: the API layer describes each mutation with an
 * {@link ActivitySpec}, the recorder turns a settled mutation into an {@link ActivityEntry}, and
 * storage and UI only read and bound entries.
 */
import { AUDIT_ACTIONS } from '@ledger-console/edge/console-api';
import { isRecord } from '@/lib/values/is-record';
import { parseJsonList, withNewest } from '@/lib/storage/bounded-json-store';
import {
  NOT_RECORDED_IN_THE_BROWSER,
  type ActivityAction,
  type ActivityActor,
  type ActivityCall,
  type ActivitySubject,
  type ActivityValue,
} from './activity-spec';

export const ACTIVITY_ACTIONS: readonly ActivityAction[] = AUDIT_ACTIONS.filter(
  (action): action is ActivityAction =>
    !(NOT_RECORDED_IN_THE_BROWSER as readonly string[]).includes(action),
);

/** A state before or after the call, as bounded JSON text; or why there is none. */
export type ActivitySnapshot =
  | { kind: 'json'; text: string }
  /** Nothing to show by nature: a create has no "before", a delete no "after". */
  | { kind: 'none' }
  /** The console does not know, and says why (not loaded before the call, the call failed). */
  | { kind: 'unknown'; reason: string };

export type ActivityResult =
  | { kind: 'ok' }
  | {
      kind: 'error';
      code: string;
      message: string;
      /** The HTTP status; 0 when no answer came. */
      status: number;
      correlationId?: string;
    };

export type ActivityEntry = {
  id: string;
  /** ISO 8601, when the call was made. */
  at: string;
  actor: ActivityActor;
  participantId: string;
  action: ActivityAction;
  call: ActivityCall;
  subjects: ActivitySubject[];
  before: ActivitySnapshot;
  after: ActivitySnapshot;
  result: ActivityResult;
};

// ── bounds ───────────────────────────────────────────────────────────────────

export const MAX_ACTIVITY_ENTRIES = 2000;
/** Characters of one before or after snapshot. */
export const MAX_SNAPSHOT_CHARS = 4096;
const MAX_MESSAGE_CHARS = 1000;
const MAX_PATH_CHARS = 2048;
const MAX_SUBJECTS = 50;
const MAX_ID_CHARS = 512;
/** What one identity's log of one participant may take in storage (UTF-16 characters). */
export const MAX_STORED_CHARS = 1_500_000;

const SECRET_KEY = /token|secret|password|authorization|bearer|credential|private.?key/i;
// A JWT (or JWS) anywhere in a value: header and payload are base64url JSON, hence "eyJ".
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const REDACTED = '[redacted]';

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A string with any token in it replaced: a token must never reach the log. */
export function withoutTokens(text: string): string {
  return text.replace(JWT, '[token removed]');
}

/**
 * A value as JSON text of at most `maxChars`: keys that name secrets are redacted, tokens removed,
 * bytes counted instead of copied; a longer text is cut and ends with a marker saying so.
 */
export function summarize(value: unknown, maxChars: number = MAX_SNAPSHOT_CHARS): string {
  let text: string | undefined;
  try {
    // undefined for undefined (the types say string): then the text is "null".
    text = JSON.stringify(value, (key, item: unknown) => {
      if (key !== '' && SECRET_KEY.test(key)) return REDACTED;
      if (typeof item === 'string') return withoutTokens(item);
      if (item instanceof ArrayBuffer) return `[${item.byteLength} bytes]`;
      if (ArrayBuffer.isView(item)) return `[${item.byteLength} bytes]`;
      if (typeof item === 'bigint') return item.toString();
      return item;
    });
  } catch {
    return '"[could not be summarized]"';
  }
  text ??= 'null';
  if (text.length <= maxChars) return text;
  const marker = ` … [truncated: ${maxChars} of ${text.length} characters]`;
  return `${text.slice(0, Math.max(0, maxChars - marker.length))}${marker}`;
}

export function toSnapshot(value: ActivityValue): ActivitySnapshot {
  switch (value.kind) {
    case 'value':
      return { kind: 'json', text: summarize(value.value) };
    case 'none':
      return { kind: 'none' };
    case 'unknown':
      return { kind: 'unknown', reason: clip(value.reason, MAX_MESSAGE_CHARS) };
  }
}

/** The result of a failed call, from whatever it threw (an ApiError has code, cause, status). */
export function errorResult(error: unknown): ActivityResult {
  const record =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const body =
    typeof record.body === 'object' && record.body !== null
      ? (record.body as Record<string, unknown>)
      : {};
  const code =
    typeof body.code === 'string'
      ? body.code
      : error instanceof Error && error.name === 'AbortError'
        ? 'CANCELLED'
        : 'UNKNOWN_ERROR';
  const message =
    typeof body.cause === 'string'
      ? body.cause
      : error instanceof Error
        ? error.message
        : String(error);
  const result: ActivityResult = {
    kind: 'error',
    code: clip(code, 200),
    message: clip(withoutTokens(message), MAX_MESSAGE_CHARS),
    status: typeof record.status === 'number' ? record.status : 0,
  };
  if (typeof body.correlationId === 'string') {
    result.correlationId = clip(body.correlationId, MAX_ID_CHARS);
  }
  return result;
}

function boundedSubject(subject: ActivitySubject): ActivitySubject {
  switch (subject.kind) {
    case 'user':
      return {
        kind: 'user',
        userId: clip(subject.userId, MAX_ID_CHARS),
        identityProviderId: clip(subject.identityProviderId, MAX_ID_CHARS),
      };
    case 'party':
      return { kind: 'party', party: clip(subject.party, MAX_ID_CHARS) };
    case 'identity-provider':
      return {
        kind: 'identity-provider',
        identityProviderId: clip(subject.identityProviderId, MAX_ID_CHARS),
      };
    case 'package':
      return { kind: 'package', packageId: clip(subject.packageId, MAX_ID_CHARS) };
  }
}

/** Distinct, non-empty subjects, at most {@link MAX_SUBJECTS}. */
export function boundedSubjects(subjects: readonly ActivitySubject[]): ActivitySubject[] {
  const seen = new Set<string>();
  const kept: ActivitySubject[] = [];
  for (const subject of subjects) {
    const bounded = boundedSubject(subject);
    const label = subjectLabel(bounded);
    if (label === '' || seen.has(`${bounded.kind}:${label}`)) continue;
    seen.add(`${bounded.kind}:${label}`);
    kept.push(bounded);
    if (kept.length === MAX_SUBJECTS) break;
  }
  return kept;
}

export type NewEntry = Omit<ActivityEntry, 'before' | 'after' | 'subjects' | 'call'> & {
  call: ActivityCall;
  subjects: readonly ActivitySubject[];
  before: ActivityValue;
  after: ActivityValue;
};

/** An entry with every field bounded and no token in it. */
export function createEntry(entry: NewEntry): ActivityEntry {
  return {
    id: clip(entry.id, 100),
    at: entry.at,
    actor: entry.actor,
    participantId: clip(entry.participantId, MAX_ID_CHARS),
    action: entry.action,
    call: {
      method: clip(entry.call.method, 10),
      path: clip(withoutTokens(entry.call.path), MAX_PATH_CHARS),
    },
    subjects: boundedSubjects(entry.subjects),
    before: toSnapshot(entry.before),
    after: toSnapshot(entry.after),
    result: entry.result,
  };
}

// ── the log ──────────────────────────────────────────────────────────────────

/** Newest first, at most `max` entries. */
export function appendEntry(
  entries: readonly ActivityEntry[],
  entry: ActivityEntry,
  max: number = MAX_ACTIVITY_ENTRIES,
): ActivityEntry[] {
  return withNewest(entries, entry, max);
}

const isString = (value: unknown): value is string => typeof value === 'string';

function isSnapshot(value: unknown): value is ActivitySnapshot {
  if (!isRecord(value)) return false;
  return (
    (value.kind === 'json' && isString(value.text)) ||
    value.kind === 'none' ||
    (value.kind === 'unknown' && isString(value.reason))
  );
}

function isSubject(value: unknown): value is ActivitySubject {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'user':
      return isString(value.userId) && isString(value.identityProviderId);
    case 'party':
      return isString(value.party);
    case 'identity-provider':
      return isString(value.identityProviderId);
    case 'package':
      return isString(value.packageId);
    default:
      return false;
  }
}

function isActor(value: unknown): value is ActivityActor {
  if (!isRecord(value)) return false;
  if (value.kind === 'user') return isString(value.userId) && isString(value.identityProviderId);
  if (value.kind === 'token') {
    return (
      (value.subject === null || isString(value.subject)) &&
      (value.issuer === null || isString(value.issuer))
    );
  }
  return value.kind === 'anonymous';
}

function isResult(value: unknown): value is ActivityResult {
  if (!isRecord(value)) return false;
  if (value.kind === 'ok') return true;
  return (
    value.kind === 'error' &&
    isString(value.code) &&
    isString(value.message) &&
    typeof value.status === 'number'
  );
}

/** Whether a stored value is an entry this console can show; anything else is dropped. */
export function isActivityEntry(value: unknown): value is ActivityEntry {
  if (!isRecord(value)) return false;
  const call = value.call;
  return (
    isString(value.id) &&
    isString(value.at) &&
    isActor(value.actor) &&
    isString(value.participantId) &&
    (ACTIVITY_ACTIONS as readonly unknown[]).includes(value.action) &&
    isRecord(call) &&
    isString(call.method) &&
    isString(call.path) &&
    Array.isArray(value.subjects) &&
    value.subjects.every(isSubject) &&
    isSnapshot(value.before) &&
    isSnapshot(value.after) &&
    isResult(value.result)
  );
}

/** Whatever the storage holds, as entries; anything unreadable is dropped, never thrown. */
export function parseLog(text: string | null): ActivityEntry[] {
  return parseJsonList(text, isActivityEntry, MAX_ACTIVITY_ENTRIES);
}

// ── reading ──────────────────────────────────────────────────────────────────

export function subjectLabel(subject: ActivitySubject): string {
  switch (subject.kind) {
    case 'user':
      return subject.identityProviderId
        ? `${subject.userId} (${subject.identityProviderId})`
        : subject.userId;
    case 'party':
      return subject.party;
    case 'identity-provider':
      return subject.identityProviderId;
    case 'package':
      return subject.packageId;
  }
}

export function actorLabel(actor: ActivityActor): string {
  switch (actor.kind) {
    case 'user':
      return actor.identityProviderId
        ? `${actor.userId} (${actor.identityProviderId})`
        : actor.userId;
    case 'token':
      return `token of ${actor.subject ?? 'no subject'}${actor.issuer ? ` from ${actor.issuer}` : ''}`;
    case 'anonymous':
      return 'anonymous';
  }
}

export function resultLabel(result: ActivityResult): string {
  return result.kind === 'ok' ? 'ok' : result.code;
}

export function snapshotText(snapshot: ActivitySnapshot): string {
  switch (snapshot.kind) {
    case 'json':
      return snapshot.text;
    case 'none':
      return '';
    case 'unknown':
      return `(unknown: ${snapshot.reason})`;
  }
}

/** An entry concerns a page's subject: the same user in the same IdP, or the same party. */
export function concerns(entry: ActivityEntry, subject: ActivitySubject): boolean {
  return entry.subjects.some((own) => {
    if (own.kind !== subject.kind) return false;
    switch (subject.kind) {
      case 'user':
        return (
          own.kind === 'user' &&
          own.userId === subject.userId &&
          own.identityProviderId === subject.identityProviderId
        );
      default:
        return subjectLabel(own) === subjectLabel(subject);
    }
  });
}

export type ActivityFilter = {
  /** '' for every action. */
  action: ActivityAction | '';
  /** '' for every result. */
  result: 'ok' | 'error' | '';
  /** Part of a subject's id (or a user's IdP), case-insensitive; '' for all. */
  subject: string;
};

export const NO_FILTER: ActivityFilter = { action: '', result: '', subject: '' };

export function matchesFilter(entry: ActivityEntry, filter: ActivityFilter): boolean {
  if (filter.action !== '' && entry.action !== filter.action) return false;
  if (filter.result !== '' && entry.result.kind !== filter.result) return false;
  const needle = filter.subject.trim().toLowerCase();
  if (needle === '') return true;
  return entry.subjects.some((subject) => subjectLabel(subject).toLowerCase().includes(needle));
}

export const ACTIVITY_CSV_HEADER = [
  'at',
  'actor',
  'participant',
  'action',
  'method',
  'path',
  'subjects',
  'result',
  'status',
  'error message',
  'correlation id',
  'before',
  'after',
] as const;

/** One row per entry, in {@link ACTIVITY_CSV_HEADER}'s order; quoting is the CSV writer's job. */
export function activityCsvRows(entries: readonly ActivityEntry[]): string[][] {
  return entries.map((entry) => [
    entry.at,
    actorLabel(entry.actor),
    entry.participantId,
    entry.action,
    entry.call.method,
    entry.call.path,
    entry.subjects.map((subject) => `${subject.kind}:${subjectLabel(subject)}`).join(' '),
    resultLabel(entry.result),
    entry.result.kind === 'error' ? String(entry.result.status) : '',
    entry.result.kind === 'error' ? entry.result.message : '',
    entry.result.kind === 'error' ? (entry.result.correlationId ?? '') : '',
    snapshotText(entry.before),
    snapshotText(entry.after),
  ]);
}

/** The log as a JSON document, for a file. */
export function activityJson(entries: readonly ActivityEntry[]): string {
  return `${JSON.stringify({ format: 'ledger-console.activity-log', version: 1, entries }, null, 2)}\n`;
}

import { describe, expect, it } from 'vitest';
import {
  activityCsvRows,
  activityJson,
  appendEntry,
  concerns,
  createEntry,
  errorResult,
  matchesFilter,
  MAX_SNAPSHOT_CHARS,
  NO_FILTER,
  parseLog,
  summarize,
  type ActivityEntry,
  type NewEntry,
} from './activity-log';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

function entry(overrides: Partial<NewEntry> = {}): ActivityEntry {
  return createEntry({
    id: 'e1',
    at: '2026-11-23T10:00:00.000Z',
    actor: { kind: 'user', userId: 'participant_admin', identityProviderId: '' },
    participantId: 'participant1::1220ab',
    action: 'user.create',
    call: { method: 'POST', path: '/v2/users' },
    subjects: [{ kind: 'user', userId: 'ops', identityProviderId: '' }],
    before: { kind: 'none' },
    after: { kind: 'value', value: { id: 'ops' } },
    result: { kind: 'ok' },
    ...overrides,
  });
}

describe('summarize', () => {
  it('keeps small values as JSON', () => {
    expect(summarize({ id: 'ops', rights: ['CanActAs:alice'] })).toBe(
      '{"id":"ops","rights":["CanActAs:alice"]}',
    );
  });

  it('cuts long values to the bound and says so', () => {
    const text = summarize({ blob: 'x'.repeat(10_000) });
    expect(text).toHaveLength(MAX_SNAPSHOT_CHARS);
    expect(text).toMatch(/ … \[truncated: 4096 of 10011 characters\]$/);
  });

  it('never keeps a token or a secret-named field, and counts bytes instead of copying them', () => {
    const text = summarize({
      note: `Bearer ${TOKEN}`,
      accessToken: 'opaque',
      clientSecret: 'hunter2',
      bytes: new Uint8Array(12),
    });
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('opaque');
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toEqual({
      note: 'Bearer [token removed]',
      accessToken: '[redacted]',
      clientSecret: '[redacted]',
      bytes: '[12 bytes]',
    });
  });
});

describe('createEntry', () => {
  it('bounds every field and keeps tokens out of the path and the error message', () => {
    const created = entry({
      call: { method: 'GET', path: `/v2/users?x=${TOKEN}` },
      subjects: [
        { kind: 'user', userId: 'ops', identityProviderId: '' },
        { kind: 'user', userId: 'ops', identityProviderId: '' },
        { kind: 'party', party: '' },
        ...Array.from({ length: 80 }, (_, index) => ({
          kind: 'party' as const,
          party: `p${index}::1220`,
        })),
      ],
      before: { kind: 'unknown', reason: 'not loaded' },
      result: errorResult({ status: 401, body: { code: 'X', cause: `bad ${TOKEN}` } }),
    });
    expect(created.call.path).toBe('/v2/users?x=[token removed]');
    expect(created.subjects).toHaveLength(50);
    expect(created.subjects[0]).toEqual({ kind: 'user', userId: 'ops', identityProviderId: '' });
    expect(created.subjects[1]).toEqual({ kind: 'party', party: 'p0::1220' });
    expect(created.before).toEqual({ kind: 'unknown', reason: 'not loaded' });
    expect(created.after).toEqual({ kind: 'json', text: '{"id":"ops"}' });
    expect(created.result).toEqual({
      kind: 'error',
      code: 'X',
      message: 'bad [token removed]',
      status: 401,
    });
  });
});

describe('errorResult', () => {
  it('reads an API error: code, cause, status and correlation id', () => {
    expect(
      errorResult({
        status: 409,
        body: { code: 'USER_ALREADY_EXISTS', cause: 'exists', correlationId: 'c-1' },
      }),
    ).toEqual({
      kind: 'error',
      code: 'USER_ALREADY_EXISTS',
      message: 'exists',
      status: 409,
      correlationId: 'c-1',
    });
  });

  it('names a cancel and any other failure', () => {
    expect(errorResult(new DOMException('stopped', 'AbortError'))).toMatchObject({
      code: 'CANCELLED',
      status: 0,
    });
    expect(errorResult(new Error('boom'))).toMatchObject({
      code: 'UNKNOWN_ERROR',
      message: 'boom',
    });
  });
});

describe('the log', () => {
  it('keeps the newest entries first, up to the bound', () => {
    let log: ActivityEntry[] = [];
    for (let index = 0; index < 5; index += 1) {
      log = appendEntry(log, entry({ id: `e${index}` }), 3);
    }
    expect(log.map(({ id }) => id)).toEqual(['e4', 'e3', 'e2']);
  });

  it('reads back what it wrote and drops whatever is corrupt', () => {
    const good = entry();
    expect(parseLog(JSON.stringify([good]))).toEqual([good]);
    expect(parseLog('{not json')).toEqual([]);
    expect(parseLog('{"an":"object"}')).toEqual([]);
    expect(parseLog(null)).toEqual([]);
    expect(
      parseLog(
        JSON.stringify([
          { ...good, action: 'user.explode' },
          { ...good, subjects: [{ kind: 'user', userId: 1 }] },
          { ...good, result: { kind: 'error' } },
          good,
        ]),
      ),
    ).toEqual([good]);
  });
});

describe('reading', () => {
  const grant = entry({
    id: 'g',
    action: 'user.rights.grant',
    subjects: [
      { kind: 'user', userId: 'ops', identityProviderId: 'acme' },
      { kind: 'party', party: 'alice::1220' },
    ],
    result: errorResult({ status: 403, body: { code: 'PERMISSION_DENIED', cause: 'no' } }),
  });

  it('tells which entries concern a user (by id and IdP) or a party', () => {
    expect(concerns(grant, { kind: 'user', userId: 'ops', identityProviderId: 'acme' })).toBe(true);
    expect(concerns(grant, { kind: 'user', userId: 'ops', identityProviderId: '' })).toBe(false);
    expect(concerns(grant, { kind: 'party', party: 'alice::1220' })).toBe(true);
    expect(concerns(grant, { kind: 'party', party: 'alice' })).toBe(false);
  });

  it('filters by action, result and part of a subject', () => {
    expect(matchesFilter(grant, NO_FILTER)).toBe(true);
    expect(matchesFilter(grant, { ...NO_FILTER, action: 'user.create' })).toBe(false);
    expect(matchesFilter(grant, { ...NO_FILTER, result: 'ok' })).toBe(false);
    expect(matchesFilter(grant, { ...NO_FILTER, result: 'error' })).toBe(true);
    expect(matchesFilter(grant, { ...NO_FILTER, subject: 'ALICE' })).toBe(true);
    expect(matchesFilter(grant, { ...NO_FILTER, subject: 'bob' })).toBe(false);
  });

  it('exports rows with every field, and JSON with the entries as stored', () => {
    expect(activityCsvRows([grant])).toEqual([
      [
        '2026-11-23T10:00:00.000Z',
        'participant_admin',
        'participant1::1220ab',
        'user.rights.grant',
        'POST',
        '/v2/users',
        'user:ops (acme) party:alice::1220',
        'PERMISSION_DENIED',
        '403',
        'no',
        '',
        '',
        '{"id":"ops"}',
      ],
    ]);
    expect(JSON.parse(activityJson([grant]))).toEqual({
      format: 'ledger-console.activity-log',
      version: 1,
      entries: [grant],
    });
  });
});

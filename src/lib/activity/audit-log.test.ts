import type { AuditEntry } from '@ledger-console/edge/console-api';
import { describe, expect, it } from 'vitest';
import { createEntry, errorResult, type ActivityEntry } from './activity-log';
import {
  appendAuditFilter,
  auditActorLabel,
  auditCsvRows,
  auditJson,
  auditResultLabel,
  auditScopeText,
  auditStoreText,
  NO_AUDIT_FILTER,
  pairBrowserEntries,
  parseAuditFilter,
  toAuditQuery,
} from './audit-log';

function audit(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: '1',
    at: '2026-05-01T10:00:01.000Z',
    participant: 'participant1::1220',
    actor: {
      issuer: 'https://login.example',
      subject: 'sub-1',
      userId: 'admin',
      identityProviderId: '',
      authenticated: true,
    },
    action: 'user.create',
    method: 'POST',
    path: '/v2/users',
    resource: 'ops',
    summary: 'user ops',
    status: 200,
    errorCode: null,
    durationMs: 12,
    ...overrides,
  };
}

function local(id: string, at: string, overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    ...createEntry({
      id,
      at,
      actor: { kind: 'user', userId: 'admin', identityProviderId: '' },
      participantId: 'participant1::1220',
      action: 'user.create',
      call: { method: 'POST', path: '/v2/users' },
      subjects: [],
      before: { kind: 'none' },
      after: { kind: 'value', value: { id } },
      result: { kind: 'ok' },
    }),
    ...overrides,
  };
}

describe('audit log filters', () => {
  it('round-trips through search params and drops what is unknown or too long', () => {
    const filter = {
      ...NO_AUDIT_FILTER,
      window: 'custom' as const,
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-02T00:00:00.000Z',
      actor: 'alice',
      action: 'user.delete' as const,
      outcome: 'failed' as const,
      text: 'ops',
    };
    const params = appendAuditFilter(new URLSearchParams(), filter);
    expect(parseAuditFilter(params)).toEqual(filter);
    expect(appendAuditFilter(new URLSearchParams(), NO_AUDIT_FILTER).toString()).toBe('');

    const odd = parseAuditFilter(
      new URLSearchParams({
        window: 'forever',
        action: 'user.hack',
        outcome: 'maybe',
        text: 'x'.repeat(5000),
        from: 'yesterday',
      }),
    );
    expect(odd).toEqual({ ...NO_AUDIT_FILTER, text: 'x'.repeat(200) });
    // from/to only count for a custom window.
    expect(parseAuditFilter(new URLSearchParams({ window: '24h', from: filter.from })).from).toBe(
      '',
    );
  });

  it('asks for a relative window from its start rounded down to the minute, trimmed text', () => {
    const now = Date.parse('2026-05-01T10:30:45.500Z');
    expect(
      toAuditQuery({ ...NO_AUDIT_FILTER, window: '1h', actor: '  bob ', text: ' ' }, now),
    ).toEqual({ from: '2026-05-01T09:30:00.000Z', actor: 'bob' });
    expect(toAuditQuery({ ...NO_AUDIT_FILTER, window: '7d', outcome: 'ok' }, now)).toEqual({
      from: '2026-04-24T10:30:00.000Z',
      outcome: 'ok',
    });
    expect(toAuditQuery(NO_AUDIT_FILTER, now)).toEqual({});
  });
});

describe('reading audit entries', () => {
  it('names the actor the participant vouched for, and the result', () => {
    expect(auditActorLabel(audit().actor)).toBe('admin');
    expect(auditActorLabel({ ...audit().actor, identityProviderId: 'acme' })).toBe('admin (acme)');
    expect(auditActorLabel({ ...audit().actor, userId: null })).toBe('token of sub-1');
    expect(
      auditActorLabel({
        issuer: null,
        subject: null,
        userId: null,
        identityProviderId: null,
        authenticated: false,
      }),
    ).toBe('not authenticated');
    expect(auditResultLabel(audit())).toBe('ok');
    expect(auditResultLabel(audit({ status: 409, errorCode: 'USER_ALREADY_EXISTS' }))).toBe(
      'USER_ALREADY_EXISTS',
    );
    expect(auditResultLabel(audit({ status: 0 }))).toBe('no answer');
    expect(auditResultLabel(audit({ status: 502 }))).toBe('HTTP 502');
  });

  it('says whose entries the caller sees and where the log is kept', () => {
    expect(auditScopeText({ scope: 'all', identityProviderId: null })).toMatch(/all entries/);
    expect(auditScopeText({ scope: 'identity-provider', identityProviderId: 'acme' })).toMatch(
      /identity provider acme/,
    );
    expect(auditScopeText({ scope: 'own', identityProviderId: null })).toMatch(/your own/);
    const memory = auditStoreText({
      store: 'memory',
      retention: { days: null, maxEntries: 10000 },
    });
    expect(memory).toMatch(/lost when the server restarts/);
    expect(memory).toMatch(/--data-dir/);
    expect(memory).toMatch(/--audit-db/);
    expect(memory).toMatch(/at most 10,000 entries/);
    expect(auditStoreText({ store: 'file', retention: { days: 1, maxEntries: null } })).toBe(
      'Kept in a database file of the console server. Entries are kept for 1 day.',
    );
  });
});

describe("pairing audit entries with this browser's", () => {
  it('pairs the same call by method, path, outcome and time, nearest first, each once', () => {
    const first = local('a', '2026-05-01T10:00:00.500Z');
    const second = local('b', '2026-05-01T10:00:02.000Z');
    const pairs = pairBrowserEntries(
      [audit({ id: '2', at: '2026-05-01T10:00:02.100Z' }), audit({ id: '1' })],
      [second, first],
    );
    expect(pairs.get('1')?.id).toBe('a');
    expect(pairs.get('2')?.id).toBe('b');
  });

  it("pairs with the server's answer after the call, not an earlier call of someone else", () => {
    const mine = local('m', '2026-05-01T10:00:02.000Z');
    // A colleague's identical call answered just before this browser's began.
    const pairs = pairBrowserEntries(
      [
        audit({ id: 'theirs', at: '2026-05-01T10:00:01.000Z' }),
        audit({ id: 'mine', at: '2026-05-01T10:00:02.700Z' }),
      ],
      [mine],
    );
    expect([...pairs].map(([id, entry]) => [id, entry.id])).toEqual([['mine', 'm']]);
    // The resource tells calls on other subjects apart; a party's hint names its party.
    const party = local('p', '2026-05-01T10:00:00.500Z', {
      call: { method: 'POST', path: '/v2/parties' },
      subjects: [{ kind: 'party', party: 'Dana::1220ab' }],
    });
    const allocation = audit({ action: 'party.allocate', path: '/v2/parties', resource: 'Dana' });
    expect(pairBrowserEntries([allocation], [party]).get('1')?.id).toBe('p');
    expect(pairBrowserEntries([{ ...allocation, resource: 'Erin' }], [party]).size).toBe(0);
  });

  it('leaves calls unpaired that another browser, another path or another outcome made', () => {
    const failed = local('f', '2026-05-01T10:00:00.500Z', {
      result: errorResult({ status: 409, body: { code: 'USER_ALREADY_EXISTS', cause: 'taken' } }),
    });
    const elsewhere = local('e', '2026-05-01T10:00:00.500Z', {
      call: { method: 'POST', path: '/v2/parties' },
    });
    const someoneElse = local('s', '2026-05-01T10:00:00.500Z', {
      actor: { kind: 'user', userId: 'bob', identityProviderId: '' },
    });
    const long = local('l', '2026-05-01T09:50:00.000Z');
    expect(pairBrowserEntries([audit()], [failed, elsewhere, someoneElse, long]).size).toBe(0);
    // The failure pairs with the failed server entry of the same status.
    expect(
      pairBrowserEntries([audit({ status: 409, errorCode: 'USER_ALREADY_EXISTS' })], [failed]).get(
        '1',
      )?.id,
    ).toBe('f');
  });
});

describe('audit export', () => {
  it('writes absolute times and every field, and a JSON file that says whether it is complete', () => {
    const [row] = auditCsvRows([audit({ summary: '=cmd|calc', errorCode: null })]);
    expect(row).toEqual([
      '2026-05-01T10:00:01.000Z',
      'participant1::1220',
      'admin',
      '',
      'https://login.example',
      'sub-1',
      true,
      'user.create',
      'POST',
      '/v2/users',
      'ops',
      '=cmd|calc',
      200,
      '',
      12,
    ]);
    const json = JSON.parse(
      auditJson(
        { entries: [audit()], isTruncated: true },
        { outcome: 'ok' },
        new Date('2026-05-02T00:00:00Z'),
      ),
    ) as Record<string, unknown>;
    expect(json).toMatchObject({
      format: 'ledger-console.audit-log',
      exportedAt: '2026-05-02T00:00:00.000Z',
      filter: { outcome: 'ok' },
      isTruncated: true,
      entries: [{ id: '1', at: '2026-05-01T10:00:01.000Z' }],
    });
  });
});

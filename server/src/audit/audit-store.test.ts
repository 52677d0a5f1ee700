import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditStore, type AuditRecord } from './audit-store';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-06-01T12:00:00Z');

function record(resource: string, atMs: number, userId: string | null = 'ann'): AuditRecord {
  return {
    at: new Date(atMs).toISOString(),
    participant: 'participant1::1220',
    participantName: 'participant1',
    actor: {
      issuer: null,
      subject: userId,
      userId,
      identityProviderId: userId === null ? null : '',
      authenticated: userId !== null,
    },
    action: 'user.create',
    method: 'POST',
    path: '/v2/users',
    resource,
    summary: '',
    status: 200,
    errorCode: null,
    durationMs: 3,
  };
}

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('AuditStore', () => {
  it('prunes by age and by count, oldest first', async () => {
    const store = await AuditStore.open({ kind: 'memory' });
    await store.append([
      record('old-1', NOW - 40 * DAY_MS),
      record('old-2', NOW - 31 * DAY_MS),
      ...Array.from({ length: 8 }, (_, i) => record(`new-${String(i)}`, NOW - i * 1000)),
    ]);
    expect(await store.prune({ days: 30, maxEntries: null }, NOW)).toBe(2);
    expect(await store.prune({ days: 30, maxEntries: 5 }, NOW)).toBe(3);
    const { entries } = await store.page({ kind: 'all' }, {}, 100);
    expect(entries.map((entry) => entry.resource)).toEqual([
      'new-7',
      'new-6',
      'new-5',
      'new-4',
      'new-3',
    ]);
    expect(await store.prune({ days: null, maxEntries: null }, NOW)).toBe(0);
    store.close();
  });

  it('never reuses an id, so paging stays right across pruning', async () => {
    const store = await AuditStore.open({ kind: 'memory' });
    await store.append([record('a', NOW), record('b', NOW)]);
    await store.prune({ days: null, maxEntries: 0 + 1 }, NOW);
    await store.append([record('c', NOW)]);
    const ids = (await store.page({ kind: 'all' }, {}, 10)).entries.map((entry) => entry.id);
    expect(ids).toEqual(['3', '2']);
    store.close();
  });

  it('refuses a store written by a newer schema rather than misread it', async () => {
    dir = path.join(tmpdir(), `audit-store-${randomBytes(4).toString('hex')}`);
    const file = path.join(dir, 'audit.db');
    (await AuditStore.open({ kind: 'file', path: file })).close();
    const client = createClient({ url: `file:${file}` });
    await client.execute("update audit_meta set value = '2' where key = 'schema_version'");
    client.close();
    await expect(AuditStore.open({ kind: 'file', path: file })).rejects.toThrow(
      "the audit log's schema version is 2, this console reads 1",
    );
  });

  it('scopes reads to an identity provider or one user', async () => {
    const store = await AuditStore.open({ kind: 'memory' });
    const acme = {
      ...record('by-acme', NOW, 'bea'),
      actor: { ...record('', NOW, 'bea').actor, identityProviderId: 'acme' },
    };
    await store.append([record('by-ann', NOW), acme, record('anonymous', NOW, null)]);
    const read = async (scope: Parameters<AuditStore['page']>[0]) =>
      (await store.page(scope, {}, 10)).entries.map((entry) => entry.resource);
    expect(await read({ kind: 'all' })).toEqual(['anonymous', 'by-acme', 'by-ann']);
    expect(await read({ kind: 'identity-provider', identityProviderId: 'acme' })).toEqual([
      'by-acme',
    ]);
    expect(await read({ kind: 'own', userId: 'ann' })).toEqual(['by-ann']);
    store.close();
  });

  it('adds the participant name to a store from before names, and reads per participant', async () => {
    dir = path.join(tmpdir(), `audit-store-${randomBytes(4).toString('hex')}`);
    const file = path.join(dir, 'audit.db');
    (await AuditStore.open({ kind: 'file', path: file })).close();
    // The table as the first console version wrote it, with one of its entries.
    const client = createClient({ url: `file:${file}` });
    await client.execute('alter table audit_entries drop column participant_name');
    await client.execute(
      `insert into audit_entries (at, at_ms, participant, actor_authenticated, action, method, path, summary, status, duration_ms)
       values ('2026-06-01T11:00:00.000Z', ${String(NOW - 3_600_000)}, 'sandbox::1220', 0, 'user.create', 'POST', '/v2/users', '', 200, 1)`,
    );
    client.close();

    const store = await AuditStore.open({ kind: 'file', path: file });
    await store.append([
      record('on-first', NOW),
      { ...record('on-second', NOW), participantName: 'participant2' },
    ]);
    const read = async (participant?: { name: string; orUnnamed: boolean }) =>
      (await store.page({ kind: 'all' }, participant ? { participant } : {}, 10)).entries.map(
        (entry) => [entry.resource, entry.participantName],
      );
    expect(await read()).toEqual([
      ['on-second', 'participant2'],
      ['on-first', 'participant1'],
      [null, null],
    ]);
    expect(await read({ name: 'participant1', orUnnamed: true })).toEqual([
      ['on-first', 'participant1'],
      [null, null],
    ]);
    expect(await read({ name: 'participant2', orUnnamed: false })).toEqual([
      ['on-second', 'participant2'],
    ]);
    store.close();
    // Opened again (a second console on the file): the column is there, nothing is added twice.
    (await AuditStore.open({ kind: 'file', path: file })).close();
  });
});

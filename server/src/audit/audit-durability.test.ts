import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src/index';
import {
  callLedger,
  newUser,
  readAudit,
  startAuditedConsole,
  tinyDist,
  type AuditedConsole,
} from './audit-testing';

// The audit log's file store over real HTTP, in front of a sandbox without auth (every caller is
// a participant admin there): restarts, two consoles on one file, and a store that fails.

let distDir: string;
let sandbox: RunningSandbox;
let dir: string;
const open: AuditedConsole[] = [];

beforeAll(async () => {
  distDir = await tinyDist();
  sandbox = await startSandbox({ port: 0, quiet: true });
}, 30_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
  await rm(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await sandbox.close();
  await rm(distDir, { recursive: true, force: true });
});

async function consoleOn(
  file: string,
  retryMinMs = 50,
  commitWaitMs?: number,
): Promise<AuditedConsole> {
  const app = await startAuditedConsole(distDir, sandbox.url, {
    location: { kind: 'file', path: file },
    retryMinMs,
    ...(commitWaitMs === undefined ? {} : { commitWaitMs }),
  });
  open.push(app);
  return app;
}

const fresh = async () => {
  dir = path.join(tmpdir(), `ledger-console-audit-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  return path.join(dir, 'audit.db');
};

const resources = async (app: AuditedConsole) =>
  (await readAudit(app.url, null, { pageSize: '500' })).page.entries.map((entry) => entry.resource);

describe('the file store', () => {
  it('keeps its entries across a restart', async () => {
    const file = await fresh();
    const first = await consoleOn(file);
    for (const id of ['restart-a', 'restart-b']) {
      expect((await callLedger(first.url, 'POST', '/v2/users', null, newUser(id))).status).toBe(
        200,
      );
    }
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await consoleOn(file);
    expect(await resources(second)).toEqual(['restart-b', 'restart-a']);
    expect((await callLedger(second.url, 'DELETE', '/v2/users/restart-a', null)).status).toBe(200);
    expect(await resources(second)).toEqual(['restart-a', 'restart-b', 'restart-a']);
  });

  it('is shared by two consoles on one file: each sees what the other recorded', async () => {
    const file = await fresh();
    const [left, right] = [await consoleOn(file), await consoleOn(file)];
    // Interleaved and concurrent: both write the same file at once.
    await Promise.all(
      ['shared-1', 'shared-2', 'shared-3', 'shared-4'].map((id, index) =>
        callLedger((index % 2 === 0 ? left : right).url, 'POST', '/v2/users', null, newUser(id)),
      ),
    );
    const fromLeft = await resources(left);
    expect([...fromLeft].sort()).toEqual(['shared-1', 'shared-2', 'shared-3', 'shared-4']);
    expect(await resources(right)).toEqual(fromLeft);
  });

  it('refuses to change an entry: the table is append-only', async () => {
    const file = await fresh();
    const app = await consoleOn(file);
    await callLedger(app.url, 'POST', '/v2/users', null, newUser('append-only'));
    const { createClient } = await import('@libsql/client');
    const client = createClient({ url: `file:${file}` });
    try {
      await expect(client.execute('update audit_entries set status = 200')).rejects.toThrow(
        /append-only/,
      );
    } finally {
      client.close();
    }
    expect(await resources(app)).toEqual(['append-only']);
  });
});

describe('a failing store', () => {
  it('never holds a call, says so on /readyz, and writes the entries once it works again', async () => {
    const file = await fresh();
    await writeFile(
      file,
      'this is not a SQLite database, but it is where the log should be\n'.repeat(100),
    );
    // A commit wait longer than the test's own timeout: were a failing store waited for, the
    // call below would not answer in time and the test would fail, on any machine's speed.
    const app = await consoleOn(file, 100, 60_000);

    const call = await callLedger(app.url, 'POST', '/v2/users', null, newUser('while-failing'));
    expect(call.status).toBe(200);

    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    const text = await ready.text();
    expect(text).toMatch(
      /^\[\+\] ledger ok \(SERVING\)\n\[-\] console audit log failing: .+\(1 entries waiting to be written\)\nreadyz check failed\n$/,
    );
    expect(app.log.health()).toMatchObject({ ok: false, waiting: 1, dropped: 0 });
    const reading = await readAudit(app.url, null);
    expect(reading.status).toBe(503);
    expect(JSON.parse(reading.body)).toMatchObject({
      code: 'LEDGER_CONSOLE_AUDIT_LOG_UNAVAILABLE',
    });

    // The operator moves the broken file away: the next retry creates the store and writes.
    await rm(file);
    await expect
      .poll(() => app.log.health(), { timeout: 10_000, interval: 100 })
      .toEqual({ ok: true });
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    expect(await resources(app)).toEqual(['while-failing']);
  }, 30_000);

  it('answers within the commit wait while another writer holds the file, and writes after', async () => {
    const file = await fresh();
    const app = await consoleOn(file, 100);
    const { createClient } = await import('@libsql/client');
    const other = createClient({ url: `file:${file}` });
    const lock = await other.transaction('write');
    await lock.execute("insert into audit_meta (key, value) values ('held', 'by another writer')");
    try {
      // The other writer keeps its lock until this call has answered, so an answer at all shows
      // the hold ended at the commit wait, not at the commit.
      const call = await callLedger(app.url, 'POST', '/v2/users', null, newUser('while-locked'));
      expect(call.status).toBe(200);
    } finally {
      await lock.rollback();
      other.close();
    }
    await expect
      .poll(() => resources(app), { timeout: 10_000, interval: 100 })
      .toEqual(['while-locked']);
    expect(app.log.health()).toEqual({ ok: true });
  });

  it('keeps a bounded queue and counts what it had to drop', async () => {
    const file = await fresh();
    await writeFile(file, 'not a database'.repeat(1000));
    const app = await startAuditedConsole(distDir, sandbox.url, {
      location: { kind: 'file', path: file },
      retryMinMs: 60_000,
      maxQueued: 2,
    });
    open.push(app);
    for (const id of ['q-1', 'q-2', 'q-3']) {
      expect((await callLedger(app.url, 'POST', '/v2/users', null, newUser(id))).status).toBe(200);
    }
    expect(app.log.health()).toMatchObject({ ok: false, waiting: 2, dropped: 1 });
    expect(await (await fetch(`${app.url}/readyz`)).text()).toContain(
      '(2 entries waiting to be written, 1 dropped since start)',
    );
  });
});

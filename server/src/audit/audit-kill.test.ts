import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditEntry } from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../ensure-build';
import { callLedger, newUser, readAudit } from './audit-testing';

// The real `npm start` process, killed with SIGKILL in the middle of a burst of writes: every call
// whose answer reached its client must be in the audit log after a restart on the same --data-dir.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CALLS = 240;
const CONCURRENCY = 12;
const KILL_AFTER_ACKNOWLEDGED = 60;

let dataDir: string;
const children: ChildProcess[] = [];

/** Starts `tsx server/src/main.ts` and resolves with its URL once it says it listens. */
function startConsole(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    TSX,
    ['server/src/main.ts', '--port', '0', '--seed', 'none', '--data-dir', dataDir],
    // Its own process group: tsx runs the server in a child process, and SIGKILL reaches both.
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`the console did not start within 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Ledger Console: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the console exited (${String(code)}) before it listened:\n${output}`));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `ledger-console-kill-${randomBytes(4).toString('hex')}`);
  // Built here, once, so the consoles below start without building.
  await ensureBuilt(ROOT, () => undefined);
}, 240_000);

afterAll(async () => {
  for (const child of children) killGroup(child, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('kill -9 during a burst of audited writes', () => {
  it('loses no entry whose call was acknowledged', async () => {
    const first = await startConsole();
    const acknowledged: string[] = [];
    let next = 0;
    const state = { killed: false };
    // Once, in the middle of the burst: the other workers' calls are still in flight.
    const kill = () => {
      if (state.killed) return;
      state.killed = true;
      killGroup(first.child, 'SIGKILL');
    };
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    const worker = async () => {
      while (!state.killed && next < CALLS) {
        const id = `burst-${String(next)}`;
        next += 1;
        try {
          const call = await callLedger(first.url, 'POST', '/v2/users', null, newUser(id));
          if (call.status === 200) acknowledged.push(id);
        } catch {
          // Cut off by the kill: never acknowledged, so the log owes it nothing.
          return;
        }
        if (acknowledged.length >= KILL_AFTER_ACKNOWLEDGED) kill();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await exited;
    expect(state.killed).toBe(true);
    // Calls were still in flight when it died.
    expect(next).toBeGreaterThan(acknowledged.length);

    const second = await startConsole();
    const recorded: AuditEntry[] = [];
    let pageToken = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const { status, page } = await readAudit(second.url, null, {
        pageSize: '500',
        action: 'user.create',
        ...(pageToken ? { pageToken } : {}),
      });
      expect(status).toBe(200);
      recorded.push(...page.entries);
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    const kept = new Set(
      recorded.filter((entry) => entry.status === 200).map((entry) => entry.resource),
    );
    const lost = acknowledged.filter((id) => !kept.has(id));
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
    killGroup(second.child, 'SIGTERM');
  }, 180_000);
});

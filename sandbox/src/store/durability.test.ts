import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerState } from '../ledger-state';
import { defaultUser } from './users-store';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
  dirs.push(dir);
  return dir;
}

/** Starts `sandbox/src/main.ts` as its own process and resolves with its URL. */
function startProcess(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, '--port', '0', '--data-dir', dataDir, '--seed', 'none'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`sandbox did not start: ${output}`));
    }, 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${String(code)}: ${output}`));
    });
  });
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('--data-dir storage', () => {
  it('keeps every acknowledged change across kill -9', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const first = await startProcess(dir);
    const created = await post(`${first.url}/v2/users`, {
      user: { id: 'durable', primaryParty: 'P' },
      rights: [{ kind: { CanActAs: { value: { party: 'P' } } } }],
    });
    expect(created.status).toBe(200);
    const idp = await post(`${first.url}/v2/idps`, {
      identityProviderConfig: {
        identityProviderId: 'kept',
        issuer: 'iss',
        jwksUrl: 'https://x.example/jwks',
      },
    });
    expect(idp.status).toBe(200);
    const party = (await (
      await post(`${first.url}/v2/parties`, { partyIdHint: 'Kept' })
    ).json()) as {
      partyDetails: { party: string };
    };
    // No graceful shutdown: the process dies right after the last acknowledgement.
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startProcess(dir);
    const user = (await (await fetch(`${second.url}/v2/users/durable`)).json()) as {
      user: { primaryParty: string };
    };
    expect(user.user.primaryParty).toBe('P');
    const rights = (await (await fetch(`${second.url}/v2/users/durable/rights`)).json()) as {
      rights: unknown[];
    };
    expect(rights.rights).toEqual([{ kind: { CanActAs: { value: { party: 'P' } } } }]);
    expect((await fetch(`${second.url}/v2/idps/kept`)).status).toBe(200);
    const parties = (await (await fetch(`${second.url}/v2/parties`)).json()) as {
      partyDetails: { party: string }[];
    };
    expect(parties.partyDetails.map((p) => p.party)).toEqual([party.partyDetails.party]);
  });

  it(
    'keeps commands, contracts, history and change ids across kill -9',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const first = await startProcess(dir);
      const { partyDetails } = (await (
        await post(`${first.url}/v2/parties`, { partyIdHint: 'owner' })
      ).json()) as { partyDetails: { party: string } };
      const owner = partyDetails.party;
      const command = {
        commands: [
          {
            CreateCommand: {
              templateId: '#sandbox-demo:Demo.Iou:Iou',
              createArguments: {
                issuer: owner,
                owner,
                currency: 'CHF',
                amount: '7',
                observers: [],
              },
            },
          },
        ],
        commandId: 'durable-create',
        actAs: [owner],
        userId: 'participant_admin',
      };
      const created = await post(`${first.url}/v2/commands/submit-and-wait-for-transaction`, {
        commands: command,
      });
      expect(created.status).toBe(200);
      const { transaction } = (await created.json()) as {
        transaction: {
          updateId: string;
          offset: number;
          events: { CreatedEvent: { contractId: string } }[];
        };
      };
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));

      const second = await startProcess(dir);
      const end = (await (await fetch(`${second.url}/v2/state/ledger-end`)).json()) as {
        offset: number;
      };
      expect(end.offset).toBe(transaction.offset);
      const tree = await fetch(
        `${second.url}/v2/updates/transaction-tree-by-id/${transaction.updateId}?parties=${encodeURIComponent(owner)}`,
      );
      expect(tree.status).toBe(200);
      // The change id is remembered: the same command is a duplicate after the restart.
      const again = await post(`${second.url}/v2/commands/submit-and-wait`, command);
      expect(((await again.json()) as { code: string }).code).toBe('DUPLICATE_COMMAND');
      // The contract is still active and can be archived; the next offset follows the old ones.
      const contractId = transaction.events[0]?.CreatedEvent.contractId ?? '';
      const archived = await post(`${second.url}/v2/commands/submit-and-wait`, {
        ...command,
        commandId: 'durable-archive',
        commands: [
          {
            ExerciseCommand: {
              templateId: '#sandbox-demo:Demo.Iou:Iou',
              contractId,
              choice: 'Archive',
              choiceArgument: {},
            },
          },
        ],
      });
      expect(((await archived.json()) as { completionOffset: number }).completionOffset).toBe(
        transaction.offset + 1,
      );
    },
  );

  it('rolls back a multi-step change that fails half way, on disk too', () => {
    const dir = tempDir();
    const state = createLedgerState({ dataDir: dir });
    expect(() =>
      state.transaction(() => {
        state.users.insert(defaultUser('half'));
        state.users.addRights('half', [{ kind: 'CanActAs', party: 'p' }]);
        throw new Error('fails after the first two steps');
      }),
    ).toThrow('fails after the first two steps');
    expect(state.users.get('half')).toBeUndefined();
    state.close();
    const reopened = createLedgerState({ dataDir: dir });
    expect(reopened.users.get('half')).toBeUndefined();
    expect(reopened.users.rights('half')).toEqual([]);
    // participant_admin is created once, not again on reopen.
    expect(reopened.users.page('', '', 10).map((u) => u.id)).toEqual(['participant_admin']);
    reopened.close();
  });

  it('stores nothing of a user whose rights exceed the limit', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const running = await startProcess(dir);
    const rights = Array.from({ length: 1001 }, (_, i) => ({
      kind: { CanActAs: { value: { party: `p${String(i)}` } } },
    }));
    expect(
      (await post(`${running.url}/v2/users`, { user: { id: 'toomany' }, rights })).status,
    ).toBe(400);
    running.child.kill('SIGKILL');
    await new Promise((resolve) => running.child.once('exit', resolve));
    const state = createLedgerState({ dataDir: dir });
    expect(state.users.get('toomany')).toBeUndefined();
    expect(state.users.countRights('toomany')).toBe(0);
    state.close();
  });
});

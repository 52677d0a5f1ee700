import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../start-sandbox';
import { createTestSandbox, type TestSandbox } from '../testing/test-client';
import { DEMO_IDP, seedDemo } from './demo-seed';

let t: TestSandbox | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

class Interrupted extends Error {}

/**
 * What the demo consists of, without the ids the ledger draws at random: every user with its
 * rights, every party with its annotations, the IdPs, the history in offset order and the ACS.
 * A duplicate anywhere (a second transaction for a command, a party allocated twice) shows.
 */
async function demoContents(sandbox: TestSandbox) {
  const { state } = sandbox;
  const idps = (await sandbox.get('/v2/idps')).json;
  const users = ['', DEMO_IDP.identityProviderId].flatMap((idp) =>
    state.users.page(idp, '', 1000).map((user) => ({
      ...user,
      rights: state.users.rights(user.id).map((right) => `${right.kind} ${right.party}`),
    })),
  );
  const parties = (await sandbox.get('/v2/parties')).json;
  const end = state.ledger.ledgerEnd();
  const history = state.history.updates(0, end, 1000).map((update) =>
    update.kind === 'topology'
      ? { party: update.party }
      : update.kind === 'reassignment'
        ? { reassignmentId: update.reassignmentId }
        : {
            commandId: update.commandId,
            userId: update.userId,
            actAs: update.actAs,
            nodes: update.nodes.map((node) =>
              node.kind === 'create' ? node.templateId : `${node.templateId} ${node.choice}`,
            ),
          },
  );
  const acs = (
    await sandbox.post('/v2/state/active-contracts', {
      activeAtOffset: end,
      eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false },
    })
  ).json as {
    contractEntry: {
      JsActiveContract: { createdEvent: { templateId: string; createArgument: unknown } };
    };
  }[];
  const contracts = acs
    .map(({ contractEntry: { JsActiveContract: active } }) =>
      JSON.stringify([active.createdEvent.templateId, active.createdEvent.createArgument]),
    )
    .sort();
  return { idps, users, parties, end, history, contracts };
}

let reference: Awaited<ReturnType<typeof demoContents>> | undefined;
let referenceSteps: string[] = [];
async function cleanDemo() {
  if (reference === undefined) {
    const clean = createTestSandbox();
    try {
      const steps: string[] = [];
      await seedDemo(clean.sandbox, { afterStep: (step) => void steps.push(step) });
      referenceSteps = steps;
      reference = await demoContents(clean);
    } finally {
      clean.close();
    }
  }
  return { contents: reference, steps: referenceSteps };
}

describe('an interrupted demo seed', () => {
  it('is completed exactly once by the next run, whichever step it stopped after', async () => {
    const { contents, steps } = await cleanDemo();
    expect(steps[0]).toBe('idp');
    expect(steps).toContain('party:acme-treasury');
    expect(steps).toContain('user:acme-analyst');
    expect(steps.at(-1)).toBe('command:demo-seed-fanout-run');
    expect(contents.end).toBe(7 + 16);
    for (const stopAt of steps.slice(0, -1)) {
      t = createTestSandbox();
      const { sandbox } = t;
      await expect(
        seedDemo(sandbox, {
          afterStep: (step) => {
            if (step === stopAt) throw new Interrupted(step);
          },
        }),
      ).rejects.toBeInstanceOf(Interrupted);
      const resumed = await seedDemo(sandbox);
      expect(resumed, stopAt).toMatchObject({ seeded: true, resumed: true });
      expect(await demoContents(t), `stopped after ${stopAt}`).toEqual(contents);
      t.close();
      t = undefined;
    }
  }, 60_000);

  it('is not run again once finished, even when demo data was removed since', async () => {
    t = createTestSandbox();
    expect((await seedDemo(t.sandbox)).seeded).toBe(true);
    expect((await t.delete('/v2/users/bank-reader')).status).toBe(200);
    expect(await seedDemo(t.sandbox)).toEqual({
      seeded: false,
      reason: 'the demo seed already ran',
    });
    expect((await t.get('/v2/users/bank-reader')).status).toBe(404);
  });

  it('survives kill -9 of a sandbox process and is completed on restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-seed-kill-'));
    try {
      // A real process on the data dir, held after its fifth transaction, then killed outright.
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'sandbox/src/main.ts',
          '--data-dir',
          dataDir,
          '--seed',
          'demo',
          '--port',
          '0',
        ],
        {
          cwd: fileURLToPath(new URL('../../..', import.meta.url)),
          env: { ...process.env, SANDBOX_SEED_PAUSE_AFTER: 'command:demo-seed-alice-split' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      const paused = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          resolve(false);
        }, 30_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Demo seed paused after command:demo-seed-alice-split')) {
            clearTimeout(timer);
            resolve(true);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(paused, output).toBe(true);
      // The default port was never bound: the seed runs before listening.
      expect(output).not.toContain('listening');

      const restarted = await startSandbox({ port: 0, quiet: true, dataDir, seed: 'demo' });
      expect(restarted).toMatchObject({ seeded: true, seedResumed: true });
      await restarted.close();

      // The third run finds a finished seed, and what is there equals a clean seed.
      const third = await startSandbox({ port: 0, quiet: true, dataDir, seed: 'demo' });
      expect(third).toMatchObject({ seeded: false, seedResumed: false });
      await third.close();
      t = createTestSandbox({ dataDir });
      expect(await demoContents(t)).toEqual((await cleanDemo()).contents);
    } finally {
      t?.close();
      t = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSandboxArgs } from '../cli-options';
import { fanoutNodes } from '../ledger/demo-package';
import { startSandbox } from '../start-sandbox';
import { fingerprintOf } from '../synchronizers';
import { TEST_SECRET, hs256Token } from '../testing/tokens';
import { createTestSandbox, type TestSandbox } from '../testing/test-client';
import { DEMO_IDP, seedDemo } from './demo-seed';

let t: TestSandbox | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

type TreeEvent = {
  CreatedTreeEvent?: { value: { templateId: string } };
  ExercisedTreeEvent?: { value: { choice: string } };
};

describe('seedDemo', () => {
  it('fills an empty participant with parties, an extra IdP, users and history', async () => {
    t = createTestSandbox();
    const result = await seedDemo(t.sandbox);
    expect(result.seeded).toBe(true);
    if (!result.seeded) return;

    // Parties: hints become <hint>::<namespace>; acme parties belong to the acme IdP.
    const { partyDetails } = (await t.get('/v2/parties')).json as {
      partyDetails: { party: string }[];
    };
    expect(partyDetails.map((party) => party.party.split('::')[0]).sort()).toEqual([
      'acme-trader',
      'acme-treasury',
      'alice',
      'auditor',
      'bank',
      'bob',
      'carol',
    ]);
    expect(result.parties.alice).toBe(`alice::${t.state.namespace}`);
    const acmeParty = await t.get(
      `/v2/parties/${encodeURIComponent(result.parties.acmeTrader)}?identity-provider-id=acme-idp`,
    );
    expect(acmeParty.json.partyDetails[0]).toMatchObject({ identityProviderId: 'acme-idp' });

    // The second IdP, exactly as configured.
    expect((await t.get('/v2/idps')).json).toEqual({ identityProviderConfigs: [DEMO_IDP] });

    // Users with varied rights; the list shows the caller's IdP (the default) only (§2.1).
    const { users } = (await t.get('/v2/users?pageSize=100')).json as {
      users: { id: string; isDeactivated: boolean }[];
    };
    const acmeUsers = ['acme-admin', 'acme-trader', 'acme-analyst'];
    expect(users.map((user) => user.id).sort()).toEqual(
      ['participant_admin', ...result.users.filter((id) => !acmeUsers.includes(id))].sort(),
    );
    expect(users.find((user) => user.id === 'former-employee')?.isDeactivated).toBe(true);
    for (const id of acmeUsers) {
      const { json } = await t.get(`/v2/users/${id}?identity-provider-id=acme-idp`);
      expect(json.user.identityProviderId).toBe('acme-idp');
    }
    expect((await t.get('/v2/users/auditor/rights')).json.rights).toEqual([
      { kind: { CanReadAsAnyParty: { value: {} } } },
    ]);
    expect((await t.get('/v2/users/ops-admin/rights')).json.rights).toEqual([
      { kind: { ParticipantAdmin: { value: {} } } },
    ]);
    const alice = (await t.get('/v2/users/alice.anderson')).json.user;
    expect(alice).toMatchObject({
      primaryParty: result.parties.alice,
      metadata: { annotations: { 'display-name': 'Alice Anderson' } },
    });

    // History: party allocations plus 16 transactions, and a non-empty ACS.
    const { offset: end } = (await t.get('/v2/state/ledger-end')).json as { offset: number };
    expect(end).toBe(result.ledgerEnd);
    expect(end).toBe(7 + 16);
    const acs = await t.post('/v2/state/active-contracts', {
      activeAtOffset: end,
      eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false },
    });
    const active = (
      acs.json as {
        contractEntry: { JsActiveContract: { createdEvent: { templateId: string } } };
      }[]
    ).map((entry) => entry.contractEntry.JsActiveContract.createdEvent.templateId);
    const count = (entity: string) => active.filter((id) => id.endsWith(entity)).length;
    expect(count(':Demo.Account:Account')).toBe(4);
    // alice 950 USD, bob 800 USD, acme-trader 400 EUR and 12500 CHF.
    expect(count(':Demo.Iou:Iou')).toBe(4);
    // The leaves of the width-2, depth-3 fanout.
    expect(count(':Demo.Fanout:Fanout')).toBe(8);

    // The fanout transaction is a tree of moderate size, as seen by its owner.
    const updates = t.state.history.updates(0, end, 100);
    const fanout = updates.find(
      (update) => update.kind === 'transaction' && update.commandId === 'demo-seed-fanout-run',
    );
    expect(fanout?.kind === 'transaction' ? fanout.nodes.length : 0).toBe(fanoutNodes(2, 3));
    const merge = updates.find(
      (update) => update.kind === 'transaction' && update.commandId === 'demo-seed-bob-merge',
    );
    // Exercise, fetch, archive of the other IOU, create: a tree of a few nodes.
    expect(merge?.kind === 'transaction' ? merge.nodes.length : 0).toBeGreaterThanOrEqual(3);
  });

  it('builds trees the transaction views can show', async () => {
    t = createTestSandbox();
    const result = await seedDemo(t.sandbox);
    if (!result.seeded) throw new Error(result.reason);
    // A fresh Fanout run by Alice, as the console would submit it: the seed left her able to.
    const { json } = await t.post('/v2/commands/submit-and-wait-for-transaction-tree', {
      commands: [
        {
          CreateAndExerciseCommand: {
            templateId: '#sandbox-demo:Demo.Fanout:Fanout',
            createArguments: { owner: result.parties.alice, label: 'check' },
            choice: 'Fanout_Run',
            choiceArgument: { width: '2', depth: '3' },
          },
        },
      ],
      commandId: 'after-seed',
      actAs: [result.parties.alice],
      userId: 'alice.anderson',
    });
    const events = Object.values(json.transactionTree.eventsById as Record<string, TreeEvent>);
    expect(events).toHaveLength(1 + fanoutNodes(2, 3));
  });

  it('works in jwt mode, with admin and user tokens it mints itself', async () => {
    t = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const result = await seedDemo(t.sandbox, { jwtSecret: TEST_SECRET });
    expect(result.seeded).toBe(true);
    if (!result.seeded) return;
    const admin = await hs256Token('participant_admin');
    const { users } = (await t.get('/v2/users?pageSize=100', { token: admin })).json as {
      users: { id: string }[];
    };
    // participant_admin and the nine seeded users of the default IdP.
    expect(users).toHaveLength(10);
    const ledgerEnd = await t.get('/v2/state/ledger-end', { token: admin });
    expect(ledgerEnd.json.offset).toBe(result.ledgerEnd);
    // The seeded users sign in with their own tokens.
    const me = await t.get('/v2/authenticated-user', { token: await hs256Token('alice.anderson') });
    expect(me.json.user.primaryParty).toBe(result.parties.alice);
    // Deactivated users cannot.
    expect(
      (await t.get('/v2/authenticated-user', { token: await hs256Token('former-employee') }))
        .status,
    ).toBe(403);
  });

  it('leaves a ledger that already has history or users alone', async () => {
    t = createTestSandbox();
    await t.post('/v2/parties', { partyIdHint: 'someone' });
    const before = t.state.ledger.ledgerEnd();
    expect(await seedDemo(t.sandbox)).toEqual({
      seeded: false,
      reason: `the ledger is not empty (ledger end ${String(before)})`,
    });
    expect(t.state.ledger.ledgerEnd()).toBe(before);
    t.close();

    t = createTestSandbox();
    await t.post('/v2/users', { user: { id: 'someone' } });
    expect(await seedDemo(t.sandbox)).toEqual({
      seeded: false,
      reason: 'the participant already has users or identity providers',
    });
    expect((await t.get('/v2/idps')).json.identityProviderConfigs).toEqual([]);
    t.close();

    t = createTestSandbox();
    const first = await seedDemo(t.sandbox);
    expect(first.seeded).toBe(true);
    expect((await seedDemo(t.sandbox)).seeded).toBe(false);
    expect(t.state.ledger.ledgerEnd()).toBe(first.seeded ? first.ledgerEnd : -1);
  });

  it('seeds a participant connected to several synchronizers on the first one', async () => {
    t = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    const result = await seedDemo(t.sandbox);
    expect(result.seeded).toBe(true);
    if (!result.seeded) return;
    const [alpha] = t.state.synchronizerIds;
    for (const party of Object.values(result.parties)) {
      expect(t.state.hostingSynchronizers(party)).toEqual([alpha]);
    }
  });

  it('connects a --data-dir sandbox to a synchronizer added in a later run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'synchronizers-'));
    try {
      t = createTestSandbox({ dataDir });
      const alice = (await t.post('/v2/parties', { partyIdHint: 'Alice' })).json.partyDetails
        .party as string;
      const local = t.state.synchronizerId;
      t.close();

      t = createTestSandbox({ dataDir, synchronizers: ['local', 'extra'] });
      const [first, extra = ''] = t.state.synchronizerIds;
      expect(first).toBe(local);
      expect(t.state.hostingSynchronizers(alice)).toEqual([local]);
      // The built-in package is vetted on the new synchronizer too, at serial 1 there.
      const { vettedPackages } = (await t.post('/v2/package-vetting/list', {})).json;
      expect(
        vettedPackages.map((entry: any) => [entry.synchronizerId, entry.topologySerial]),
      ).toEqual([
        [extra, 1],
        [local, 1],
      ]);
      t.close();

      // Back to one synchronizer: what was vetted on the other one is not listed.
      t = createTestSandbox({ dataDir });
      const again = (await t.post('/v2/package-vetting/list', {})).json.vettedPackages;
      expect(again.map((entry: any) => entry.synchronizerId)).toEqual([local]);
    } finally {
      t?.close();
      t = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('seeds a --data-dir sandbox once, not again after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-seed-'));
    try {
      const first = await startSandbox({ port: 0, quiet: true, dataDir, seed: 'demo' });
      const end = async (url: string) => {
        const response = await fetch(`${url}/v2/users?pageSize=100`);
        return ((await response.json()) as { users: unknown[] }).users.length;
      };
      const usersAfterSeed = await end(first.url);
      expect(usersAfterSeed).toBeGreaterThan(1);
      await first.close();

      const second = await startSandbox({ port: 0, quiet: true, dataDir, seed: 'demo' });
      expect(await end(second.url)).toBe(usersAfterSeed);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts empty with seed none', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
    try {
      const { users } = (await (await fetch(`${sandbox.url}/v2/users`)).json()) as {
        users: { id: string }[];
      };
      expect(users.map((user) => user.id)).toEqual(['participant_admin']);
    } finally {
      await sandbox.close();
    }
  });
});

describe('npm run sandbox -- --synchronizers', () => {
  it('takes comma-separated aliases, and none by default', () => {
    expect(parseSandboxArgs([]).synchronizers).toBeUndefined();
    expect(parseSandboxArgs(['--synchronizers', 'a, b']).synchronizers).toEqual(['a', 'b']);
    expect(parseSandboxArgs(['--synchronizers', 'solo']).synchronizers).toEqual(['solo']);
    expect(() => parseSandboxArgs(['--synchronizers', 'a,a'])).toThrow(
      '--synchronizers: Synchronizer alias "a" is given twice',
    );
    expect(() => parseSandboxArgs(['--synchronizers', 'a::b'])).toThrow(
      '--synchronizers: Invalid synchronizer alias "a::b"',
    );
    expect(() => parseSandboxArgs(['--synchronizers', ''])).toThrow(
      'Invalid synchronizer alias ""',
    );
  });

  it('keeps the id of the default synchronizer', () => {
    t = createTestSandbox();
    expect(t.state.synchronizerIds).toEqual([t.state.synchronizerId]);
    expect(t.state.synchronizerId).toBe(
      `local::${fingerprintOf('ledger-console-sandbox/synchronizer/local')}`,
    );
    t.close();
    t = createTestSandbox({ synchronizers: ['local', 'other'] });
    expect(t.state.synchronizerIds).toEqual([
      `local::${fingerprintOf('ledger-console-sandbox/synchronizer/local')}`,
      `other::${fingerprintOf('ledger-console-sandbox/synchronizer/other')}`,
    ]);
  });
});

describe('npm run sandbox -- --seed', () => {
  it('defaults to demo, like npm start, and accepts none', () => {
    expect(parseSandboxArgs([]).seed).toBe('demo');
    expect(parseSandboxArgs(['--seed', 'none']).seed).toBe('none');
    expect(() => parseSandboxArgs(['--seed', 'full'])).toThrow(
      '--seed must be "demo" or "none", got "full"',
    );
  });
});

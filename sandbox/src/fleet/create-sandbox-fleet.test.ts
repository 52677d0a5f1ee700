import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDar } from '@ledger-console/participant/testing/fixture-dars';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onboardExternalParty } from '../scenarios/external-party';
import { createLedgerClient } from '../scenarios/ledger-client';
import { ACCOUNT, IOU, transactionsOf, wildcardFormat } from '../testing/ledger-history';
import { create, exercise, iou } from '../testing/json-commands';
import { expectError, testClientFor, type TestSandbox } from '../testing/test-client';
import { TEST_SECRET } from '../testing/tokens';
import { checkSchema } from '../testing/spec-conformance';
import { createSandboxFleet, type SandboxFleet } from './create-sandbox-fleet';

let fleet: SandboxFleet;
let p1: TestSandbox;
let p2: TestSandbox;
let commandNumber = 0;

beforeEach(() => {
  fleet = createSandboxFleet({ participants: 2 });
  [p1, p2] = fleet.participants.map(testClientFor) as [TestSandbox, TestSandbox];
});
afterEach(() => {
  fleet.close();
});

async function allocate(on: TestSandbox, hint: string): Promise<string> {
  const response = await on.post('/v2/parties', { partyIdHint: hint });
  expect(response.status, response.text).toBe(200);
  return response.json.partyDetails.party as string;
}

type TreeEvent = {
  CreatedTreeEvent?: { value: Record<string, any> };
  ExercisedTreeEvent?: { value: Record<string, any> };
};
type Tree = { updateId: string; offset: number; eventsById: Record<string, TreeEvent> };

async function submit(on: TestSandbox, actAs: string[], commands: unknown[]): Promise<Tree> {
  const response = await on.post('/v2/commands/submit-and-wait-for-transaction-tree', {
    commands,
    actAs,
    commandId: `fleet-${String(++commandNumber)}`,
    userId: 'participant_admin',
  });
  expect(response.status, response.text).toBe(200);
  return response.json.transactionTree as Tree;
}

/** What a participant shows of an update to everyone it hosts: a wildcard for any party. */
async function anyPartyView(on: TestSandbox, updateId: string) {
  const response = await on.post('/v2/updates/update-by-id', {
    updateId,
    updateFormat: {
      includeTransactions: {
        eventFormat: { filtersForAnyParty: wildcardFormat(['x']).filtersByParty.x, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    },
  });
  return response;
}

const nodeIdsOf = (transaction: { events: Record<string, { nodeId: number }>[] }) =>
  transaction.events.map((event) => Object.values(event)[0]?.nodeId);

const ledgerEnd = async (on: TestSandbox) =>
  (await on.get('/v2/state/ledger-end')).json.offset as number;

describe('createSandboxFleet', () => {
  it('runs participants with their own ids, users and parties, each party known to all', async () => {
    const [id1, id2] = await Promise.all(
      [p1, p2].map(async (on) => (await on.get('/v2/parties/participant-id')).json.participantId),
    );
    expect(id1).toMatch(/^participant1::1220[0-9a-f]{64}$/);
    expect(id2).toMatch(/^participant2::1220[0-9a-f]{64}$/);
    expect(fleet.participants.map((member) => member.name)).toEqual([
      'participant1',
      'participant2',
    ]);

    const alice = await allocate(p1, 'alice');
    const bob = await allocate(p2, 'bob');
    for (const [on, local] of [
      [p1, alice],
      [p2, bob],
    ] as const) {
      const listed = await on.get('/v2/parties');
      expect(listed.status).toBe(200);
      const parties = listed.json.partyDetails as { party: string; isLocal: boolean }[];
      expect(
        parties
          .filter((party) => [alice, bob].includes(party.party))
          .map((party) => [party.party, party.isLocal]),
      ).toEqual([alice, bob].sort().map((party) => [party, party === local]));
    }
    // The topology event of an allocation is only where the party is hosted.
    const topology = async (on: TestSandbox) =>
      (
        await on.post('/v2/updates', {
          beginExclusive: 0,
          updateFormat: {
            includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } },
          },
        })
      ).json.map(
        (element: any) =>
          element.update.TopologyTransaction.value.events[0].event.ParticipantAuthorizationAdded
            .value.partyId as string,
      );
    expect(await topology(p1)).toEqual([alice]);
    expect(await topology(p2)).toEqual([bob]);

    // Users are the participant's own.
    const user = await p1.post('/v2/users', { user: { id: 'only-on-1', primaryParty: alice } });
    expect(user.status, user.text).toBe(200);
    expect((await p1.get('/v2/users/only-on-1')).status).toBe(200);
    expectError(await p2.get('/v2/users/only-on-1'), 404, 'USER_NOT_FOUND');
  });

  it('delivers a transaction to the participant of an observer, with the same update id at its own offset', async () => {
    await allocate(p1, 'bank');
    const alice = await allocate(p1, 'alice');
    const bob = await allocate(p2, 'bob');
    const created = await submit(p1, [alice], [create(IOU, iou(alice, bob, '10'))]);
    expect(created.offset).toBe(3);

    const onP2 = await p2.post('/v2/updates', {
      beginExclusive: 0,
      updateFormat: transactionsOf([bob]),
    });
    expect(onP2.status).toBe(200);
    expect(onP2.json).toHaveLength(1);
    const seen = onP2.json[0].update.Transaction.value;
    expect(seen.updateId).toBe(created.updateId);
    expect(seen.offset).toBe(2);
    // The command id is the submitting participant's: the other one never learns it.
    expect(seen.commandId).toBe('');
    expect(await ledgerEnd(p2)).toBe(2);
    const [contract] = Object.values(created.eventsById);
    const contractId = contract?.CreatedTreeEvent?.value.contractId as string;
    expect(seen.events[0].CreatedEvent.contractId).toBe(contractId);

    // Record time and synchronizer are the synchronizer's, so equal on both.
    const onP1 = await p1.post('/v2/updates/update-by-id', {
      updateId: created.updateId,
      updateFormat: transactionsOf([alice]),
    });
    expect(onP1.json.update.Transaction.value.recordTime).toBe(seen.recordTime);
    expect(onP1.json.update.Transaction.value.synchronizerId).toBe(seen.synchronizerId);

    // Bob's active contracts on participant2, and the contract by id there.
    const acs = await p2.post('/v2/state/active-contracts', {
      activeAtOffset: 2,
      eventFormat: wildcardFormat([bob]),
    });
    expect(acs.status).toBe(200);
    expect(
      acs.json.map(
        (element: any) => element.contractEntry.JsActiveContract.createdEvent.contractId as string,
      ),
    ).toEqual([contractId]);
    const byId = await p2.post('/v2/contracts/contract-by-id', {
      contractId,
      queryingParties: [bob],
    });
    expect(byId.status, byId.text).toBe(200);

    // Bob exercises from participant2; alice's participant gets the archival and the new Iou.
    const transferred = await submit(
      p2,
      [bob],
      [exercise(IOU, contractId, 'Iou_Transfer', { newOwner: alice })],
    );
    expect(transferred.offset).toBe(3);
    const backOnP1 = await p1.post('/v2/updates/update-by-id', {
      updateId: transferred.updateId,
      updateFormat: transactionsOf([alice]),
    });
    expect(backOnP1.status, backOnP1.text).toBe(200);
    expect(backOnP1.json.update.Transaction.value.offset).toBe(4);
    const aliceAcs = await p1.post('/v2/state/active-contracts', {
      activeAtOffset: 4,
      eventFormat: wildcardFormat([alice]),
    });
    expect(aliceAcs.json).toHaveLength(1);
    expect(aliceAcs.json[0].contractEntry.JsActiveContract.createdEvent.contractId).not.toBe(
      contractId,
    );

    // Completions: only on the submitting participant.
    const completions = async (on: TestSandbox, party: string) =>
      (
        await on.post('/v2/commands/completions', {
          userId: 'participant_admin',
          parties: [party],
          beginExclusive: 0,
        })
      ).json.length as number;
    expect(await completions(p1, alice)).toBe(1);
    expect(await completions(p2, bob)).toBe(1);
  });

  it('delivers only the nodes a participant witnesses, with their node ids', async () => {
    const bank = await allocate(p1, 'bank');
    const bob = await allocate(p2, 'bob');
    const carol = await allocate(p1, 'carol');
    await submit(p1, [bank], [create(ACCOUNT, { bank, owner: bob, number: 'B-1' })]);
    const account = (await ledgerEnd(p1)) > 0 ? await accountId(p1, bank) : '';
    // Account_Issue is non-consuming: its informees are the bank alone, while the Iou it
    // creates is bob's too, so participant2 sees the nested create and not its parent.
    const issued = await submit(
      p1,
      [bank],
      [exercise(ACCOUNT, account, 'Account_Issue', { currency: 'USD', amount: '5' })],
    );
    const full = await anyPartyView(p1, issued.updateId);
    expect(full.status).toBe(200);
    const p1Nodes = nodeIdsOf(full.json.update.Transaction.value);
    const projection = await anyPartyView(p2, issued.updateId);
    expect(projection.status, projection.text).toBe(200);
    const p2Events = projection.json.update.Transaction.value.events as Record<string, any>[];
    expect(p2Events.map((event) => Object.keys(event)[0])).toEqual(['CreatedEvent']);
    const [p2Node] = nodeIdsOf(projection.json.update.Transaction.value);
    expect(p1Nodes).toEqual([0, p2Node]);
    expect(p2Node).toBeGreaterThan(0);

    // A transaction among participant1's parties alone reaches nobody else.
    const before = await ledgerEnd(p2);
    const private_ = await submit(p1, [carol], [create(IOU, iou(carol, carol))]);
    expect(await ledgerEnd(p2)).toBe(before);
    expectError(await anyPartyView(p2, private_.updateId), 404, 'UPDATE_NOT_FOUND');
  });

  it('refuses a submission as a party another participant hosts', async () => {
    const alice = await allocate(p1, 'alice');
    const refused = await p2.post('/v2/commands/submit-and-wait', {
      commands: [create(IOU, iou(alice, alice))],
      actAs: [alice],
      commandId: 'foreign',
      userId: 'participant_admin',
    });
    expectError(refused, 404, 'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT');
  });
});

async function accountId(on: TestSandbox, bank: string): Promise<string> {
  const acs = await on.post('/v2/state/active-contracts', {
    activeAtOffset: await ledgerEnd(on),
    eventFormat: wildcardFormat([bank]),
  });
  const account = (acs.json as any[]).find((element) =>
    String(element.contractEntry.JsActiveContract.createdEvent.templateId).endsWith(
      ':Demo.Account:Account',
    ),
  );
  return account.contractEntry.JsActiveContract.createdEvent.contractId as string;
}

describe('external parties hosted on several participants', () => {
  it('makes the party local, with its topology event, on each participant its hosting names', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const client = createLedgerClient({ transport: (request) => p1.sandbox.fetch(request) });
    const { partyId } = await onboardExternalParty(client, 'wallet', privateKey, {
      observingParticipantUids: [p2.state.participantId],
    });
    for (const on of [p1, p2]) {
      const listed = await on.get(`/v2/parties/${encodeURIComponent(partyId)}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json.partyDetails[0].isLocal).toBe(true);
      const topology = await on.post('/v2/updates', {
        beginExclusive: 0,
        updateFormat: {
          includeTopologyEvents: {
            includeParticipantAuthorizationEvents: { parties: [partyId] },
          },
        },
      });
      const events = topology.json[0].update.TopologyTransaction.value.events.map(
        (event: any) => event.event.ParticipantAuthorizationAdded.value,
      );
      expect(events).toEqual([
        {
          partyId,
          participantId: p1.state.participantId,
          participantPermission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
        },
        {
          partyId,
          participantId: p2.state.participantId,
          participantPermission: 'PARTICIPANT_PERMISSION_OBSERVATION',
        },
      ]);
    }
    // An Iou the party owns reaches both of its participants.
    const bank = await allocate(p1, 'bank');
    const created = await submit(p1, [bank], [create(IOU, iou(bank, partyId))]);
    const seen = await p2.post('/v2/updates/update-by-id', {
      updateId: created.updateId,
      updateFormat: transactionsOf([partyId]),
    });
    expect(seen.status, seen.text).toBe(200);
    // Observation only: participant2 cannot submit for it.
    expectError(
      await p2.post('/v2/commands/submit-and-wait', {
        commands: [create(IOU, iou(partyId, partyId))],
        actAs: [partyId],
        commandId: 'observer-submits',
        userId: 'participant_admin',
      }),
      404,
      'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT',
    );
  });
});

describe('a fleet with jwt auth', () => {
  it('mints tokens for one participant, which the others refuse', async () => {
    const secured = createSandboxFleet({ participants: 2, auth: 'jwt', jwtSecret: TEST_SECRET });
    try {
      const [s1, s2] = secured.participants.map(testClientFor) as [TestSandbox, TestSandbox];
      const minted = await s1.post('/__sandbox/tokens', { userId: 'participant_admin' });
      expect(minted.status, minted.text).toBe(200);
      const token = minted.json.token as string;
      expect(decodeJwt(token).aud).toBe(
        `https://daml.com/jwt/aud/participant/${s1.state.participantId}`,
      );
      expect((await s1.get('/v2/users', { token })).status).toBe(200);
      const refused = await s2.get('/v2/users', { token });
      expect(refused.status, refused.text).toBe(403);
      // Canton hides why from the caller: the cause is in the participant's log only.
      expect(refused.json.cause).toBe('A security-sensitive error has been received');
    } finally {
      secured.close();
    }
  });
});

describe('packages and vetting across the fleet', () => {
  it('keeps a DAR on the participant it was uploaded to', async () => {
    const dar = fixtureDar('workflows');
    const uploaded = await p1.call('POST', '/v2/dars', { rawBody: dar.bytes() });
    expect(uploaded.status, uploaded.text).toBe(200);
    const listed = async (on: TestSandbox) =>
      (await on.get('/v2/packages')).json.packageIds as string[];
    expect(await listed(p1)).toContain(dar.main.packageId);
    expect(await listed(p2)).not.toContain(dar.main.packageId);
    // The built-in package is known to all.
    expect(await listed(p2)).toContain(p2.state.demoPackageId);
    const status = async (on: TestSandbox) =>
      (await on.get(`/v2/packages/${dar.main.packageId}/status`)).json.packageStatus as string;
    expect(await status(p1)).toBe('PACKAGE_STATUS_REGISTERED');
    expect(await status(p2)).toBe('PACKAGE_STATUS_UNSPECIFIED');
  });

  it('refuses a command whose informee is hosted where the package is not vetted', async () => {
    const alice = await allocate(p1, 'alice');
    const bob = await allocate(p2, 'bob');
    const demo = p2.state.demoPackageId;
    const unvetted = await p2.post('/v2/package-vetting/update', {
      changes: [{ operation: { Unvet: { value: { packages: [{ packageId: demo }] } } } }],
      dryRun: false,
      synchronizerId: '',
    });
    expect(unvetted.status, unvetted.text).toBe(200);
    const refused = await p1.post('/v2/commands/submit-and-wait', {
      commands: [create(IOU, iou(alice, bob))],
      actAs: [alice],
      commandId: 'needs-bob',
      userId: 'participant_admin',
    });
    const error = expectError(refused, 400, 'NO_SYNCHRONIZER_FOR_SUBMISSION');
    expect(error.context.unusableSynchronizers).toContain(
      `Participant PAR::${p2.state.participantId} has not vetted ${demo}`,
    );
    // Alice alone needs nothing of participant2.
    expect((await submit(p1, [alice], [create(IOU, iou(alice, alice))])).offset).toBe(2);

    // participant1 lists the synchronizer's vetting: its own and participant2's, now without demo.
    const listed = await p1.post('/v2/package-vetting/list', {});
    expect(listed.status, listed.text).toBe(200);
    const byParticipant = new Map(
      (
        listed.json.vettedPackages as { participantId: string; packages: { packageId: string }[] }[]
      ).map((vetting) => [vetting.participantId, vetting.packages.map((pkg) => pkg.packageId)]),
    );
    expect(byParticipant.get(p1.state.participantId)).toContain(demo);
    expect(byParticipant.get(p2.state.participantId) ?? []).not.toContain(demo);
  });

  it('lists every participant’s vetting on each', async () => {
    const listed = await p2.post('/v2/package-vetting/list', {});
    expect(listed.status, listed.text).toBe(200);
    expect(
      (listed.json.vettedPackages as { participantId: string }[]).map(
        (vetting) => vetting.participantId,
      ),
    ).toEqual([p1.state.participantId, p2.state.participantId].sort());
  });
});

describe('streams and reassignments across the fleet', () => {
  it('tails a delivered transaction on the other participant, over the stream endpoints', async () => {
    const alice = await allocate(p1, 'alice');
    const bob = await allocate(p2, 'bob');
    const [, second] = fleet.participants;
    if (!second) throw new Error('the fleet has two participants');
    const stream = await second.connectStream('/v2/updates', new Headers());
    const controller = new AbortController();
    const messages = stream(
      JSON.stringify({ beginExclusive: 1, updateFormat: transactionsOf([bob]) }),
      controller.signal,
    )[Symbol.asyncIterator]();
    const first = messages.next();
    const created = await submit(p1, [alice], [create(IOU, iou(alice, bob))]);
    const { value } = (await first) as { value: any };
    controller.abort();
    expect(value.update.Transaction.value.updateId).toBe(created.updateId);
    expect(value.update.Transaction.value.offset).toBe(2);
    expect(checkSchema('JsGetUpdatesResponse', value)).toEqual([]);
  });

  it('delivers reassignments to the participants of the stakeholders', async () => {
    const two = createSandboxFleet({ participants: 2, synchronizers: ['alpha', 'beta'] });
    try {
      const [q1, q2] = two.participants.map(testClientFor) as [TestSandbox, TestSandbox];
      const [alpha = '', beta = ''] = q1.state.synchronizerIds;
      const onBoth = async (on: TestSandbox, hint: string) => {
        await on.post('/v2/parties', { partyIdHint: hint, synchronizerId: alpha });
        return (await on.post('/v2/parties', { partyIdHint: hint, synchronizerId: beta })).json
          .partyDetails.party as string;
      };
      const alice = await onBoth(q1, 'alice');
      const bob = await onBoth(q2, 'bob');
      const created = await submit(q1, [alice], [create(IOU, iou(alice, bob))]);
      const contractId = Object.values(created.eventsById)[0]?.CreatedTreeEvent?.value
        .contractId as string;
      const out = await q1.post('/v2/commands/submit-and-wait-for-reassignment', {
        reassignmentCommands: {
          commandId: 'move',
          submitter: alice,
          userId: 'participant_admin',
          commands: [
            {
              command: { UnassignCommand: { value: { contractId, source: alpha, target: beta } } },
            },
          ],
        },
        eventFormat: wildcardFormat([alice]),
      });
      expect(out.status, out.text).toBe(200);
      const updateId = out.json.reassignment.updateId as string;
      const seen = await q2.post('/v2/updates/update-by-id', {
        updateId,
        updateFormat: { includeReassignments: wildcardFormat([bob]) },
      });
      expect(seen.status, seen.text).toBe(200);
      const reassignment = seen.json.update.Reassignment.value;
      expect(reassignment.commandId).toBe('');
      expect(reassignment.events[0].JsUnassignedEvent.value.contractId).toBe(contractId);
      // Bob's participant knows the contract is in flight, and bob may complete the move there.
      const assigned = await q2.post('/v2/commands/submit-and-wait-for-reassignment', {
        reassignmentCommands: {
          commandId: 'arrive',
          submitter: bob,
          userId: 'participant_admin',
          commands: [
            {
              command: {
                AssignCommand: {
                  value: {
                    reassignmentId: reassignment.events[0].JsUnassignedEvent.value.reassignmentId,
                    source: alpha,
                    target: beta,
                  },
                },
              },
            },
          ],
        },
        eventFormat: wildcardFormat([bob]),
      });
      expect(assigned.status, assigned.text).toBe(200);
      const onQ1 = await q1.post('/v2/updates/update-by-id', {
        updateId: assigned.json.reassignment.updateId,
        updateFormat: { includeReassignments: wildcardFormat([alice]) },
      });
      expect(onQ1.status, onQ1.text).toBe(200);
      expect(onQ1.json.update.Reassignment.value.synchronizerId).toBe(beta);
    } finally {
      two.close();
    }
  });
});

describe('a fleet with a data directory', () => {
  it('tells a participant that joins later the parties the others host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
    try {
      const alone = createSandboxFleet({ participants: 1, dataDir: dir });
      const [only] = alone.participants;
      if (!only) throw new Error('a fleet of one');
      const alice = await allocate(testClientFor(only), 'alice');
      alone.close();
      const grown = createSandboxFleet({ participants: 2, dataDir: dir });
      try {
        const [, second] = grown.participants.map(testClientFor);
        const listed = await second?.get(`/v2/parties/${encodeURIComponent(alice)}`);
        expect(listed?.json.partyDetails).toEqual([
          expect.objectContaining({ party: alice, isLocal: false }),
        ]);
        expect(second?.state.hostingSynchronizers(alice)).toEqual(second?.state.synchronizerIds);
      } finally {
        grown.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps each participant in its own directory and restores what was delivered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
    try {
      const first = createSandboxFleet({ participants: 2, dataDir: dir });
      const [d1, d2] = first.participants.map(testClientFor) as [TestSandbox, TestSandbox];
      const alice = await allocate(d1, 'alice');
      const bob = await allocate(d2, 'bob');
      const created = await submit(d1, [alice], [create(IOU, iou(alice, bob))]);
      first.close();

      const again = createSandboxFleet({ participants: 2, dataDir: dir });
      try {
        const [r1, r2] = again.participants.map(testClientFor) as [TestSandbox, TestSandbox];
        expect(r1.state.participantId).toBe(d1.state.participantId);
        const seen = await r2.post('/v2/updates/update-by-id', {
          updateId: created.updateId,
          updateFormat: transactionsOf([bob]),
        });
        expect(seen.status, seen.text).toBe(200);
        expect(seen.json.update.Transaction.value.offset).toBe(2);
        const parties = (await r2.get('/v2/parties')).json.partyDetails as {
          party: string;
          isLocal: boolean;
        }[];
        expect(parties.find((party) => party.party === alice)?.isLocal).toBe(false);
        // And the fleet goes on: bob exercises from participant2 after the restart.
        const contractId = Object.values(created.eventsById)[0]?.CreatedTreeEvent?.value
          .contractId as string;
        const moved = await submit(
          r2,
          [bob],
          [exercise(IOU, contractId, 'Iou_Transfer', { newOwner: alice })],
        );
        const back = await r1.post('/v2/updates/update-by-id', {
          updateId: moved.updateId,
          updateFormat: transactionsOf([alice]),
        });
        expect(back.status, back.text).toBe(200);
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

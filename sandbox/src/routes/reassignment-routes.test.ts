import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reassignmentIdOf } from '../ledger/reassignment';
import { checkResponse, checkSchema } from '../testing/spec-conformance';
import {
  canActAs,
  canReadAs,
  createTestSandbox,
  expectError,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';
import { iou, create, exercise } from '../testing/json-commands';
import { IOU, HOLDING, wildcardFormat } from '../testing/ledger-history';

const REASSIGNMENT_ID = /^001220[0-9a-f]{64}$/;

let commandNumber = 0;
const nextCommandId = () => `reassign-${String(++commandNumber)}`;

const wildcard = (...parties: string[]) => wildcardFormat(parties);
const unassignCommand = (contractId: string, source: string, target: string) => ({
  command: { UnassignCommand: { value: { contractId, source, target } } },
});
const assignCommand = (reassignmentId: string, source: string, target: string) => ({
  command: { AssignCommand: { value: { reassignmentId, source, target } } },
});
const reassignmentCommands = (
  submitter: string,
  commands: unknown[],
  extra: Record<string, unknown> = {},
) => ({
  commandId: nextCommandId(),
  submitter,
  userId: 'participant_admin',
  commands,
  ...extra,
});

type Sandbox = TestSandbox;

async function allocate(sandbox: Sandbox, hint: string, synchronizerIds: string[]) {
  let party = '';
  for (const synchronizerId of synchronizerIds) {
    const response = await sandbox.post('/v2/parties', { partyIdHint: hint, synchronizerId });
    expect(response.status, response.text).toBe(200);
    party = response.json.partyDetails.party as string;
  }
  return party;
}

/** Runs commands; answers the transaction (ACS delta for the actAs parties). */
async function submit(
  sandbox: Sandbox,
  commands: unknown[],
  actAs: string[],
  extra: Record<string, unknown> = {},
) {
  const response = await sandbox.post('/v2/commands/submit-and-wait-for-transaction', {
    commands: {
      commands,
      commandId: nextCommandId(),
      actAs,
      userId: 'participant_admin',
      ...extra,
    },
  });
  expect(response.status, response.text).toBe(200);
  return response.json.transaction as {
    offset: number;
    synchronizerId: string;
    updateId: string;
    events: { CreatedEvent?: { contractId: string } }[];
  };
}

async function createIou(
  sandbox: Sandbox,
  issuer: string,
  owner: string,
  observers: string[] = [],
) {
  const tx = await submit(sandbox, [create(IOU, iou(issuer, owner, '100', observers))], [issuer]);
  const contractId = tx.events[0]?.CreatedEvent?.contractId ?? '';
  return { contractId, offset: tx.offset, synchronizerId: tx.synchronizerId };
}

const reassign = (
  sandbox: Sandbox,
  submitter: string,
  commands: unknown[],
  extra: Record<string, unknown> = {},
  /** Null leaves it out. */
  eventFormat: unknown = wildcard(submitter),
) =>
  sandbox.post('/v2/commands/submit-and-wait-for-reassignment', {
    reassignmentCommands: reassignmentCommands(submitter, commands, extra),
    ...(eventFormat === null ? {} : { eventFormat }),
  });

async function unassign(
  sandbox: Sandbox,
  submitter: string,
  contractId: string,
  source: string,
  target: string,
) {
  const response = await reassign(sandbox, submitter, [
    unassignCommand(contractId, source, target),
  ]);
  expect(response.status, response.text).toBe(200);
  return response.json.reassignment as Reassignment;
}

async function assign(
  sandbox: Sandbox,
  submitter: string,
  reassignmentId: string,
  source: string,
  target: string,
) {
  const response = await reassign(sandbox, submitter, [
    assignCommand(reassignmentId, source, target),
  ]);
  expect(response.status, response.text).toBe(200);
  return response.json.reassignment as Reassignment;
}

/** The parts of a `JsReassignment` the tests read. */
type Reassignment = {
  offset: number;
  updateId: string;
  commandId: string;
  recordTime: string;
  synchronizerId: string;
  traceContext: { traceparent: string | null };
  events: any[];
};

const unassignedOf = (reassignment: any) => reassignment.events[0].JsUnassignedEvent.value;
const assignedOf = (reassignment: any) => reassignment.events[0].JsAssignmentEvent;

async function activeContracts(sandbox: Sandbox, party: string) {
  const end = sandbox.state.history.ledgerEnd();
  const response = await sandbox.post('/v2/state/active-contracts', {
    eventFormat: wildcard(party),
    activeAtOffset: end,
  });
  expect(response.status, response.text).toBe(200);
  return response.json as { workflowId: string; contractEntry: Record<string, any> }[];
}

const entryOf = (entries: { contractEntry: Record<string, any> }[], contractId: string) =>
  entries.find(
    ({ contractEntry }) =>
      (contractEntry.JsActiveContract ?? contractEntry.JsIncompleteUnassigned)?.createdEvent
        .contractId === contractId,
  )?.contractEntry;

async function updatesSince(sandbox: Sandbox, after: number, body: Record<string, unknown>) {
  const response = await sandbox.post('/v2/updates', {
    beginExclusive: after,
    endInclusive: sandbox.state.history.ledgerEnd(),
    verbose: false,
    ...body,
  });
  expect(response.status, response.text).toBe(200);
  return response.json as { update: Record<string, any> }[];
}

describe('reassignments between two synchronizers', () => {
  let t: Sandbox;
  let syncA = '';
  let syncB = '';
  let alice = '';
  let bob = '';
  let carol = '';
  let dave = '';
  let erin = '';
  beforeAll(async () => {
    t = createTestSandbox({ synchronizers: ['A', 'B'] });
    [syncA = '', syncB = ''] = t.state.synchronizerIds;
    alice = await allocate(t, 'alice', [syncA, syncB]);
    bob = await allocate(t, 'bob', [syncA, syncB]);
    carol = await allocate(t, 'carol', [syncA]);
    dave = await allocate(t, 'dave', [syncA, syncB]);
    erin = await allocate(t, 'erin', [syncB]);
  });
  afterAll(() => {
    t.close();
  });

  it('moves a contract A→B and back, and the update stream, ACS and lookups follow it', async () => {
    const created = await createIou(t, alice, bob);
    expect(created.synchronizerId).toBe(syncA);

    const out = await unassign(t, alice, created.contractId, syncA, syncB);
    expect(out).toMatchObject({
      offset: created.offset + 1,
      synchronizerId: syncA,
      workflowId: '',
      paidTrafficCost: null,
    });
    expect(out.commandId).toMatch(/^reassign-/);
    expect(out.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(out.traceContext.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const unassigned = unassignedOf(out);
    expect(unassigned).toMatchObject({
      contractId: created.contractId,
      templateId: `${t.state.demoPackageId}:Demo.Iou:Iou`,
      packageName: 'sandbox-demo',
      source: syncA,
      target: syncB,
      submitter: alice,
      reassignmentCounter: 1,
      witnessParties: [alice],
      offset: out.offset,
      nodeId: 0,
    });
    expect(unassigned.reassignmentId).toMatch(REASSIGNMENT_ID);
    // The default exclusivity timeout (60 s) after the unassignment.
    expect(Date.parse(unassigned.assignmentExclusivity) - Date.parse(out.recordTime)).toBe(60_000);

    // In flight: neither synchronizer has it; the ACS shows the unassignment.
    const inFlight = entryOf(await activeContracts(t, bob), created.contractId);
    expect(Object.keys(inFlight ?? {})).toEqual(['JsIncompleteUnassigned']);
    expect(inFlight?.JsIncompleteUnassigned.createdEvent).toMatchObject({
      offset: created.offset,
      witnessParties: [bob],
    });
    expect(inFlight?.JsIncompleteUnassigned.unassignedEvent).toMatchObject({
      reassignmentId: unassigned.reassignmentId,
      witnessParties: [bob],
      reassignmentCounter: 1,
    });

    const into = await assign(t, bob, unassigned.reassignmentId, syncA, syncB);
    expect(into).toMatchObject({ offset: out.offset + 1, synchronizerId: syncB });
    expect(assignedOf(into)).toMatchObject({
      source: syncA,
      target: syncB,
      reassignmentId: unassigned.reassignmentId,
      submitter: bob,
      reassignmentCounter: 1,
    });
    expect(assignedOf(into).createdEvent).toMatchObject({
      contractId: created.contractId,
      offset: into.offset,
      nodeId: 0,
      witnessParties: [bob],
      signatories: [alice],
      acsDelta: true,
    });

    const onB = entryOf(await activeContracts(t, alice), created.contractId)?.JsActiveContract;
    expect(onB).toMatchObject({ synchronizerId: syncB, reassignmentCounter: 1 });
    expect(onB.createdEvent).toMatchObject({ offset: into.offset, nodeId: 0 });

    // And back: the counter goes on from where it was.
    const back = await unassign(t, bob, created.contractId, syncB, syncA);
    expect(unassignedOf(back)).toMatchObject({ source: syncB, target: syncA });
    expect(unassignedOf(back).reassignmentCounter).toBe(2);
    const home = await assign(t, alice, unassignedOf(back).reassignmentId, syncB, syncA);
    expect(assignedOf(home).reassignmentCounter).toBe(2);
    const onA = entryOf(await activeContracts(t, alice), created.contractId)?.JsActiveContract;
    expect(onA).toMatchObject({ synchronizerId: syncA, reassignmentCounter: 2 });

    // The update stream: the creation, then four reassignments at consecutive offsets.
    const format = {
      updateFormat: {
        includeTransactions: {
          eventFormat: wildcard(alice),
          transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
        },
        includeReassignments: wildcard(alice),
      },
    };
    const updates = await updatesSince(t, created.offset - 1, format);
    expect(updates.map(({ update }) => Object.keys(update)[0])).toEqual([
      'Transaction',
      'Reassignment',
      'Reassignment',
      'Reassignment',
      'Reassignment',
    ]);
    const moves = updates.slice(1).map(({ update }) => update.Reassignment.value);
    expect(moves.map((move) => move.offset)).toEqual([1, 2, 3, 4].map((n) => created.offset + n));
    expect(moves.map((move) => move.synchronizerId)).toEqual([syncA, syncB, syncB, syncA]);
    const events = moves.map((move) => move.events[0]);
    expect(
      events.map((event) =>
        event.JsUnassignedEvent
          ? ['unassigned', event.JsUnassignedEvent.value.reassignmentCounter]
          : ['assigned', event.JsAssignmentEvent.reassignmentCounter],
      ),
    ).toEqual([
      ['unassigned', 1],
      ['assigned', 1],
      ['unassigned', 2],
      ['assigned', 2],
    ]);
    // Alice sees the command ids of the reassignments she submitted only.
    expect(moves.map((move) => move.commandId !== '')).toEqual([true, false, false, true]);

    // Without includeReassignments only the transaction is left; the legacy filter has both.
    const transactionsOnly = await updatesSince(t, created.offset - 1, {
      updateFormat: { includeTransactions: format.updateFormat.includeTransactions },
    });
    expect(transactionsOnly).toHaveLength(1);
    const legacy = await updatesSince(t, created.offset - 1, {
      filter: { filtersByParty: wildcard(alice).filtersByParty },
    });
    expect(legacy).toHaveLength(5);
    const trees = await t.post('/v2/updates/trees', {
      beginExclusive: created.offset - 1,
      endInclusive: created.offset + 4,
      filter: { filtersByParty: wildcard(alice).filtersByParty },
    });
    expect(trees.status, trees.text).toBe(200);
    expect(trees.json.map(({ update }: any) => Object.keys(update)[0])).toEqual([
      'TransactionTree',
      'Reassignment',
      'Reassignment',
      'Reassignment',
      'Reassignment',
    ]);

    // Point lookups by id and offset, only with includeReassignments.
    const byId = await t.post('/v2/updates/update-by-id', {
      updateId: out.updateId,
      updateFormat: { includeReassignments: wildcard(bob) },
    });
    expect(byId.status, byId.text).toBe(200);
    expect(unassignedOf(byId.json.update.Reassignment.value).witnessParties).toEqual([bob]);
    const byOffset = await t.post('/v2/updates/update-by-offset', {
      offset: into.offset,
      updateFormat: { includeReassignments: wildcard(alice) },
    });
    expect(byOffset.json.update.Reassignment.value.updateId).toBe(into.updateId);
    expectError(
      await t.post('/v2/updates/update-by-id', {
        updateId: out.updateId,
        updateFormat: { includeTransactions: format.updateFormat.includeTransactions },
      }),
      404,
      'UPDATE_NOT_FOUND',
    );
    // A party that is no stakeholder sees nothing of it.
    expectError(
      await t.post('/v2/updates/update-by-id', {
        updateId: out.updateId,
        updateFormat: { includeReassignments: wildcard(dave) },
      }),
      404,
      'UPDATE_NOT_FOUND',
    );

    // Its events are still found by contract id, the creation on the synchronizer it used.
    const events1 = await t.post('/v2/events/events-by-contract-id', {
      contractId: created.contractId,
      eventFormat: wildcard(alice),
    });
    expect(events1.status, events1.text).toBe(200);
    expect(events1.json.created).toMatchObject({ synchronizerId: syncA });
    expect(events1.json.created.createdEvent.offset).toBe(created.offset);

    // A command on it now runs where it is: back on A.
    const archived = await submit(t, [exercise(IOU, created.contractId, 'Archive', {})], [alice]);
    expect(archived.synchronizerId).toBe(syncA);
    expect(entryOf(await activeContracts(t, alice), created.contractId)).toBeUndefined();
  });

  it('shows a snapshot of the past as it was: the contract in flight at that offset', async () => {
    const created = await createIou(t, alice, bob);
    const out = await unassign(t, alice, created.contractId, syncA, syncB);
    await assign(t, alice, unassignedOf(out).reassignmentId, syncA, syncB);
    const at = async (offset: number) => {
      const response = await t.post('/v2/state/active-contracts', {
        eventFormat: wildcard(alice),
        activeAtOffset: offset,
      });
      return entryOf(response.json, created.contractId);
    };
    expect((await at(created.offset))?.JsActiveContract.synchronizerId).toBe(syncA);
    expect(Object.keys((await at(out.offset)) ?? {})).toEqual(['JsIncompleteUnassigned']);
    expect((await at(out.offset + 1))?.JsActiveContract).toMatchObject({
      synchronizerId: syncB,
      reassignmentCounter: 1,
    });
    // The page endpoint reports it alike.
    // A GET with a body, as the Node server hands it over.
    const body = JSON.stringify({ eventFormat: wildcard(alice), maxPageSize: 1000 });
    const page = await t.sandbox.fetch(
      new Request('http://sandbox.test/v2/state/active-contracts-page'),
      { incoming: Readable.from([Buffer.from(body)]) },
    );
    const pageText = await page.text();
    expect(page.status, pageText).toBe(200);
    const conformance = checkResponse(
      'GET',
      '/v2/state/active-contracts-page',
      page.status,
      page.headers.get('content-type'),
      pageText,
    );
    expect(conformance.errors).toEqual([]);
    const paged = JSON.parse(pageText) as { activeContracts: { contractEntry: any }[] };
    expect(entryOf(paged.activeContracts, created.contractId)?.JsActiveContract).toMatchObject({
      synchronizerId: syncB,
      reassignmentCounter: 1,
    });
  });

  it('refuses commands on a contract in flight, and on one it cannot move', async () => {
    const before = t.state.history.ledgerEnd();
    const moving = await createIou(t, alice, bob);
    await unassign(t, alice, moving.contractId, syncA, syncB);
    const end = t.state.history.ledgerEnd();
    const inFlight = await t.post('/v2/commands/submit-and-wait', {
      commands: [exercise(IOU, moving.contractId, 'Iou_Transfer', { newOwner: alice })],
      commandId: nextCommandId(),
      actAs: [bob],
      userId: 'participant_admin',
    });
    const body = expectError(inFlight, 400, 'UNKNOWN_CONTRACT_SYNCHRONIZERS');
    expect(body.cause).toBe(
      `The synchronizers for the contracts (${moving.contractId}) are currently unknown due to ongoing contract reassignments or disconnected synchronizers.`,
    );
    expect(body.resources).toEqual([['CONTRACT_IDS', `[${moving.contractId}]`]]);
    expect(t.state.history.ledgerEnd()).toBe(end);
    expect(end).toBe(before + 2);

    // Erin is hosted on B only, so her Iou lives there and cannot move to A.
    const onB = await createIou(t, alice, erin);
    expect(onB.synchronizerId).toBe(syncB);
    const view = exercise(HOLDING, onB.contractId, 'Holding_GetView', { viewer: alice });
    const cannotMove = await t.post('/v2/commands/submit-and-wait', {
      commands: [view],
      commandId: nextCommandId(),
      actAs: [alice],
      userId: 'participant_admin',
      synchronizerId: syncA,
    });
    const failed = expectError(cannotMove, 400, 'AUTOMATIC_REASSIGNMENT_FOR_TRANSACTION_FAILED');
    expect(failed.context.reason).toBe(
      `Cannot reassign contract ${onB.contractId} from ${syncB} to ${syncA}: Read ${alice} cannot reassign: The following stakeholders are not active on the target synchronizer: Set(${erin})`,
    );

    // Dave, no stakeholder, sees the Iou through its disclosed blob but cannot move it.
    const shared = await createIou(t, alice, bob);
    const out = await unassign(t, alice, shared.contractId, syncA, syncB);
    await assign(t, alice, unassignedOf(out).reassignmentId, syncA, syncB);
    const blob = await t.post('/v2/events/events-by-contract-id', {
      contractId: shared.contractId,
      eventFormat: {
        filtersByParty: {
          [alice]: {
            cumulative: [
              {
                identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } },
              },
            ],
          },
        },
        verbose: false,
      },
    });
    const disclosed = {
      contractId: shared.contractId,
      templateId: blob.json.created.createdEvent.templateId,
      createdEventBlob: blob.json.created.createdEvent.createdEventBlob,
      synchronizerId: syncB,
    };
    const daveViews = (synchronizerId: string) =>
      t.post('/v2/commands/submit-and-wait', {
        commands: [exercise(HOLDING, shared.contractId, 'Holding_GetView', { viewer: dave })],
        commandId: nextCommandId(),
        actAs: [dave],
        userId: 'participant_admin',
        disclosedContracts: [disclosed],
        synchronizerId,
      });
    expectError(await daveViews(syncA), 400, 'SUBMITTER_ALWAYS_STAKEHOLDER');
    // Where it is, the disclosed contract is used as is.
    expect((await daveViews(syncB)).status).toBe(200);
  });

  it('reassigns input contracts to one synchronizer before a transaction that needs them', async () => {
    const first = await createIou(t, alice, bob);
    const second = await createIou(t, alice, bob);
    const out = await unassign(t, alice, second.contractId, syncA, syncB);
    await assign(t, alice, unassignedOf(out).reassignmentId, syncA, syncB);
    const before = t.state.history.ledgerEnd();
    const merged = await submit(
      t,
      [exercise(IOU, first.contractId, 'Iou_Merge', { otherCid: second.contractId })],
      [bob],
      { workflowId: 'merge-flow' },
    );
    // Both synchronizers need one move; the smaller id wins. Bob, the submitter, moves it.
    expect(merged.synchronizerId).toBe(syncA);
    expect(merged.offset).toBe(before + 3);
    const updates = await updatesSince(t, before, {
      updateFormat: {
        includeTransactions: {
          eventFormat: wildcard(bob),
          transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
        },
        includeReassignments: wildcard(bob),
      },
    });
    const [unassigned, assigned, transaction] = updates.map(({ update }) => update);
    expect(unassignedOf(unassigned?.Reassignment.value)).toMatchObject({
      contractId: second.contractId,
      source: syncB,
      target: syncA,
      submitter: bob,
      reassignmentCounter: 2,
    });
    expect(unassigned?.Reassignment.value).toMatchObject({
      commandId: transaction?.Transaction.value.commandId,
      workflowId: '',
    });
    expect(assignedOf(assigned?.Reassignment.value).reassignmentCounter).toBe(2);
    expect(transaction?.Transaction.value.updateId).toBe(merged.updateId);
    const completions = t.state.history.completions(before, t.state.history.ledgerEnd());
    expect(completions.map((completion) => completion.synchronizerId)).toEqual([
      syncB,
      syncA,
      syncA,
    ]);
  });

  it('refuses what the participant refuses, committing nothing', async () => {
    const live = await createIou(t, alice, bob, [carol]);
    const other = await createIou(t, alice, bob);
    const before = t.state.history.ledgerEnd();
    const refused = async (
      submitter: string,
      commands: unknown[],
      code: string,
      status = 400,
      extra: Record<string, unknown> = {},
    ) => {
      const body = expectError(await reassign(t, submitter, commands, extra), status, code);
      expect(t.state.history.ledgerEnd()).toBe(before);
      return body.cause;
    };
    const prefix = 'The submitted request has invalid arguments: ';
    const cid = live.contractId;

    expect(await refused(dave, [unassignCommand(cid, syncA, syncB)], 'INVALID_ARGUMENT')).toBe(
      `${prefix}Submission failed because: For unassignment of Set(ContractId(${cid})): submitter \`${dave}\` is not a stakeholder. `,
    );
    expect(await refused(alice, [unassignCommand(cid, syncA, syncA)], 'INVALID_ARGUMENT')).toBe(
      `${prefix}Cannot unassign contracts \`List(ContractId(${cid}))\`: source and target synchronizers are the same`,
    );
    const nowhere = `nowhere::1220${'ab'.repeat(32)}`;
    expect(await refused(alice, [unassignCommand(cid, syncA, nowhere)], 'INVALID_ARGUMENT')).toBe(
      `${prefix}Unable to resolve ${nowhere} to a connected physical synchronizer id`,
    );
    // Carol observes it but is not hosted on B.
    expect(await refused(alice, [unassignCommand(cid, syncA, syncB)], 'INVALID_ARGUMENT')).toBe(
      `${prefix}Submission failed because: The following stakeholders are not active on the target synchronizer: Set(${carol})`,
    );
    expect(
      await refused(alice, [unassignCommand(other.contractId, syncB, syncA)], 'INVALID_ARGUMENT'),
    ).toBe(
      `${prefix}Cannot unassign contract \`ContractId(${other.contractId})\`: unknown contract`,
    );
    const unknownId = `00${'1'.repeat(64)}`;
    expect(
      await refused(alice, [unassignCommand(unknownId, syncA, syncB)], 'INVALID_ARGUMENT'),
    ).toContain('unknown contract');

    const unknownReassignment = `001220${'cd'.repeat(32)}`;
    expect(
      await refused(alice, [assignCommand(unknownReassignment, syncA, syncB)], 'INVALID_ARGUMENT'),
    ).toBe(
      `${prefix}Cannot find reassignment data for reassignment \`ReassignmentId(${unknownReassignment})\`: unknown reassignment id`,
    );
    const badId = expectError(
      await reassign(t, alice, [assignCommand('not-hex', syncA, syncB)]),
      400,
      'INVALID_FIELD',
    );
    expect(badId.context).toMatchObject({ field_name: 'reassignment_id' });
    expect(
      await refused(
        alice,
        [unassignCommand(cid, syncA, syncB), assignCommand(unknownReassignment, syncA, syncB)],
        'INVALID_ARGUMENT',
      ),
    ).toBe(
      `${prefix}The batch of reassignment commands was invalid: mixed assign with other commands`,
    );
    expect(
      await refused(
        alice,
        [unassignCommand(cid, syncA, syncB), unassignCommand(other.contractId, syncB, syncA)],
        'INVALID_ARGUMENT',
      ),
    ).toBe(`${prefix}The batch of reassignment commands was invalid: differing synchronizers`);
    expect(await refused(alice, [], 'INVALID_ARGUMENT')).toBe(
      `${prefix}The batch of reassignment commands was invalid: no commands`,
    );

    const field = async (commands: unknown[], code: string, name: string, extra = {}) => {
      const body = expectError(await reassign(t, alice, commands, extra), 400, code);
      expect(body.context.field_name).toBe(name);
    };
    await field([{ command: { Empty: {} } }], 'MISSING_FIELD', 'command');
    await field([unassignCommand(cid, '', syncB)], 'MISSING_FIELD', 'source');
    await field([unassignCommand(cid, syncA, 'no-namespace')], 'INVALID_FIELD', 'target');
    await field([unassignCommand('', syncA, syncB)], 'MISSING_FIELD', 'contract_id');
    await field([unassignCommand(cid, syncA, syncB)], 'INVALID_FIELD', 'command_id', {
      commandId: '',
    });
    await field([unassignCommand(cid, syncA, syncB)], 'INVALID_FIELD', 'submitter', {
      submitter: '',
    });
    // Without commands there is no user id, and no token user stands in for it.
    const missing = await t.post('/v2/commands/async/submit-reassignment', {});
    expectError(missing, 400, 'INVALID_TOKEN');
    const malformed = await t.post('/v2/commands/async/submit-reassignment', {
      reassignmentCommands: 'x',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.contentType).toContain('text/plain');
    expect(t.state.history.ledgerEnd()).toBe(before);
  });

  it('refuses an unassignment of a contract that is archived, or not on the source', async () => {
    const gone = await createIou(t, alice, bob);
    await submit(t, [exercise(IOU, gone.contractId, 'Archive', {})], [alice]);
    const archived = expectError(
      await reassign(t, alice, [unassignCommand(gone.contractId, syncA, syncB)]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(archived.cause).toContain(
      `Cannot unassign contract \`ContractId(${gone.contractId})\` because it's not active. Current status Archived`,
    );
    const moving = await createIou(t, alice, bob);
    const out = await unassign(t, alice, moving.contractId, syncA, syncB);
    const again = expectError(
      await reassign(t, alice, [unassignCommand(moving.contractId, syncA, syncB)]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(again.cause).toContain(`Current status ReassignedAway(Target(${syncB}))`);
    // An assignment completes an unassignment once, and only on its target.
    const wrongTarget = expectError(
      await reassign(t, alice, [assignCommand(unassignedOf(out).reassignmentId, syncB, syncA)]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(wrongTarget.cause).toContain('unknown reassignment id');
    const notStakeholder = expectError(
      await reassign(t, dave, [assignCommand(unassignedOf(out).reassignmentId, syncA, syncB)]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(notStakeholder.cause).toContain(
      `For assignment ReassignmentId(${unassignedOf(out).reassignmentId}): submitter \`${dave}\` is not a stakeholder.`,
    );
    await assign(t, bob, unassignedOf(out).reassignmentId, syncA, syncB);
    const twice = expectError(
      await reassign(t, alice, [assignCommand(unassignedOf(out).reassignmentId, syncA, syncB)]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(twice.cause).toContain('reassignment already completed');
  });

  it('unassigns several contracts with the same stakeholders in one update', async () => {
    const three = await createIou(t, alice, bob);
    const four = await createIou(t, alice, bob);
    const both = await reassign(t, alice, [
      unassignCommand(three.contractId, syncA, syncB),
      unassignCommand(four.contractId, syncA, syncB),
    ]);
    expect(both.status, both.text).toBe(200);
    const events = both.json.reassignment.events.map((event: any) => event.JsUnassignedEvent.value);
    expect(events.map((event: any) => [event.contractId, event.nodeId])).toEqual([
      [three.contractId, 0],
      [four.contractId, 1],
    ]);
    expect(new Set(events.map((event: any) => event.reassignmentId)).size).toBe(1);
    const assigned = await assign(t, bob, events[0].reassignmentId, syncA, syncB);
    expect(assigned.events).toHaveLength(2);
    const differing = await createIou(t, alice, dave);
    const five = await createIou(t, alice, bob);
    const refused = expectError(
      await reassign(t, alice, [
        unassignCommand(five.contractId, syncA, syncB),
        unassignCommand(differing.contractId, syncA, syncB),
      ]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(refused.cause).toContain('DifferingStakeholders');
  });

  it('answers the reassignment without events, or not found, as the command service does', async () => {
    const created = await createIou(t, alice, bob);
    const bare = await reassign(
      t,
      alice,
      [unassignCommand(created.contractId, syncA, syncB)],
      { workflowId: 'flow-1' },
      null,
    );
    expect(bare.status, bare.text).toBe(200);
    expect(bare.json.reassignment).toMatchObject({ events: [], workflowId: 'flow-1' });
    expect(bare.json.reassignment.commandId).not.toBe('');
    const rid = (
      await t.post('/v2/updates/update-by-id', {
        updateId: bare.json.reassignment.updateId,
        updateFormat: { includeReassignments: wildcard(alice) },
      })
    ).json.update.Reassignment.value.events[0].JsUnassignedEvent.value.reassignmentId;
    // Committed, but invisible to the requested format: the lookup after the commit fails.
    const before = t.state.history.ledgerEnd();
    const invisible = await reassign(
      t,
      alice,
      [assignCommand(rid, syncA, syncB)],
      {},
      wildcard(dave),
    );
    expectError(invisible, 404, 'UPDATE_NOT_FOUND');
    expect(t.state.history.ledgerEnd()).toBe(before + 1);
  });

  it('completes an asynchronous reassignment on the completion stream', async () => {
    const created = await createIou(t, alice, bob);
    const before = t.state.history.ledgerEnd();
    const response = await t.post('/v2/commands/async/submit-reassignment', {
      reassignmentCommands: reassignmentCommands(
        alice,
        [unassignCommand(created.contractId, syncA, syncB)],
        { commandId: 'async-unassign', submissionId: 'sub-1', userId: 'alice-app' },
      ),
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({});
    const completions = await t.post('/v2/commands/completions', {
      userId: 'alice-app',
      parties: [alice],
      beginExclusive: before,
    });
    expect(completions.status, completions.text).toBe(200);
    const [completion] = completions.json
      .map((element: any) => element.completionResponse.Completion?.value)
      .filter(Boolean);
    const update = t.state.history.updateByOffset(before + 1);
    expect(completion).toMatchObject({
      commandId: 'async-unassign',
      status: { code: 0 },
      updateId: update?.updateId,
      userId: 'alice-app',
      actAs: [alice],
      submissionId: 'sub-1',
      deduplicationPeriod: { Empty: {} },
      offset: before + 1,
      synchronizerTime: { synchronizerId: syncA, recordTime: update?.recordTime },
    });
  });

  it('streams reassignments and active contracts over websockets', async () => {
    const created = await createIou(t, alice, bob);
    const out = await unassign(t, alice, created.contractId, syncA, syncB);
    // Both requests are closed ranges, so their streams end by themselves.
    const collect = async (path: string, request: unknown) => {
      const stream = await t.sandbox.connectStream(path, new Headers());
      const messages: any[] = [];
      for await (const message of stream(JSON.stringify(request), new AbortController().signal)) {
        messages.push(message);
      }
      return messages;
    };
    const updates = await collect('/v2/updates', {
      beginExclusive: created.offset,
      endInclusive: out.offset,
      verbose: false,
      updateFormat: { includeReassignments: wildcard(bob) },
    });
    expect(updates).toHaveLength(1);
    expect(checkSchema('JsGetUpdatesResponse', updates[0])).toEqual([]);
    expect(updates[0].update.Reassignment.value.updateId).toBe(out.updateId);
    const streamed = await collect('/v2/state/active-contracts', {
      eventFormat: wildcard(bob),
      activeAtOffset: out.offset,
    });
    const entry = streamed.find(
      (message) =>
        message.contractEntry.JsIncompleteUnassigned?.createdEvent.contractId ===
        created.contractId,
    );
    expect(entry).toBeDefined();
    expect(checkSchema('JsGetActiveContractsResponse', entry)).toEqual([]);
  });

  it('refuses an unassignment when the target has not vetted the package', async () => {
    const created = await createIou(t, alice, bob);
    const unvet = await t.post('/v2/package-vetting/update', {
      changes: [
        { operation: { Unvet: { value: { packages: [{ packageId: t.state.demoPackageId }] } } } },
      ],
      synchronizerId: syncB,
    });
    expect(unvet.status, unvet.text).toBe(200);
    try {
      const refused = expectError(
        await reassign(t, alice, [unassignCommand(created.contractId, syncA, syncB)]),
        400,
        'INVALID_ARGUMENT',
      );
      // Canton's cause, cut at 512 characters as every cause crossing gRPC is.
      const full = `The submitted request has invalid arguments: Submission failed because: Cannot unassign contracts \`Set(ContractId(${created.contractId}))\` on synchronizer \`${syncB}\`: Participant PAR::${t.state.participantId} has not vetted ${t.state.demoPackageId}`;
      expect(refused.cause).toBe(`${full.slice(0, 512)}...`);
    } finally {
      const vet = await t.post('/v2/package-vetting/update', {
        changes: [
          { operation: { Vet: { value: { packages: [{ packageId: t.state.demoPackageId }] } } } },
        ],
        synchronizerId: syncB,
      });
      expect(vet.status, vet.text).toBe(200);
    }
  });
});

describe('reassignment ids', () => {
  it('are Canton ReassignmentId V0: version byte, then a SHA-256 multihash of the request', () => {
    const first = { contractId: `00${'b'.repeat(64)}`, reassignmentCounter: 1 };
    const second = { contractId: `00${'a'.repeat(64)}`, reassignmentCounter: 3 };
    const contracts = [first, second];
    const id = reassignmentIdOf('A::1220aa', 'B::1220bb', 1_000_000n, contracts);
    expect(id).toMatch(REASSIGNMENT_ID);
    // Contracts are hashed by id, whatever their order; every input counts.
    expect(reassignmentIdOf('A::1220aa', 'B::1220bb', 1_000_000n, [...contracts].reverse())).toBe(
      id,
    );
    expect(reassignmentIdOf('B::1220bb', 'A::1220aa', 1_000_000n, contracts)).not.toBe(id);
    expect(reassignmentIdOf('A::1220aa', 'B::1220bb', 1_000_001n, contracts)).not.toBe(id);
    expect(
      reassignmentIdOf('A::1220aa', 'B::1220bb', 1_000_000n, [
        { ...first, reassignmentCounter: 2 },
        second,
      ]),
    ).not.toBe(id);
  });
});

describe('reassignment authorization in jwt mode', () => {
  let jwt: Sandbox;
  let syncA = '';
  let syncB = '';
  let alice = '';
  let bob = '';
  let contractId = '';
  beforeAll(async () => {
    jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET, synchronizers: ['A', 'B'] });
    [syncA = '', syncB = ''] = jwt.state.synchronizerIds;
    const admin = { token: await hs256Token('participant_admin') };
    for (const synchronizerId of [syncA, syncB]) {
      alice = (await jwt.post('/v2/parties', { partyIdHint: 'alice', synchronizerId }, admin)).json
        .partyDetails.party;
      bob = (await jwt.post('/v2/parties', { partyIdHint: 'bob', synchronizerId }, admin)).json
        .partyDetails.party;
    }
    const user = await jwt.post(
      '/v2/users',
      {
        user: { id: 'alice-user', primaryParty: alice },
        rights: [canActAs(alice), canReadAs(bob)],
      },
      admin,
    );
    expect(user.status, user.text).toBe(200);
    const created = await jwt.post(
      '/v2/commands/submit-and-wait-for-transaction',
      {
        commands: {
          commands: [create(IOU, iou(alice, bob))],
          commandId: nextCommandId(),
          actAs: [alice],
        },
      },
      { token: await hs256Token('alice-user') },
    );
    expect(created.status, created.text).toBe(200);
    contractId = created.json.transaction.events[0].CreatedEvent.contractId;
  });
  afterAll(() => {
    jwt.close();
  });

  it('needs the user of the token and ActAs for the submitter', async () => {
    const start = jwt.state.history.ledgerEnd();
    const token = await hs256Token('alice-user');
    const body = (submitter: string, extra: Record<string, unknown> = {}) => ({
      reassignmentCommands: {
        commandId: nextCommandId(),
        submitter,
        commands: [unassignCommand(contractId, syncA, syncB)],
        ...extra,
      },
    });
    const path = '/v2/commands/submit-and-wait-for-reassignment';
    expectError(await jwt.post(path, body(alice)), 401, 'NA');
    expectError(await jwt.post(path, body(bob), { token }), 403, 'NA');
    expectError(
      await jwt.post(path, body(alice, { userId: 'participant_admin' }), { token }),
      403,
      'NA',
    );
    const unreadable = await jwt.post(
      path,
      {
        ...body(alice),
        eventFormat: { ...wildcard(alice), filtersForAnyParty: { cumulative: [] } },
      },
      { token },
    );
    expectError(unreadable, 403, 'NA');
    expectError(
      await jwt.post('/v2/commands/async/submit-reassignment', body(bob), { token }),
      403,
      'NA',
    );
    const missing = await jwt.post('/v2/commands/async/submit-reassignment', {}, { token });
    expect(expectError(missing, 400, 'MISSING_FIELD').context.field_name).toBe(
      'reassignment_commands',
    );
    const before = jwt.state.history.ledgerEnd();
    expect(before).toBe(start);
    const ok = await jwt.post(
      path,
      { ...body(alice), eventFormat: wildcard(alice, bob) },
      { token },
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.reassignment.offset).toBe(before + 1);
    expect(jwt.state.history.completions(before, before + 1)[0]?.userId).toBe('alice-user');
  });
});

describe('reassignments in a --data-dir sandbox', () => {
  it('keeps where contracts are, and those in flight, across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reassign-'));
    try {
      let t = createTestSandbox({ dataDir, synchronizers: ['A', 'B'] });
      const [syncA = '', syncB = ''] = t.state.synchronizerIds;
      const alice = await allocate(t, 'alice', [syncA, syncB]);
      const moved = await createIou(t, alice, alice);
      const out = await unassign(t, alice, moved.contractId, syncA, syncB);
      await assign(t, alice, unassignedOf(out).reassignmentId, syncA, syncB);
      const flying = await createIou(t, alice, alice);
      const pending = unassignedOf(await unassign(t, alice, flying.contractId, syncA, syncB));
      t.close();

      t = createTestSandbox({ dataDir, synchronizers: ['A', 'B'] });
      try {
        const entries = await activeContracts(t, alice);
        expect(entryOf(entries, moved.contractId)?.JsActiveContract).toMatchObject({
          synchronizerId: syncB,
          reassignmentCounter: 1,
        });
        expect(Object.keys(entryOf(entries, flying.contractId) ?? {})).toEqual([
          'JsIncompleteUnassigned',
        ]);
        // The unassignment is still known, so it can be completed; the moved contract is used
        // where it is.
        const into = await assign(t, alice, pending.reassignmentId, syncA, syncB);
        expect(assignedOf(into).reassignmentCounter).toBe(1);
        const archived = await submit(t, [exercise(IOU, moved.contractId, 'Archive', {})], [alice]);
        expect(archived.synchronizerId).toBe(syncB);
      } finally {
        t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

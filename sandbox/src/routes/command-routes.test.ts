import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanoutNodes } from '../ledger/demo-package';
import { fixtureDar } from '@ledger-console/participant/testing/fixture-dars';
import {
  canActAs,
  canReadAs,
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';
import { iou, create, exercise } from '../testing/json-commands';
import { IOU, ACCOUNT, FANOUT } from '../testing/ledger-history';

type TreeEvent = {
  CreatedTreeEvent?: { value: Record<string, any> };
  ExercisedTreeEvent?: { value: Record<string, any> };
};

let t: TestSandbox;
let alice = '';
let bob = '';
let bank = '';
let commandNumber = 0;
const nextCommandId = () => `cmd-${String(++commandNumber)}`;

async function allocate(sandbox: TestSandbox, hint: string): Promise<string> {
  const response = await sandbox.post('/v2/parties', { partyIdHint: hint });
  expect(response.status, response.text).toBe(200);
  return response.json.partyDetails.party as string;
}

function commandsBody(commands: unknown[], actAs: string[], extra: Record<string, unknown> = {}) {
  return { commands, commandId: nextCommandId(), actAs, userId: 'participant_admin', ...extra };
}

async function submitTree(
  commands: unknown[],
  actAs: string[],
  extra: Record<string, unknown> = {},
) {
  const response = await t.post(
    '/v2/commands/submit-and-wait-for-transaction-tree',
    commandsBody(commands, actAs, extra),
  );
  expect(response.status, response.text).toBe(200);
  return response.json.transactionTree as {
    updateId: string;
    offset: number;
    commandId: string;
    eventsById: Record<string, TreeEvent>;
  };
}

const eventsOf = (tree: { eventsById: Record<string, TreeEvent> }) =>
  Object.entries(tree.eventsById)
    .map(([id, event]) => ({
      id: Number(id),
      created: event.CreatedTreeEvent?.value,
      exercised: event.ExercisedTreeEvent?.value,
    }))
    .sort((a, b) => a.id - b.id);

async function createIou(owner = alice, issuer = alice, amount: string | number = '100') {
  const tree = await submitTree([create(IOU, iou(issuer, owner, amount))], [issuer]);
  const created = eventsOf(tree)[0]?.created;
  return created?.contractId as string;
}

beforeAll(async () => {
  t = createTestSandbox();
  alice = await allocate(t, 'alice');
  bob = await allocate(t, 'bob');
  bank = await allocate(t, 'bank');
});

afterAll(() => {
  t.close();
});

describe('submit-and-wait family', () => {
  it('submit-and-wait answers the update id and its completion offset', async () => {
    const before = t.state.history.ledgerEnd();
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(alice, alice))], [alice]),
    );
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.json)).toEqual(['updateId', 'completionOffset']);
    expect(response.json.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(response.json.completionOffset).toBe(before + 1);
  });

  it('creates an Iou and splits it into the tree the reference describes', async () => {
    const cid = await createIou();
    const tree = await submitTree(
      [exercise(IOU, cid, 'Iou_Split', { splitAmount: '30' })],
      [alice],
    );
    const events = eventsOf(tree);
    expect(events.map((e) => e.id)).toEqual([0, 1, 2]);
    const [split, first, second] = events;
    expect(split?.exercised).toMatchObject({
      nodeId: 0,
      contractId: cid,
      choice: 'Iou_Split',
      consuming: true,
      lastDescendantNodeId: 2,
      actingParties: [alice],
      choiceArgument: { splitAmount: '30.0000000000' },
      packageName: 'sandbox-demo',
    });
    expect(split?.exercised?.templateId).toBe(`${t.state.demoPackageId}:Demo.Iou:Iou`);
    expect(first?.created?.createArgument.amount).toBe('30.0000000000');
    expect(second?.created?.createArgument.amount).toBe('70.0000000000');
    expect(split?.exercised?.exerciseResult).toEqual({
      splitCid: first?.created?.contractId,
      restCid: second?.created?.contractId,
    });
    expect(tree.commandId).toMatch(/^cmd-/);
  });

  it('gives ACS-delta and ledger-effects shapes for submit-and-wait-for-transaction', async () => {
    const cid = await createIou();
    const acs = await t.post('/v2/commands/submit-and-wait-for-transaction', {
      commands: commandsBody([exercise(IOU, cid, 'Iou_Transfer', { newOwner: bob })], [alice]),
    });
    expect(acs.status, acs.text).toBe(200);
    const acsEvents = acs.json.transaction.events as Record<string, any>[];
    expect(acsEvents.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent', 'CreatedEvent']);
    expect(acsEvents[0]?.ArchivedEvent.contractId).toBe(cid);
    const moved = acsEvents[1]?.CreatedEvent.contractId as string;

    const effects = await t.post('/v2/commands/submit-and-wait-for-transaction', {
      commands: commandsBody([exercise(IOU, moved, 'Iou_Transfer', { newOwner: alice })], [bob]),
      transactionFormat: {
        eventFormat: { filtersByParty: { [bob]: {} }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
    expect(effects.status, effects.text).toBe(200);
    const events = effects.json.transaction.events as Record<string, any>[];
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['ExercisedEvent', 'CreatedEvent']);
    // Bob was a stakeholder of the archived Iou, but not of the new one he only witnesses.
    expect(events[0]?.ExercisedEvent).toMatchObject({ acsDelta: true, lastDescendantNodeId: 1 });
    expect(events[1]?.CreatedEvent).toMatchObject({ acsDelta: false, witnessParties: [bob] });
  });

  it('leaves transient contracts out of the ACS delta but not out of ledger effects', async () => {
    const body = commandsBody(
      [
        {
          CreateAndExerciseCommand: {
            templateId: IOU,
            createArguments: iou(alice, alice),
            choice: 'Iou_Split',
            choiceArgument: { splitAmount: 1 },
          },
        },
      ],
      [alice],
    );
    const acs = await t.post('/v2/commands/submit-and-wait-for-transaction', { commands: body });
    const kinds = (acs.json.transaction.events as Record<string, any>[]).map(
      (e) => Object.keys(e)[0],
    );
    expect(kinds).toEqual(['CreatedEvent', 'CreatedEvent']);
    const tree = await submitTree(body.commands, [alice]);
    const events = eventsOf(tree);
    expect(events.map((e) => e.id)).toEqual([0, 1, 2, 3]);
    expect(events[0]?.created?.acsDelta).toBe(false);
    expect(events[1]?.exercised?.acsDelta).toBe(false);
  });

  it('async/submit answers {} and the transaction is committed', async () => {
    const before = t.state.history.ledgerEnd();
    const response = await t.post(
      '/v2/commands/async/submit',
      commandsBody([create(IOU, iou(alice, alice))], [alice]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({});
    expect(t.state.history.ledgerEnd()).toBe(before + 1);
  });

  it('accepts package-id template ids and prints events in package-id form', async () => {
    const byId = `${t.state.demoPackageId}:Demo.Iou:Iou`;
    const tree = await submitTree([create(byId, iou(alice, alice))], [alice]);
    expect(eventsOf(tree)[0]?.created?.templateId).toBe(byId);
  });

  it('shows an observer the create but not a private exercise, and carries traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await t.post(
      '/v2/commands/submit-and-wait-for-transaction-tree',
      commandsBody([create(IOU, iou(alice, alice, 5, [bob]))], [alice]),
      { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
    );
    const tree = response.json.transactionTree;
    expect(tree.traceContext.traceparent).toContain(traceId);
    const created = eventsOf(tree)[0]?.created;
    expect(created?.observers).toEqual([bob]);
    expect(created?.witnessParties).toEqual([alice]);
  });
});

describe('completions', () => {
  it('lists the completions of the user for the requested parties', async () => {
    const done = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(bank, bank))], [bank], { submissionId: 'completion-test' }),
    );
    const response = await t.post('/v2/commands/completions?stream_idle_timeout_ms=10', {
      userId: 'participant_admin',
      parties: [bank],
      beginExclusive: done.json.completionOffset - 1,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toHaveLength(1);
    const completion = response.json[0].completionResponse.Completion.value;
    expect(completion).toMatchObject({
      updateId: done.json.updateId,
      offset: done.json.completionOffset,
      submissionId: 'completion-test',
      userId: 'participant_admin',
      actAs: [bank],
      status: { code: 0 },
    });
    const all = await t.post('/v2/commands/command-completions?stream_idle_timeout_ms=10&limit=3', {
      parties: [alice],
      beginExclusive: 0,
    });
    expect(all.status, all.text).toBe(200);
    expect(all.json).toHaveLength(3);
  });
});

describe('Daml semantics of the built-in package', () => {
  it('merges two Ious: fetch and archive inside, with a node id gap for the fetch', async () => {
    const a = await createIou(alice, alice, 10);
    const b = await createIou(alice, alice, 15);
    const tree = await submitTree([exercise(IOU, a, 'Iou_Merge', { otherCid: b })], [alice]);
    const events = eventsOf(tree);
    // 0 Iou_Merge, 1 fetch (never emitted), 2 Archive of the other, 3 the merged Iou.
    expect(events.map((e) => e.id)).toEqual([0, 2, 3]);
    expect(events[0]?.exercised?.lastDescendantNodeId).toBe(3);
    expect(events[1]?.exercised).toMatchObject({
      choice: 'Archive',
      contractId: b,
      consuming: true,
    });
    expect(events[2]?.created?.createArgument.amount).toBe('25.0000000000');
  });

  it('exercises by key, with a non-consuming choice and a hidden fetch-by-key', async () => {
    const number = `acc-${String(Date.now())}`;
    await submitTree([create(ACCOUNT, { bank, owner: alice, number })], [bank]);
    const tree = await submitTree(
      [
        {
          ExerciseByKeyCommand: {
            templateId: ACCOUNT,
            contractKey: { bank, number },
            choice: 'Account_Issue',
            choiceArgument: { currency: 'EUR', amount: '12.5' },
          },
        },
      ],
      [bank],
    );
    const events = eventsOf(tree);
    expect(events.map((e) => e.id)).toEqual([0, 2]);
    expect(events[0]?.exercised).toMatchObject({ consuming: false, lastDescendantNodeId: 2 });
    expect(events[1]?.created?.createArgument).toMatchObject({ issuer: bank, owner: alice });
    // The account is still there: a second exercise by key works.
    const again = await submitTree(
      [
        {
          ExerciseByKeyCommand: {
            templateId: ACCOUNT,
            contractKey: { bank, number },
            choice: 'Account_Issue',
            choiceArgument: { currency: 'EUR', amount: 1 },
          },
        },
      ],
      [bank],
    );
    expect(eventsOf(again)).toHaveLength(2);
  });

  it('builds Fanout trees whose node ids and descendant ranges are consistent', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 25; round++) {
      const width = 1 + Math.floor(random() * 5);
      const depth = 1 + Math.floor(random() * 4);
      const tree = await submitTree(
        [
          {
            CreateAndExerciseCommand: {
              templateId: FANOUT,
              createArguments: { owner: alice, label: `r${String(round)}` },
              choice: 'Fanout_Run',
              choiceArgument: { width: String(width), depth: String(depth) },
            },
          },
        ],
        [alice],
      );
      const events = eventsOf(tree);
      // Every node is visible to the owner: ids are exactly 0..n-1 in execution order. Counted
      // here independently: per level, the exercise, its creates, and the exercises below.
      let nodes = 1 + width;
      for (let level = 2; level <= depth; level++) nodes = 1 + width * (1 + nodes);
      expect(events.map((e) => e.id)).toEqual([...Array(1 + nodes).keys()]);
      expect(nodes).toBe(fanoutNodes(width, depth));
      const ranges = events
        .filter((e) => e.exercised)
        .map((e) => ({ id: e.id, last: e.exercised?.lastDescendantNodeId as number }));
      for (const { id, last } of ranges) {
        expect(last).toBeGreaterThanOrEqual(id);
        expect(last).toBeLessThan(events.length);
        // Every exercise's range nests inside or lies outside every other range.
        for (const other of ranges) {
          const inside = other.id > id && other.id <= last;
          if (inside) expect(other.last).toBeLessThanOrEqual(last);
        }
      }
      // The roots are the create (0) and the exercise (1) of CreateAndExercise; every other
      // node lies inside the range of an exercise, its parent being the innermost one.
      const parentOf = (nodeId: number) =>
        ranges.filter((r) => r.id < nodeId && nodeId <= r.last).sort((a, b) => b.id - a.id)[0];
      expect(parentOf(0)).toBeUndefined();
      expect(parentOf(1)).toBeUndefined();
      for (const event of events.slice(2)) expect(parentOf(event.id)).toBeDefined();
      expect(events[0]?.created).toBeDefined();
      expect(ranges[0]).toEqual({ id: 1, last: events.length - 1 });
    }
  });

  it('refuses Fanout trees deeper or larger than the demo allows, with a Daml error', async () => {
    for (const [width, depth] of [
      ['1', '2000'],
      ['2', '1000000'],
      ['50001', '1'],
    ]) {
      const response = await t.post(
        '/v2/commands/submit-and-wait',
        commandsBody(
          [
            {
              CreateAndExerciseCommand: {
                templateId: FANOUT,
                createArguments: { owner: alice, label: 'deep' },
                choice: 'Fanout_Run',
                choiceArgument: { width, depth },
              },
            },
          ],
          [alice],
        ),
      );
      expectError(response, 400, 'INTERPRETATION_USER_ERROR');
    }
  });

  it('makes a 10,000-node tree on demand', async () => {
    const tree = await submitTree(
      [
        {
          CreateAndExerciseCommand: {
            templateId: FANOUT,
            createArguments: { owner: alice, label: 'big' },
            choice: 'Fanout_Run',
            choiceArgument: { width: '9998', depth: '1' },
          },
        },
      ],
      [alice],
    );
    expect(Object.keys(tree.eventsById)).toHaveLength(10_000);
  });
});

describe('command errors', () => {
  it('CONTRACT_NOT_FOUND for an unknown contract id', async () => {
    const unknown = `00${'ab'.repeat(32)}ca111220${'cd'.repeat(32)}`;
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, unknown, 'Archive', {})], [alice]),
    );
    const body = expectError(response, 404, 'CONTRACT_NOT_FOUND');
    expect(body.cause).toBe(`Contract could not be found with id ${unknown}`);
    expect(body.resources).toEqual([['CONTRACT_ID', unknown]]);
    expect(body.errorCategory).toBe(11);
  });

  it('CONTRACT_NOT_ACTIVE for an archived contract', async () => {
    const cid = await createIou();
    await submitTree([exercise(IOU, cid, 'Archive', {})], [alice]);
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, cid, 'Archive', {})], [alice]),
    );
    expectError(response, 404, 'CONTRACT_NOT_ACTIVE');
  });

  it('CONTRACT_NOT_FOUND when the contract is not visible to actAs or readAs', async () => {
    const cid = await createIou();
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, cid, 'Archive', {})], [bank]),
    );
    expectError(response, 404, 'CONTRACT_NOT_FOUND');
  });

  it('TEMPLATES_OR_INTERFACES_NOT_FOUND for an unknown template', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create('#sandbox-demo:Demo.Iou:Nope', {})], [alice]),
    );
    const body = expectError(response, 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
    const id = `${t.state.demoPackageId}:Demo.Iou:Nope`;
    expect(body.cause).toBe(`Templates do not exist: [${id}].`);
    expect(body.resources).toEqual([['TEMPLATE_ID', id]]);
    const unknownPackage = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(`${'e'.repeat(64)}:Demo.Iou:Iou`, {})], [alice]),
    );
    expectError(unknownPackage, 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
  });

  it('JSON_API_PACKAGE_SELECTION_FAILED for an unknown package name', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create('#no-such-package:Demo.Iou:Iou', {})], [alice]),
    );
    expectError(response, 400, 'JSON_API_PACKAGE_SELECTION_FAILED');
  });

  it('INVALID_ARGUMENT for an unparseable package reference or unknown choice', async () => {
    const bad = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create('###x:Demo.Iou:Iou', {})], [alice]),
    );
    expect(expectError(bad, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Value does not match the package-id or package-name formats',
    );
    const cid = await createIou();
    const choice = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, cid, 'Iou_Fly', {})], [alice]),
    );
    expect(expectError(choice, 400, 'INVALID_ARGUMENT').cause).toContain('or choice:Iou_Fly');
  });

  it('answers 400 text/plain for a malformed template id and missing required keys', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create('not-a-valid-template-id', {})], [alice]),
    );
    expectDecodeFailure(
      response,
      "Invalid value for: body (Invalid identifier format (not-a-valid-template-id) not matching the expected format (<package>:<moduleName>:<entityName>) at 'commands[0].CreateCommand.templateId')",
    );
    const missing = await t.post('/v2/commands/submit-and-wait', { commands: [], actAs: [alice] });
    expectDecodeFailure(missing, "Invalid value for: body (Missing required field at 'commandId')");
  });

  it('MISSING_FIELD for empty command id, commands and actAs', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ commandId: '' }, 'command_id'],
      [{ commands: [] }, 'commands'],
      [{ actAs: [] }, 'party or act_as'],
    ];
    for (const [override, field] of cases) {
      const body = { ...commandsBody([create(IOU, iou(alice, alice))], [alice]), ...override };
      const response = await t.post('/v2/commands/submit-and-wait', body);
      expect(expectError(response, 400, 'MISSING_FIELD').context.field_name).toBe(field);
    }
  });

  it('INVALID_TOKEN without a userId when no user token can stand in for it', async () => {
    const body = { ...commandsBody([create(IOU, iou(alice, alice))], [alice]), userId: '' };
    const response = await t.post('/v2/commands/submit-and-wait', body);
    expect(expectError(response, 400, 'INVALID_TOKEN').cause).toBe(
      'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
    );
  });

  it('COMMAND_PREPROCESSING_FAILED for a missing field, INVALID_ARGUMENT for an extra one', async () => {
    const missing = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, { issuer: alice, owner: alice, currency: 'USD' })], [alice]),
    );
    expect(expectError(missing, 400, 'COMMAND_PREPROCESSING_FAILED').cause).toContain(
      'Missing non-optional fields: amount, observers',
    );
    const extra = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, { ...iou(alice, alice), colour: 'red' })], [alice]),
    );
    expect(expectError(extra, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Unexpected fields: colour',
    );
    const wrongType = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(alice, alice, 'lots'))], [alice]),
    );
    expectError(wrongType, 400, 'INVALID_ARGUMENT');
  });

  it('DAML_AUTHORIZATION_ERROR when a signatory did not authorize', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(bank, alice))], [alice]),
    );
    const body = expectError(response, 400, 'DAML_AUTHORIZATION_ERROR');
    expect(body.cause).toContain(`requires authorizers ${bank}, but only ${alice} were given`);
  });

  it('TEMPLATE_PRECONDITION_VIOLATED when ensure fails', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(alice, alice, '0'))], [alice]),
    );
    expectError(response, 400, 'TEMPLATE_PRECONDITION_VIOLATED');
  });

  it('INTERPRETATION_USER_ERROR when a choice aborts', async () => {
    const cid = await createIou(alice, alice, 10);
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, cid, 'Iou_Split', { splitAmount: 10 })], [alice]),
    );
    expect(expectError(response, 400, 'INTERPRETATION_USER_ERROR').cause).toContain(
      'splitAmount must be more than 0',
    );
  });

  it('DAML_INTERPRETATION_ERROR for a contract of another template', async () => {
    const cid = await createIou();
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(FANOUT, cid, 'Archive', {})], [alice]),
    );
    expect(expectError(response, 400, 'DAML_INTERPRETATION_ERROR').cause).toContain('Demo.Iou:Iou');
  });

  it('CONTRACT_KEY_NOT_FOUND and DUPLICATE_CONTRACT_KEY for keys', async () => {
    const missing = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody(
        [
          {
            ExerciseByKeyCommand: {
              templateId: ACCOUNT,
              contractKey: { bank, number: 'nope' },
              choice: 'Archive',
              choiceArgument: {},
            },
          },
        ],
        [bank],
      ),
    );
    expectError(missing, 404, 'CONTRACT_KEY_NOT_FOUND');
    const account = create(ACCOUNT, { bank, owner: bob, number: 'dup-1' });
    await submitTree([account], [bank]);
    const duplicate = await t.post('/v2/commands/submit-and-wait', commandsBody([account], [bank]));
    expectError(duplicate, 409, 'DUPLICATE_CONTRACT_KEY');
  });

  it('DUPLICATE_COMMAND for a repeated change id inside the deduplication period', async () => {
    const body = commandsBody([create(IOU, iou(alice, alice))], [alice], {
      submissionId: 'first-submission',
    });
    expect((await t.post('/v2/commands/submit-and-wait', body)).status).toBe(200);
    const again = await t.post('/v2/commands/submit-and-wait', { ...body, submissionId: 'retry' });
    const error = expectError(again, 409, 'DUPLICATE_COMMAND');
    expect(error.cause).toBe(
      'A command with the given command id has already been successfully processed',
    );
    expect(error.context.existing_submission_id).toBe('first-submission');
    expect(again.json.correlationId).toBe('retry');
    // A different actAs set is a different change; an expired period lets it through.
    const otherActAs = { ...body, actAs: [alice, bank] };
    expect(
      (
        await t.post('/v2/commands/submit-and-wait', {
          ...otherActAs,
          commands: [create(IOU, iou(alice, alice))],
        })
      ).status,
    ).toBe(200);
    const shortPeriod = {
      ...body,
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 0, nanos: 1000 } } },
    };
    expect((await t.post('/v2/commands/submit-and-wait', shortPeriod)).status).toBe(200);
  });

  it('NEGATIVE_OFFSET for a negative deduplication offset', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(alice, alice))], [alice], {
        deduplicationPeriod: { DeduplicationOffset: { value: -1 } },
      }),
    );
    expectError(response, 400, 'NEGATIVE_OFFSET');
  });

  it('UNKNOWN_INFORMEES for a stakeholder no participant hosts', async () => {
    const stranger = `stranger::1220${'0'.repeat(64)}`;
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(alice, stranger))], [alice]),
    );
    expectError(response, 404, 'UNKNOWN_INFORMEES');
  });

  it('NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT for a submitter not hosted here', async () => {
    const stranger = `stranger::1220${'0'.repeat(64)}`;
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(IOU, iou(stranger, stranger))], [stranger]),
    );
    expectError(response, 404, 'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT');
  });

  it('INVALID_FIELD for a malformed contract id', async () => {
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([exercise(IOU, 'not-a-contract', 'Archive', {})], [alice]),
    );
    expect(expectError(response, 400, 'INVALID_FIELD').context.field_name).toBe('contract_id');
  });

  it('SANDBOX_CANNOT_INTERPRET for templates of uploaded packages, never a fake success', async () => {
    const dar = fixtureDar('workflows');
    expect((await t.call('POST', '/v2/dars', { rawBody: dar.bytes() })).status).toBe(200);
    const before = t.state.history.ledgerEnd();
    const response = await t.post(
      '/v2/commands/submit-and-wait',
      commandsBody([create(`#${dar.main.name}:Fixture.Ping:Ping`, { id: 'x' })], [alice]),
    );
    const body = expectError(response, 400, 'SANDBOX_CANNOT_INTERPRET');
    expect(body.cause).toContain('cannot run Daml code');
    expect(t.state.history.ledgerEnd()).toBe(before);
  });
});

describe('commands on a participant with two synchronizers', () => {
  let two: TestSandbox;
  let alpha = '';
  let beta = '';
  let onAlpha = '';
  let onBeta = '';
  beforeAll(async () => {
    two = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    [alpha = '', beta = ''] = two.state.synchronizerIds;
    const allocateOn = async (hint: string, synchronizerId: string) => {
      const response = await two.post('/v2/parties', { partyIdHint: hint, synchronizerId });
      expect(response.status, response.text).toBe(200);
      return response.json.partyDetails.party as string;
    };
    onAlpha = await allocateOn('onAlpha', alpha);
    onBeta = await allocateOn('onBeta', beta);
  });
  afterAll(() => {
    two.close();
  });
  const submitOn = (commands: unknown[], actAs: string[], extra: Record<string, unknown> = {}) =>
    two.post('/v2/commands/submit-and-wait-for-transaction', {
      commands: commandsBody(commands, actAs, extra),
    });

  it('runs a command on a synchronizer that hosts its parties, or on the prescribed one', async () => {
    const plain = await submitOn([create(IOU, iou(onAlpha, onAlpha))], [onAlpha]);
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json.transaction.synchronizerId).toBe(alpha);
    const prescribed = await submitOn([create(IOU, iou(onAlpha, onAlpha))], [onAlpha], {
      synchronizerId: alpha,
    });
    expect(prescribed.status, prescribed.text).toBe(200);
    expect(prescribed.json.transaction.synchronizerId).toBe(alpha);
    const times = (await two.get('/v2/state/ledger-end')).json.synchronizerTimes;
    expect(times.find((time: any) => time.synchronizerId === alpha).recordTime).toBe(
      prescribed.json.transaction.recordTime,
    );
    // A party hosted only on the second synchronizer has its commands run there.
    const elsewhere = await submitOn([create(IOU, iou(onBeta, onBeta))], [onBeta]);
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.json.transaction.synchronizerId).toBe(beta);
  });

  it('refuses a synchronizer that does not host the parties, as routing does', async () => {
    const before = two.state.history.ledgerEnd();
    const prescribed = expectError(
      await submitOn([create(IOU, iou(onAlpha, onAlpha))], [onAlpha], { synchronizerId: beta }),
      400,
      'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
    );
    expect(prescribed.errorCategory).toBe(9);
    expect(prescribed.context.definite_answer).toBe('false');
    expect(prescribed.cause).toBe(
      `Not all informees are on the specified synchronizer: ${beta}, but on Set(${alpha})`,
    );
    const informees = expectError(
      await submitOn([create(IOU, iou(onAlpha, onBeta))], [onAlpha]),
      400,
      'INFORMEES_NOT_ACTIVE',
    );
    expect(informees.cause).toBe('There is no common synchronizer where all informees are active');
    // An unconnected synchronizer is still a plain INVALID_ARGUMENT.
    expectError(
      await submitOn([create(IOU, iou(onAlpha, onAlpha))], [onAlpha], {
        synchronizerId: 'gamma::1220ab',
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(two.state.history.ledgerEnd()).toBe(before);
  });
});

describe('disclosed contracts', () => {
  it('lets a party use a contract it cannot see when the blob is disclosed', async () => {
    const withBlob = {
      eventFormat: {
        filtersByParty: {
          [bank]: {
            cumulative: [
              {
                identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } },
              },
            ],
          },
        },
      },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    };
    const createFor = async (owner: string) => {
      const response = await t.post('/v2/commands/submit-and-wait-for-transaction', {
        commands: commandsBody([create(IOU, iou(bank, owner))], [bank]),
        transactionFormat: withBlob,
      });
      expect(response.status, response.text).toBe(200);
      return response.json.transaction.events[0].CreatedEvent as Record<string, string>;
    };
    const mine = await createFor(alice);
    // Bob's Iou: alice is no stakeholder, so she cannot see it.
    const hidden = await createFor(bob);
    expect(hidden.createdEventBlob).not.toBe('');
    const merge = (disclosed: unknown[]) =>
      commandsBody(
        [exercise(IOU, mine.contractId ?? '', 'Iou_Merge', { otherCid: hidden.contractId })],
        [alice],
        {
          disclosedContracts: disclosed,
        },
      );
    expectError(await t.post('/v2/commands/submit-and-wait', merge([])), 404, 'CONTRACT_NOT_FOUND');
    // Disclosed, the fetch succeeds and the merge fails only on Daml grounds (another owner).
    const disclosed = await t.post(
      '/v2/commands/submit-and-wait',
      merge([{ contractId: hidden.contractId, createdEventBlob: hidden.createdEventBlob }]),
    );
    expect(expectError(disclosed, 400, 'INTERPRETATION_USER_ERROR').cause).toContain(
      'different owner',
    );
    expectError(
      await t.post('/v2/commands/submit-and-wait', merge([{ createdEventBlob: 'AAAA' }])),
      400,
      'INVALID_FIELD',
    );
    // A forged blob (another issuer, a made-up id) is refused, not trusted.
    const forgedNode = JSON.parse(
      Buffer.from(hidden.createdEventBlob ?? '', 'base64')
        .toString('utf8')
        .split('\n')
        .slice(1)
        .join('\n'),
    );
    forgedNode.node.signatories = [alice];
    forgedNode.node.argument.issuer = alice;
    const forgedBlob = Buffer.from(
      `${
        Buffer.from(hidden.createdEventBlob ?? '', 'base64')
          .toString('utf8')
          .split('\n')[0]
      }\n${JSON.stringify(forgedNode)}`,
    ).toString('base64');
    const forged = await t.post(
      '/v2/commands/submit-and-wait',
      merge([{ createdEventBlob: forgedBlob }]),
    );
    expect(expectError(forged, 400, 'INVALID_ARGUMENT').cause).toContain('failed authentication');
    const mismatch = merge([
      { contractId: mine.contractId, createdEventBlob: hidden.createdEventBlob },
    ]);
    expectError(await t.post('/v2/commands/submit-and-wait', mismatch), 400, 'INVALID_ARGUMENT');
  });
});

describe('authorization in jwt mode', () => {
  let jwt: TestSandbox;
  let carol = '';
  let dave = '';
  beforeAll(async () => {
    jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const admin = { token: await hs256Token('participant_admin') };
    carol = (await jwt.post('/v2/parties', { partyIdHint: 'carol' }, admin)).json.partyDetails
      .party;
    dave = (await jwt.post('/v2/parties', { partyIdHint: 'dave' }, admin)).json.partyDetails.party;
    const created = await jwt.post(
      '/v2/users',
      {
        user: { id: 'carol-user', primaryParty: carol },
        rights: [canActAs(carol), canReadAs(dave)],
      },
      admin,
    );
    expect(created.status, created.text).toBe(200);
  });
  afterAll(() => {
    jwt.close();
  });

  it('defaults userId from the token and checks actAs and readAs rights', async () => {
    const token = await hs256Token('carol-user');
    const body = (actAs: string[], extra: Record<string, unknown> = {}) => ({
      commands: [create(IOU, iou(actAs[0] ?? carol, actAs[0] ?? carol))],
      commandId: nextCommandId(),
      actAs,
      ...extra,
    });
    const ok = await jwt.post('/v2/commands/submit-and-wait', body([carol], { readAs: [dave] }), {
      token,
    });
    expect(ok.status, ok.text).toBe(200);
    const completions = jwt.state.history.completions(0, jwt.state.history.ledgerEnd());
    expect(completions.at(-1)?.userId).toBe('carol-user');

    const notActAs = await jwt.post('/v2/commands/submit-and-wait', body([dave]), { token });
    expectError(notActAs, 403, 'NA');
    const otherUser = await jwt.post(
      '/v2/commands/submit-and-wait',
      body([carol], { userId: 'participant_admin' }),
      { token },
    );
    expectError(otherUser, 403, 'NA');
    const noToken = await jwt.post('/v2/commands/submit-and-wait', body([carol]));
    expectError(noToken, 401, 'NA');
  });
});

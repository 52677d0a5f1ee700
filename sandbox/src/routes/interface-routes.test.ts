import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allocateParty, FANOUT, HOLDING, IOU } from '../testing/ledger-history';
import { createTestSandbox, expectError, type TestSandbox } from '../testing/test-client';

/**
 * The demo interface `Demo.Holding:Holding`, implemented by the Iou, end to end: exercising by
 * interface id, interface filters on updates, the ACS and events by contract id, interface views
 * and implemented interfaces (ledger-api-behaviour.md §7, the spec's InterfaceFilter).
 */

let t: TestSandbox;
let bank: string;
let alice: string;
let bob: string;
let holdingId: string;
let iouTemplateId: string;
beforeEach(async () => {
  t = createTestSandbox();
  bank = await allocateParty(t, 'Bank');
  alice = await allocateParty(t, 'Alice');
  bob = await allocateParty(t, 'Bob');
  holdingId = `${t.state.demoPackageId}:Demo.Holding:Holding`;
  iouTemplateId = `${t.state.demoPackageId}:Demo.Iou:Iou`;
});
afterEach(() => {
  t.close();
});

const LEDGER_EFFECTS = 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
const ACS_DELTA = 'TRANSACTION_SHAPE_ACS_DELTA';

const wildcard = {
  identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } },
};
const interfaceFilter = (
  interfaceId: string,
  { view = true, blob = false }: { view?: boolean; blob?: boolean } = {},
) => ({
  identifierFilter: {
    InterfaceFilter: {
      value: { interfaceId, includeInterfaceView: view, includeCreatedEventBlob: blob },
    },
  },
});
const formatFor = (party: string, ...cumulative: unknown[]) => ({
  filtersByParty: { [party]: { cumulative } },
  verbose: false,
});

async function submitFor(actAs: string, commands: unknown[], shape = LEDGER_EFFECTS) {
  const result = await t.post('/v2/commands/submit-and-wait-for-transaction', {
    commands: {
      commands,
      commandId: `cmd-${crypto.randomUUID()}`,
      actAs: [actAs],
      userId: 'participant_admin',
    },
    transactionFormat: { eventFormat: formatFor(actAs, wildcard), transactionShape: shape },
  });
  return result;
}

async function issueIou(owner = alice, amount = '100') {
  const result = await submitFor(bank, [
    {
      CreateCommand: {
        templateId: IOU,
        createArguments: { issuer: bank, owner, currency: 'USD', amount, observers: [] },
      },
    },
  ]);
  expect(result.status, result.text).toBe(200);
  return result.json.transaction.events[0].CreatedEvent.contractId as string;
}

const exerciseHolding = (contractId: string, choice: string, choiceArgument: unknown) => ({
  ExerciseCommand: { templateId: HOLDING, contractId, choice, choiceArgument },
});

const ledgerEnd = async () => (await t.get('/v2/state/ledger-end')).json.offset as number;

/** A closed range up to the ledger end, so the list answers without waiting for more. */
const updatesFor = async (eventFormat: unknown, shape: string, beginExclusive = 0) =>
  (
    await t.post('/v2/updates', {
      beginExclusive,
      endInclusive: await ledgerEnd(),
      updateFormat: { includeTransactions: { eventFormat, transactionShape: shape } },
    })
  ).json as any[];

describe('exercising a choice through an interface', () => {
  it('transfers an Iou with Holding_Transfer: the exercise names the template and the interface', async () => {
    const iou = await issueIou();
    const result = await submitFor(alice, [
      exerciseHolding(iou, 'Holding_Transfer', { newOwner: bob }),
    ]);
    expect(result.status, result.text).toBe(200);
    const [exercised, created] = result.json.transaction.events;
    expect(exercised.ExercisedEvent).toMatchObject({
      contractId: iou,
      templateId: iouTemplateId,
      interfaceId: holdingId,
      choice: 'Holding_Transfer',
      choiceArgument: { newOwner: bob },
      actingParties: [alice],
      consuming: true,
      acsDelta: true,
    });
    expect(created.CreatedEvent).toMatchObject({
      templateId: iouTemplateId,
      createArgument: { issuer: bank, owner: bob, amount: '100.0000000000' },
    });
    expect(exercised.ExercisedEvent.exerciseResult).toBe(created.CreatedEvent.contractId);
  });

  it('runs the non-consuming Holding_GetView, which returns the view and archives nothing', async () => {
    const iou = await issueIou();
    const result = await submitFor(alice, [
      exerciseHolding(iou, 'Holding_GetView', { viewer: alice }),
    ]);
    expect(result.status, result.text).toBe(200);
    expect(result.json.transaction.events).toHaveLength(1);
    expect(result.json.transaction.events[0].ExercisedEvent).toMatchObject({
      interfaceId: holdingId,
      consuming: false,
      acsDelta: false,
      exerciseResult: { owner: alice, issuer: bank, amount: '100.0000000000', currency: 'USD' },
    });
    expect(t.state.history.contract(iou)?.archivedOffset).toBeNull();
  });

  it('archives through the interface, controlled by the signatories', async () => {
    const iou = await issueIou();
    // The owner is only an observer of the Iou.
    const refused = await submitFor(alice, [exerciseHolding(iou, 'Archive', {})]);
    expectError(refused, 400, 'DAML_AUTHORIZATION_ERROR');
    const archived = await submitFor(bank, [exerciseHolding(iou, 'Archive', {})]);
    expect(archived.status, archived.text).toBe(200);
    expect(archived.json.transaction.events[0].ExercisedEvent).toMatchObject({
      choice: 'Archive',
      interfaceId: holdingId,
      consuming: true,
    });
  });

  it('refuses the interface choice of someone who does not control it', async () => {
    const iou = await issueIou();
    // Holding_Transfer's controller is the view's owner, Alice.
    const refused = await submitFor(bank, [
      exerciseHolding(iou, 'Holding_Transfer', { newOwner: bob }),
    ]);
    expectError(refused, 400, 'DAML_AUTHORIZATION_ERROR');
  });

  it('refuses a contract whose template does not implement the interface, and unknown choices', async () => {
    const created = await submitFor(alice, [
      { CreateCommand: { templateId: FANOUT, createArguments: { owner: alice, label: 'x' } } },
    ]);
    const fanout = created.json.transaction.events[0].CreatedEvent.contractId as string;
    const notImplemented = expectError(
      await submitFor(alice, [exerciseHolding(fanout, 'Holding_GetView', { viewer: alice })]),
      400,
      'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
    );
    expect(notImplemented.cause).toContain(holdingId);
    const iou = await issueIou();
    const unknownChoice = expectError(
      await submitFor(alice, [exerciseHolding(iou, 'Iou_Split', { splitAmount: '1' })]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(unknownChoice.cause).toContain('choice:Iou_Split');
    // A template's own choice is not reached through the interface id, nor the reverse.
    expectError(
      await submitFor(alice, [
        {
          ExerciseCommand: {
            templateId: IOU,
            contractId: iou,
            choice: 'Holding_Transfer',
            choiceArgument: { newOwner: bob },
          },
        },
      ]),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('interface filters', () => {
  it('select the implementing templates on updates, with the view when asked for', async () => {
    const iou = await issueIou();
    await submitFor(alice, [
      { CreateCommand: { templateId: FANOUT, createArguments: { owner: alice, label: 'x' } } },
    ]);
    const elements = await updatesFor(formatFor(alice, interfaceFilter(HOLDING)), ACS_DELTA);
    // The Fanout does not implement Holding.
    expect(elements).toHaveLength(1);
    const [event] = elements[0].update.Transaction.value.events;
    expect(event.CreatedEvent).toMatchObject({
      contractId: iou,
      templateId: iouTemplateId,
      // Matched by an interface filter alone: the view is the way to the contract's data.
      createArgument: null,
      contractKey: null,
      createdEventBlob: '',
      witnessParties: [alice],
      interfaceViews: [
        {
          interfaceId: holdingId,
          viewStatus: { code: 0, message: '', details: [] },
          viewValue: { owner: alice, issuer: bank, amount: '100.0000000000', currency: 'USD' },
          implementationPackageId: t.state.demoPackageId,
        },
      ],
    });
  });

  it('show create arguments in trees, and when a template filter matches too', async () => {
    await issueIou();
    const both = await updatesFor(
      formatFor(alice, interfaceFilter(HOLDING), {
        identifierFilter: {
          TemplateFilter: { value: { templateId: IOU, includeCreatedEventBlob: false } },
        },
      }),
      ACS_DELTA,
    );
    const created = both[0].update.Transaction.value.events[0].CreatedEvent;
    expect(created.createArgument).toMatchObject({ owner: alice });
    expect(created.interfaceViews).toHaveLength(1);
    const trees = await t.post('/v2/updates/trees', {
      beginExclusive: 0,
      endInclusive: await ledgerEnd(),
      updateFormat: {
        includeTransactions: {
          eventFormat: formatFor(alice, interfaceFilter(HOLDING)),
          transactionShape: LEDGER_EFFECTS,
        },
      },
    });
    expect(trees.status, trees.text).toBe(200);
    const [tree] = trees.json;
    const [treeEvent] = Object.values<any>(tree.update.TransactionTree.value.eventsById);
    expect(treeEvent.CreatedTreeEvent.value.createArgument).toMatchObject({ owner: alice });
  });

  it('leave the view out unless asked, and add the blob when asked', async () => {
    await issueIou();
    const [element] = await updatesFor(
      formatFor(alice, interfaceFilter(holdingId, { view: false, blob: true })),
      ACS_DELTA,
    );
    const created = element.update.Transaction.value.events[0].CreatedEvent;
    expect(created.interfaceViews).toEqual([]);
    expect(created.createdEventBlob).not.toBe('');
  });

  it('give views only to the parties whose interface filter asked for them', async () => {
    await issueIou();
    const [element] = await updatesFor(
      {
        filtersByParty: {
          [alice]: { cumulative: [wildcard] },
          [bank]: { cumulative: [interfaceFilter(HOLDING)] },
        },
        verbose: false,
      },
      ACS_DELTA,
    );
    const created = element.update.Transaction.value.events[0].CreatedEvent;
    expect(created.witnessParties).toEqual([alice, bank].sort());
    expect(created.interfaceViews.map((view: any) => view.interfaceId)).toEqual([holdingId]);
    // Alice's wildcard shows the create argument to everyone the event goes to.
    expect(created.createArgument).toMatchObject({ owner: alice, issuer: bank });
    // Alice alone, with a wildcard, gets no view.
    const [aliceOnly] = await updatesFor(formatFor(alice, wildcard), ACS_DELTA);
    expect(aliceOnly.update.Transaction.value.events[0].CreatedEvent.interfaceViews).toEqual([]);
  });

  it('list matched interfaces on archivals and consuming exercises, not on non-consuming ones', async () => {
    const iou = await issueIou();
    const end = await ledgerEnd();
    await submitFor(alice, [exerciseHolding(iou, 'Holding_GetView', { viewer: alice })]);
    await submitFor(alice, [exerciseHolding(iou, 'Holding_Transfer', { newOwner: bob })]);
    const effects = await updatesFor(
      formatFor(alice, interfaceFilter(HOLDING)),
      LEDGER_EFFECTS,
      end,
    );
    const exercises = effects.map(
      (element: any) => element.update.Transaction.value.events[0].ExercisedEvent,
    );
    expect(exercises.map((e: any) => [e.choice, e.interfaceId, e.implementedInterfaces])).toEqual([
      ['Holding_GetView', holdingId, []],
      ['Holding_Transfer', holdingId, [holdingId]],
    ]);
    const deltas = await updatesFor(formatFor(alice, interfaceFilter(HOLDING)), ACS_DELTA, end);
    const [archival] = deltas.at(-1).update.Transaction.value.events;
    expect(archival.ArchivedEvent).toMatchObject({
      contractId: iou,
      templateId: iouTemplateId,
      implementedInterfaces: [holdingId],
    });
    // Without the view, nothing is listed.
    const noView = await updatesFor(
      formatFor(alice, interfaceFilter(HOLDING, { view: false })),
      ACS_DELTA,
      end,
    );
    expect(
      noView.at(-1).update.Transaction.value.events[0].ArchivedEvent.implementedInterfaces,
    ).toEqual([]);
  });

  it('select active contracts with their views, and events by contract id', async () => {
    const iou = await issueIou(alice, '7');
    await submitFor(alice, [
      { CreateCommand: { templateId: FANOUT, createArguments: { owner: alice, label: 'x' } } },
    ]);
    const activeAtOffset = await ledgerEnd();
    const acs = await t.post('/v2/state/active-contracts', {
      activeAtOffset,
      eventFormat: formatFor(alice, interfaceFilter(HOLDING)),
    });
    expect(acs.status, acs.text).toBe(200);
    expect(acs.json).toHaveLength(1);
    const { createdEvent } = acs.json[0].contractEntry.JsActiveContract;
    expect(createdEvent.contractId).toBe(iou);
    expect(createdEvent.interfaceViews[0].viewValue).toEqual({
      owner: alice,
      issuer: bank,
      amount: '7.0000000000',
      currency: 'USD',
    });
    const events = await t.post('/v2/events/events-by-contract-id', {
      contractId: iou,
      eventFormat: formatFor(alice, interfaceFilter(HOLDING)),
    });
    expect(events.status, events.text).toBe(200);
    expect(events.json.created.createdEvent.interfaceViews[0].interfaceId).toBe(holdingId);
  });

  it('refuse an interface the participant does not know, and a template named as an interface', async () => {
    for (const interfaceId of ['#sandbox-demo:Demo.Holding:Nope', IOU]) {
      const refused = await t.post('/v2/updates', {
        beginExclusive: 0,
        endInclusive: 1,
        updateFormat: {
          includeTransactions: {
            eventFormat: formatFor(alice, interfaceFilter(interfaceId)),
            transactionShape: ACS_DELTA,
          },
        },
      });
      const error = expectError(refused, 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
      expect(error.cause).toBe(`Interfaces do not exist: [${interfaceId}].`);
      expect(error.resources).toEqual([['INTERFACE_ID', interfaceId]]);
    }
  });
});

import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { getNode } from '@/lib/transaction-tree/model';
import {
  TransactionTreeError,
  type TransactionTreeErrorCode,
} from '@/lib/transaction-tree/transaction-tree-error';
import {
  type WireCreatedEvent,
  type WireEvent,
  type WireExercisedEvent,
  type WireTransaction,
  type WireTransactionTree,
  type WireTreeEvent,
  type WireUpdate,
} from './transaction-tree-adapter';
import {
  fromLedgerEffectsTransaction,
  fromTransactionTree,
  fromUpdate,
} from './transaction-tree-builder';

type Schemas = v3_5.components['schemas'];

const PKG = 'a'.repeat(64);
const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';

const created = (nodeId: number, extra: Partial<WireCreatedEvent> = {}): WireCreatedEvent => ({
  offset: 7,
  nodeId,
  contractId: `cid-${String(nodeId)}`,
  templateId: `${PKG}:Demo.Iou:Iou`,
  createArgument: { owner: ALICE, amount: String(nodeId) },
  witnessParties: [ALICE],
  signatories: [ALICE],
  observers: [BOB],
  createdAt: '2025-01-01T00:00:00Z',
  packageName: 'demo',
  acsDelta: true,
  ...extra,
});

const exercised = (
  nodeId: number,
  lastDescendantNodeId: number,
  extra: Partial<WireExercisedEvent> = {},
): WireExercisedEvent => ({
  offset: 7,
  nodeId,
  contractId: `target-${String(nodeId)}`,
  templateId: `${PKG}:Demo.Iou:Iou`,
  choice: 'Iou_Split',
  choiceArgument: { splitAmount: '1' },
  actingParties: [ALICE],
  consuming: true,
  witnessParties: [ALICE],
  lastDescendantNodeId,
  exerciseResult: null,
  packageName: 'demo',
  acsDelta: true,
  ...extra,
});

type Flat = { CreatedEvent: WireCreatedEvent } | { ExercisedEvent: WireExercisedEvent };
const c = (event: WireCreatedEvent): Flat => ({ CreatedEvent: event });
const x = (event: WireExercisedEvent): Flat => ({ ExercisedEvent: event });

const header = {
  updateId: `1220${'b'.repeat(64)}`,
  offset: 7,
  commandId: 'cmd-1',
  workflowId: '',
  effectiveAt: '2025-01-01T00:00:00Z',
  recordTime: '2025-01-01T00:00:01Z',
  synchronizerId: 'sync::1220cc',
};

const flat = (events: WireEvent[]): WireTransaction => ({ ...header, events });

/** The same events as a tree-shape object, keys in the order given. */
function treeShape(events: Flat[]): WireTransactionTree {
  const eventsById: Record<string, WireTreeEvent> = {};
  for (const event of events) {
    if ('CreatedEvent' in event) {
      eventsById[String(event.CreatedEvent.nodeId)] = {
        CreatedTreeEvent: { value: event.CreatedEvent },
      };
    } else {
      eventsById[String(event.ExercisedEvent.nodeId)] = {
        ExercisedTreeEvent: { value: event.ExercisedEvent },
      };
    }
  }
  return { ...header, eventsById };
}

function expectTreeError(build: () => unknown, code: TransactionTreeErrorCode, nodeId?: number) {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TransactionTreeError);
  expect(thrown).toMatchObject({ name: 'TransactionTreeError', code });
  if (nodeId !== undefined) expect((thrown as TransactionTreeError).nodeId).toBe(nodeId);
  return thrown as TransactionTreeError;
}

describe('wire types', () => {
  it("accepts the API's own wire types, so the api layer can pass responses straight in", () => {
    expectTypeOf<Schemas['JsTransactionTree']>().toExtend<WireTransactionTree>();
    expectTypeOf<Schemas['JsTransaction']>().toExtend<WireTransaction>();
    expectTypeOf<Schemas['TreeEvent']>().toExtend<WireTreeEvent>();
    expectTypeOf<Schemas['Event']>().toExtend<WireEvent>();
    expectTypeOf<Schemas['Update']>().toExtend<WireUpdate>();
    expectTypeOf<
      NonNullable<Schemas['JsSubmitAndWaitForTransactionTreeResponse']['transactionTree']>
    >().toExtend<WireTransactionTree>();
    expectTypeOf<
      Schemas['JsSubmitAndWaitForTransactionResponse']['transaction']
    >().toExtend<WireTransaction>();
    expectTypeOf<Schemas['JsGetTransactionTreeResponse']['transaction']>().toExtend<
      Parameters<typeof fromTransactionTree>[0]
    >();
  });
});

describe('fromLedgerEffectsTransaction and fromTransactionTree', () => {
  // 0 Exercise [..5]: 1 Create, 2 Exercise [..4]: (3 not emitted), 4 Create; 5 not emitted
  // 6 Create (root)
  const events: Flat[] = [
    x(exercised(0, 5, { contractId: 'outer' })),
    c(created(1, { contractId: 'made' })),
    x(exercised(2, 4, { contractId: 'made', choice: 'Iou_Transfer' })),
    c(created(4)),
    c(created(6)),
  ];

  it('rebuilds parents and children from node ids and lastDescendantNodeId', () => {
    const tree = fromLedgerEffectsTransaction(flat(events));
    expect(tree.roots).toEqual([0, 6]);
    expect(tree.order).toEqual([0, 1, 2, 4, 6]);
    expect(tree.maxDepth).toBe(2);
    expect(getNode(tree, 0)).toMatchObject({
      parentId: null,
      children: [1, 2],
      depth: 0,
      index: 0,
      descendantCount: 3,
    });
    expect(getNode(tree, 1)).toMatchObject({ parentId: 0, children: [], depth: 1 });
    expect(getNode(tree, 2)).toMatchObject({ parentId: 0, children: [4], descendantCount: 1 });
    expect(getNode(tree, 4)).toMatchObject({ parentId: 2, depth: 2, index: 3 });
    expect(getNode(tree, 6)).toMatchObject({ parentId: null, depth: 0, index: 4 });
  });

  it('gives the same tree from the tree shape', () => {
    const expected = fromLedgerEffectsTransaction(flat(events));
    expect(fromTransactionTree(treeShape(events))).toEqual(expected);
  });

  it('accepts flat events out of node-id order', () => {
    const expected = fromLedgerEffectsTransaction(flat(events));
    expect(fromLedgerEffectsTransaction(flat([...events].reverse()))).toEqual(expected);
  });

  it('copies the event fields the graph and the details panel show', () => {
    const tree = fromLedgerEffectsTransaction(
      flat([
        x(
          exercised(0, 1, {
            interfaceId: `${PKG}:Demo.Holding:Holding`,
            exerciseResult: { splitCid: 'cid-1' },
            consuming: false,
            acsDelta: false,
          }),
        ),
        c(created(1, { contractKey: { id: 'k' } })),
      ]),
    );
    expect(getNode(tree, 0)).toEqual({
      kind: 'exercised',
      nodeId: 0,
      parentId: null,
      children: [1],
      depth: 0,
      index: 0,
      descendantCount: 1,
      contractId: 'target-0',
      templateId: `${PKG}:Demo.Iou:Iou`,
      template: { packageRef: PKG, moduleName: 'Demo.Iou', entityName: 'Iou' },
      packageName: 'demo',
      witnessParties: [ALICE],
      acsDelta: false,
      choice: 'Iou_Split',
      choiceArgument: { splitAmount: '1' },
      exerciseResult: { splitCid: 'cid-1' },
      consuming: false,
      interfaceId: `${PKG}:Demo.Holding:Holding`,
      actingParties: [ALICE],
      lastDescendantNodeId: 1,
      createdBy: null,
    });
    expect(getNode(tree, 1)).toEqual({
      kind: 'created',
      nodeId: 1,
      parentId: 0,
      children: [],
      depth: 1,
      index: 1,
      descendantCount: 0,
      contractId: 'cid-1',
      templateId: `${PKG}:Demo.Iou:Iou`,
      template: { packageRef: PKG, moduleName: 'Demo.Iou', entityName: 'Iou' },
      packageName: 'demo',
      witnessParties: [ALICE],
      acsDelta: true,
      createArgument: { owner: ALICE, amount: '1' },
      contractKey: { id: 'k' },
      signatories: [ALICE],
      observers: [BOB],
      createdAt: '2025-01-01T00:00:00Z',
      consumedBy: null,
    });
  });

  it('reads absent and null optionals alike', () => {
    const minimal = {
      nodeId: 0,
      contractId: 'c',
      templateId: 'not-an-identifier',
      choice: 'Go',
      choiceArgument: {},
      actingParties: [ALICE],
      consuming: true,
      witnessParties: [ALICE],
      lastDescendantNodeId: 0,
      packageName: 'demo',
    };
    const withNulls = { ...minimal, interfaceId: null, exerciseResult: null, acsDelta: null };
    const a = fromLedgerEffectsTransaction({ updateId: 'u', offset: 1, events: [x(minimal)] });
    const b = fromLedgerEffectsTransaction({ updateId: 'u', offset: 1, events: [x(withNulls)] });
    expect(a).toEqual(b);
    expect(getNode(a, 0)).toMatchObject({
      template: null,
      interfaceId: null,
      exerciseResult: null,
      acsDelta: null,
    });
    const create = created(1, { observers: null, createdAt: null, contractKey: null });
    expect(
      getNode(fromLedgerEffectsTransaction({ updateId: 'u', offset: 1, events: [c(create)] }), 1),
    ).toMatchObject({ observers: [], createdAt: null, contractKey: null });
  });

  it('keeps the transaction header, leaving out empty command and workflow ids', () => {
    const tree = fromLedgerEffectsTransaction(flat([c(created(0))]));
    expect(tree).toMatchObject({
      updateId: header.updateId,
      offset: 7,
      commandId: 'cmd-1',
      effectiveAt: header.effectiveAt,
      recordTime: header.recordTime,
      synchronizerId: header.synchronizerId,
    });
    expect('workflowId' in tree).toBe(false);
    const forObserver = fromTransactionTree({ ...treeShape([c(created(0))]), commandId: '' });
    expect('commandId' in forObserver).toBe(false);
  });

  it('keeps a paid traffic cost (0 included), and leaves out none, null or a malformed one', () => {
    const costOf = (paidTrafficCost: unknown) =>
      fromLedgerEffectsTransaction({
        ...flat([c(created(0))]),
        paidTrafficCost,
      } as WireTransaction).paidTrafficCost;
    expect(costOf(2061)).toBe(2061);
    expect(costOf(0)).toBe(0);
    expect(costOf(null)).toBeUndefined();
    expect(costOf(undefined)).toBeUndefined();
    expect(costOf(-1)).toBeUndefined();
    expect(costOf('2061')).toBeUndefined();
    expect(costOf(1.5)).toBeUndefined();
  });

  it('gives an empty tree for a transaction without events', () => {
    const tree = fromLedgerEffectsTransaction(flat([]));
    expect(tree).toMatchObject({ roots: [], order: [], maxDepth: -1 });
    expect(tree.nodes.size).toBe(0);
  });
});

describe('contracts consumed in the same transaction', () => {
  it('links a consuming exercise to the earlier create of its contract', () => {
    const tree = fromLedgerEffectsTransaction(
      flat([
        c(created(0, { contractId: 'transient' })),
        x(exercised(1, 3, { contractId: 'transient' })),
        c(created(2, { contractId: 'kept' })),
        x(exercised(3, 3, { contractId: 'kept', consuming: false })),
      ]),
    );
    expect(getNode(tree, 0)).toMatchObject({ consumedBy: 1 });
    expect(getNode(tree, 1)).toMatchObject({ createdBy: 0 });
    // A non-consuming exercise links to the create but does not consume the contract.
    expect(getNode(tree, 2)).toMatchObject({ consumedBy: null });
    expect(getNode(tree, 3)).toMatchObject({ createdBy: 2 });
  });

  it('records the first consuming exercise only', () => {
    const tree = fromLedgerEffectsTransaction(
      flat([
        c(created(0, { contractId: 'k' })),
        x(exercised(1, 1, { contractId: 'k', consuming: false })),
        x(exercised(2, 2, { contractId: 'k' })),
        x(exercised(3, 3, { contractId: 'k' })),
      ]),
    );
    expect(getNode(tree, 0)).toMatchObject({ consumedBy: 2 });
  });

  it('leaves contracts from earlier transactions unlinked', () => {
    const tree = fromLedgerEffectsTransaction(flat([x(exercised(0, 0, { contractId: 'old' }))]));
    expect(getNode(tree, 0)).toMatchObject({ createdBy: null });
  });
});

describe('ACS_DELTA transactions', () => {
  it('give archived nodes as roots, and mark archives of contracts created here', () => {
    const tree = fromLedgerEffectsTransaction(
      flat([
        {
          ArchivedEvent: {
            nodeId: 0,
            contractId: 'old',
            templateId: `${PKG}:Demo.Iou:Iou`,
            witnessParties: [ALICE],
            packageName: 'demo',
          },
        },
        c(created(1, { contractId: 'new' })),
        {
          ArchivedEvent: {
            nodeId: 3,
            contractId: 'new',
            templateId: `${PKG}:Demo.Iou:Iou`,
            witnessParties: [ALICE],
            packageName: 'demo',
          },
        },
      ]),
    );
    expect(tree.roots).toEqual([0, 1, 3]);
    expect(getNode(tree, 0)).toMatchObject({ kind: 'archived', createdBy: null, acsDelta: null });
    expect(getNode(tree, 1)).toMatchObject({ kind: 'created', consumedBy: 3 });
    expect(getNode(tree, 3)).toMatchObject({ kind: 'archived', createdBy: 1 });
  });
});

describe('fromUpdate', () => {
  it('reads transactions and transaction trees, and nothing else', () => {
    const events = [x(exercised(0, 1)), c(created(1))];
    const expected = fromLedgerEffectsTransaction(flat(events));
    expect(fromUpdate({ Transaction: { value: flat(events) } })).toEqual(expected);
    expect(fromUpdate({ TransactionTree: { value: treeShape(events) } })).toEqual(expected);
    expect(fromUpdate({ Reassignment: { value: {} } })).toBeNull();
    expect(fromUpdate({ OffsetCheckpoint: { value: { offset: 3 } } })).toBeNull();
  });
});

describe('malformed input', () => {
  it('rejects duplicate node ids', () => {
    expectTreeError(
      () => fromLedgerEffectsTransaction(flat([c(created(0)), c(created(1)), c(created(1))])),
      'DUPLICATE_NODE_ID',
      1,
    );
  });

  it('rejects an eventsById key that names another node', () => {
    const wire = treeShape([c(created(0)), c(created(1))]);
    const error = expectTreeError(
      () =>
        fromTransactionTree({
          ...wire,
          eventsById: { ...wire.eventsById, '5': { CreatedTreeEvent: { value: created(1) } } },
        }),
      'NODE_ID_MISMATCH',
      1,
    );
    expect(error.message).toBe('eventsById["5"] holds the event of node 1');
  });

  it('rejects keys that are not canonical decimal node ids', () => {
    expectTreeError(
      () =>
        fromTransactionTree({
          ...header,
          eventsById: { '01': { CreatedTreeEvent: { value: created(1) } } },
        }),
      'NODE_ID_MISMATCH',
    );
  });

  it('rejects a lastDescendantNodeId below the node id', () => {
    const error = expectTreeError(
      () => fromLedgerEffectsTransaction(flat([c(created(0)), x(exercised(3, 2))])),
      'INVALID_DESCENDANT_RANGE',
      3,
    );
    expect(error.message).toContain('lastDescendantNodeId 2');
  });

  it('rejects ranges that overlap without nesting', () => {
    expectTreeError(
      () =>
        fromLedgerEffectsTransaction(
          flat([x(exercised(0, 2)), x(exercised(1, 4)), c(created(2)), c(created(3))]),
        ),
      'OVERLAPPING_RANGES',
      1,
    );
  });

  it('rejects negative, fractional and non-numeric node ids', () => {
    for (const nodeId of [-1, 1.5, Number.NaN]) {
      expectTreeError(
        () => fromLedgerEffectsTransaction(flat([c(created(nodeId))])),
        'INVALID_NODE_ID',
      );
    }
    expectTreeError(
      () =>
        fromLedgerEffectsTransaction(
          flat([x(exercised(0, Number.POSITIVE_INFINITY)), c(created(1))]),
        ),
      'INVALID_DESCENDANT_RANGE',
    );
  });

  it('rejects events of unknown kinds', () => {
    const odd = { Unknown: {} } as unknown as WireEvent;
    expectTreeError(() => fromLedgerEffectsTransaction(flat([odd])), 'UNKNOWN_EVENT');
    const oddTree = { Unknown: {} } as unknown as WireTreeEvent;
    expectTreeError(
      () => fromTransactionTree({ ...header, eventsById: { '0': oddTree } }),
      'UNKNOWN_EVENT',
    );
  });
});

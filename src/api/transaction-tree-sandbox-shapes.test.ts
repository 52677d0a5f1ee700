import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeNode,
  getNode,
  type TransactionTree,
  type TreeNode,
} from '@/lib/transaction-tree/model';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { fanoutTree } from '@/testing/tree-generators';
import {
  type WireTransaction,
  type WireTransactionTree,
  type WireUpdate,
} from './transaction-tree-adapter';
import {
  fromLedgerEffectsTransaction,
  fromTransactionTree,
  fromUpdate,
} from './transaction-tree-builder';

// The same transactions, read back from the in-process sandbox in both wire shapes, must give
// the same tree: the tree shape's eventsById, and the flat LEDGER_EFFECTS event list.

const IOU = '#sandbox-demo:Demo.Iou:Iou';
const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';

let sandbox: Sandbox;
let alice = '';
let bob = '';
let bank = '';
let commandNumber = 0;

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const response = await sandbox.fetch(
    new Request(`http://sandbox.test${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as unknown;
}

async function allocate(hint: string): Promise<string> {
  const json = (await call('POST', '/v2/parties', { partyIdHint: hint })) as {
    partyDetails: { party: string };
  };
  return json.partyDetails.party;
}

const commandsOf = (commands: unknown[], actAs: string[]) => ({
  commands,
  commandId: `tree-${String(++commandNumber)}`,
  actAs,
  userId: 'participant_admin',
});

const ledgerEffectsFor = (parties: string[]) => ({
  eventFormat: {
    filtersByParty: Object.fromEntries(parties.map((party) => [party, {}])),
    verbose: true,
  },
  transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
});

async function submitForTree(commands: unknown[], actAs: string[]) {
  const json = (await call(
    'POST',
    '/v2/commands/submit-and-wait-for-transaction-tree',
    commandsOf(commands, actAs),
  )) as { transactionTree: WireTransactionTree };
  return json.transactionTree;
}

async function submitForTransaction(commands: unknown[], actAs: string[]) {
  const json = (await call('POST', '/v2/commands/submit-and-wait-for-transaction', {
    commands: commandsOf(commands, actAs),
    transactionFormat: ledgerEffectsFor(actAs),
  })) as { transaction: WireTransaction };
  return json.transaction;
}

async function updateById(updateId: string, parties: string[]) {
  const json = (await call('POST', '/v2/updates/update-by-id', {
    updateId,
    updateFormat: { includeTransactions: ledgerEffectsFor(parties) },
  })) as { update: WireUpdate };
  return json.update;
}

async function treeById(updateId: string, parties: string[]) {
  const query = parties.map((party) => `parties=${encodeURIComponent(party)}`).join('&');
  const json = (await call('GET', `/v2/updates/transaction-tree-by-id/${updateId}?${query}`)) as {
    transaction: WireTransactionTree;
  };
  return json.transaction;
}

/** Builds the tree from both shapes of one update (as `parties` see it) and checks they agree. */
async function bothShapes(updateId: string, parties: string[]): Promise<TransactionTree> {
  const fromTree = fromTransactionTree(await treeById(updateId, parties));
  const fromFlat = fromUpdate(await updateById(updateId, parties));
  expect(fromFlat).toEqual(fromTree);
  return fromTree;
}

const create = (templateId: string, createArguments: unknown) => ({
  CreateCommand: { templateId, createArguments },
});
const exercise = (templateId: string, contractId: string, choice: string, argument: unknown) => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument: argument },
});
const iou = (issuer: string, owner: string, amount: string, observers: string[] = []) => ({
  issuer,
  owner,
  currency: 'USD',
  amount,
  observers,
});

async function createIou(issuer: string, owner: string, amount: string, observers: string[] = []) {
  const tree = await submitForTree([create(IOU, iou(issuer, owner, amount, observers))], [issuer]);
  return getNode(fromTransactionTree(tree), 0).contractId;
}

/** What the graph shows of a node, without the ids that differ between two ledgers. */
function shapeOf(tree: TransactionTree) {
  const view = (node: TreeNode) => ({
    nodeId: node.nodeId,
    parentId: node.parentId,
    children: node.children,
    depth: node.depth,
    description: describeNode(node),
    descendantCount: node.descendantCount,
    ...(node.kind === 'created'
      ? // The owner is a party of this sandbox; the label says where the node sits.
        { consumedBy: node.consumedBy, label: (node.createArgument as { label?: unknown }).label }
      : {}),
    ...(node.kind === 'exercised'
      ? {
          consuming: node.consuming,
          lastDescendantNodeId: node.lastDescendantNodeId,
          createdBy: node.createdBy,
          argument: node.choiceArgument,
          result: node.exerciseResult,
        }
      : {}),
  });
  return { roots: tree.roots, nodes: tree.order.map((id) => view(getNode(tree, id))) };
}

beforeAll(async () => {
  sandbox = createSandbox();
  alice = await allocate('alice');
  bob = await allocate('bob');
  bank = await allocate('bank');
});

describe('trees from the sandbox in both wire shapes', () => {
  it('splits an Iou: a consuming exercise with two creates below', async () => {
    const cid = await createIou(alice, alice, '100');
    const wire = await submitForTree(
      [exercise(IOU, cid, 'Iou_Split', { splitAmount: '30' })],
      [alice],
    );
    const tree = await bothShapes(wire.updateId, [alice]);
    expect(fromTransactionTree(wire)).toEqual(tree);
    expect(tree.roots).toEqual([0]);
    expect(tree.commandId).toMatch(/^tree-/);
    expect(tree.offset).toBe(wire.offset);
    const split = getNode(tree, 0);
    expect(split).toMatchObject({
      kind: 'exercised',
      choice: 'Iou_Split',
      consuming: true,
      children: [1, 2],
      actingParties: [alice],
      contractId: cid,
      // Created in an earlier transaction, so not linked to a create here.
      createdBy: null,
      template: { moduleName: 'Demo.Iou', entityName: 'Iou' },
      packageName: 'sandbox-demo',
    });
    expect(getNode(tree, 1)).toMatchObject({ kind: 'created', parentId: 0, depth: 1 });
    expect(getNode(tree, 2)).toMatchObject({ kind: 'created', parentId: 0, consumedBy: null });
    expect(split.kind === 'exercised' && split.exerciseResult).toEqual({
      splitCid: getNode(tree, 1).contractId,
      restCid: getNode(tree, 2).contractId,
    });
  });

  it('gives the same tree for submit-and-wait-for-transaction as for the tree lookup', async () => {
    const cid = await createIou(alice, alice, '10');
    const flat = await submitForTransaction(
      [exercise(IOU, cid, 'Iou_Transfer', { newOwner: bob })],
      [alice],
    );
    expect(flat.events.map((event) => Object.keys(event)[0])).toEqual([
      'ExercisedEvent',
      'CreatedEvent',
    ]);
    const tree = fromLedgerEffectsTransaction(flat);
    expect(fromTransactionTree(await treeById(flat.updateId, [alice]))).toEqual(tree);
    expect(shapeOf(tree).nodes.map((node) => node.description)).toEqual([
      'Exercise Iou_Transfer on Iou',
      'Create Iou',
    ]);
  });

  it('marks a contract created and consumed in the same transaction', async () => {
    const wire = await submitForTree(
      [
        {
          CreateAndExerciseCommand: {
            templateId: IOU,
            createArguments: iou(alice, alice, '50'),
            choice: 'Iou_Split',
            choiceArgument: { splitAmount: '20' },
          },
        },
      ],
      [alice],
    );
    const tree = await bothShapes(wire.updateId, [alice]);
    // Two commands' worth of roots: the create, then the exercise on it.
    expect(tree.roots).toEqual([0, 1]);
    expect(getNode(tree, 0)).toMatchObject({ kind: 'created', consumedBy: 1, acsDelta: false });
    expect(getNode(tree, 1)).toMatchObject({ kind: 'exercised', createdBy: 0, children: [2, 3] });
    expect(getNode(tree, 2)).toMatchObject({ consumedBy: null });
  });

  it('nests an exercise inside another across a node id gap (Iou_Merge)', async () => {
    const a = await createIou(alice, alice, '10');
    const b = await createIou(alice, alice, '15');
    const wire = await submitForTree([exercise(IOU, a, 'Iou_Merge', { otherCid: b })], [alice]);
    const tree = await bothShapes(wire.updateId, [alice]);
    // 0 Iou_Merge, 1 a fetch (never emitted), 2 Archive of b, 3 the merged Iou.
    expect(tree.order).toEqual([0, 2, 3]);
    expect(getNode(tree, 0)).toMatchObject({ children: [2, 3], lastDescendantNodeId: 3 });
    expect(getNode(tree, 2)).toMatchObject({
      kind: 'exercised',
      choice: 'Archive',
      consuming: true,
      parentId: 0,
      contractId: b,
      children: [],
      lastDescendantNodeId: 2,
    });
    expect(getNode(tree, 3)).toMatchObject({ parentId: 0, depth: 1 });
  });

  it('makes a nested exercise a root for a party who sees only it', async () => {
    const a = await createIou(bank, alice, '10');
    const b = await createIou(bank, alice, '15', [bob]);
    const wire = await submitForTree([exercise(IOU, a, 'Iou_Merge', { otherCid: b })], [alice]);
    const asAlice = await bothShapes(wire.updateId, [alice]);
    expect(asAlice.order).toEqual([0, 2, 3]);
    // Bob observes b only: he sees its Archive (node 2), with nothing above it.
    const asBob = await bothShapes(wire.updateId, [bob]);
    expect(asBob.order).toEqual([2]);
    expect(asBob.roots).toEqual([2]);
    expect(getNode(asBob, 2)).toMatchObject({ parentId: null, depth: 0, choice: 'Archive' });
    // The command id is the submitter's business (§7.3): absent for bob.
    expect(asBob.commandId).toBeUndefined();
  });

  it('rebuilds a deep Fanout run, node for node as the generator makes it', async () => {
    const wire = await submitForTree(
      [
        {
          CreateAndExerciseCommand: {
            templateId: FANOUT,
            createArguments: { owner: alice, label: 'root' },
            choice: 'Fanout_Run',
            choiceArgument: { width: '3', depth: '3' },
          },
        },
      ],
      [alice],
    );
    const tree = await bothShapes(wire.updateId, [alice]);
    expect(tree.order).toHaveLength(53);
    // Run (0) → Fanout + Run (1) → Fanout + Run (2) → Fanout (3).
    expect(tree.maxDepth).toBe(3);
    const generated = fromTransactionTree(fanoutTree({ width: 3, depth: 3 }).transactionTree);
    expect(shapeOf(generated)).toEqual(shapeOf(tree));
    // Every Fanout created below is consumed by its own Fanout_Run, except on the last level.
    const created = tree.order.map((id) => getNode(tree, id)).filter((n) => n.kind === 'created');
    const consumed = created.filter((node) => node.consumedBy !== null);
    expect(consumed).toHaveLength(1 + 3 + 9);
  });
});

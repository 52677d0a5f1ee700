import { describe, expect, it } from 'vitest';
import { fanoutTree, randomTree } from '@/testing/tree-generators';
import { buildTree } from './build-tree';
import {
  getNode,
  type ArchivedEvent,
  type CreatedEvent,
  type ExercisedEvent,
  type TransactionEvent,
} from './model';
import { TransactionTreeError, type TransactionTreeErrorCode } from './transaction-tree-error';

// The builder over the model's own events; the wire shapes are read by src/api's adapter and
// tested there (transaction-tree-adapter.test.ts).

const TEMPLATE = `${'a'.repeat(64)}:Demo.Iou:Iou`;

const created = (nodeId: number, contractId = `cid-${String(nodeId)}`): CreatedEvent => ({
  kind: 'created',
  nodeId,
  contractId,
  templateId: TEMPLATE,
  packageName: 'demo',
  witnessParties: ['alice'],
  acsDelta: true,
  createArgument: {},
  contractKey: null,
  signatories: ['alice'],
  observers: [],
  createdAt: null,
});

const exercised = (
  nodeId: number,
  lastDescendantNodeId: number,
  contractId = `target-${String(nodeId)}`,
): ExercisedEvent => ({
  kind: 'exercised',
  nodeId,
  contractId,
  templateId: TEMPLATE,
  packageName: 'demo',
  witnessParties: ['alice'],
  acsDelta: true,
  choice: 'Iou_Split',
  choiceArgument: {},
  exerciseResult: null,
  consuming: true,
  interfaceId: null,
  actingParties: ['alice'],
  lastDescendantNodeId,
});

const archived = (nodeId: number, contractId: string): ArchivedEvent => ({
  kind: 'archived',
  nodeId,
  contractId,
  templateId: TEMPLATE,
  packageName: 'demo',
  witnessParties: ['alice'],
  acsDelta: null,
});

const transaction = (events: TransactionEvent[], header: { commandId?: string } = {}) => ({
  updateId: 'u',
  offset: 3,
  ...header,
  events,
});

function thrownBy(build: () => unknown): TransactionTreeError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(TransactionTreeError);
    return error as TransactionTreeError;
  }
  throw new Error('nothing was thrown');
}

describe('buildTree', () => {
  it('places events by node id and lastDescendantNodeId, and copies their fields', () => {
    // 0 Exercise [..3]: 1 Create, (2 not emitted), 3 Create; 4 Create (root)
    const events = [exercised(0, 3), created(1), created(3), created(4)];
    const tree = buildTree(transaction(events, { commandId: 'cmd' }));
    expect(tree).toMatchObject({ updateId: 'u', offset: 3, commandId: 'cmd', roots: [0, 4] });
    expect(tree.order).toEqual([0, 1, 3, 4]);
    expect(getNode(tree, 0)).toEqual({
      ...exercised(0, 3),
      parentId: null,
      children: [1, 3],
      depth: 0,
      index: 0,
      descendantCount: 2,
      template: { packageRef: 'a'.repeat(64), moduleName: 'Demo.Iou', entityName: 'Iou' },
      createdBy: null,
    });
    expect(getNode(tree, 3)).toMatchObject({ ...created(3), parentId: 0, depth: 1 });
    expect('workflowId' in tree).toBe(false);
  });

  it('gives the same tree for events out of node-id order', () => {
    const events = [exercised(0, 2), created(1), created(2), archived(5, 'cid-1')];
    expect(buildTree(transaction([...events].reverse()))).toEqual(buildTree(transaction(events)));
  });

  it('links archives and consuming exercises to a create in the same transaction', () => {
    const tree = buildTree(
      transaction([created(0, 'k'), exercised(1, 1, 'k'), archived(2, 'k'), archived(3, 'other')]),
    );
    expect(getNode(tree, 0)).toMatchObject({ consumedBy: 1 });
    expect(getNode(tree, 2)).toMatchObject({ createdBy: 0 });
    expect(getNode(tree, 3)).toMatchObject({ createdBy: null });
  });

  it('rejects what cannot be a tree, naming the node', () => {
    const cases: [TransactionEvent[], TransactionTreeErrorCode, number | undefined][] = [
      [[created(-1)], 'INVALID_NODE_ID', undefined],
      [[created(0), created(0)], 'DUPLICATE_NODE_ID', 0],
      [[exercised(2, 1)], 'INVALID_DESCENDANT_RANGE', 2],
      [[exercised(0, 2), exercised(1, 3)], 'OVERLAPPING_RANGES', 1],
    ];
    for (const [events, code, nodeId] of cases) {
      expect(thrownBy(() => buildTree(transaction(events)))).toMatchObject({ code, nodeId });
    }
  });

  it('builds the generated trees as they were generated', () => {
    for (const generated of [
      fanoutTree({ width: 3, depth: 3 }),
      randomTree({ seed: 2, size: 300 }),
    ]) {
      const tree = buildTree(generated.events);
      expect(tree.nodes.size).toBe(generated.parentOf.size);
      for (const [id, parent] of generated.parentOf)
        expect(getNode(tree, id).parentId).toBe(parent);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { buildTree } from './build-tree';
import {
  actingPartiesOf,
  ancestorsOf,
  describeNode,
  getNode,
  isAncestorOf,
  parseIdentifier,
  subtreeIds,
  templateName,
} from './model';
import { SAMPLE_TREE_SHAPE, shapedTree } from '@/testing/tree-generators';

// The sample tree: 0 Transfer (1 Iou, 2 Split (3, 4 Iou, 5 Archive), 6 Account), 7 Iou.
const tree = buildTree(shapedTree(SAMPLE_TREE_SHAPE).events);

describe('parseIdentifier', () => {
  it('splits package, dotted module and entity', () => {
    expect(parseIdentifier('abc123:Demo.Iou:Iou')).toEqual({
      packageRef: 'abc123',
      moduleName: 'Demo.Iou',
      entityName: 'Iou',
    });
    expect(parseIdentifier('#sandbox-demo:Main:Asset')).toEqual({
      packageRef: '#sandbox-demo',
      moduleName: 'Main',
      entityName: 'Asset',
    });
  });

  it('gives null for anything but three non-empty parts', () => {
    for (const id of ['', 'Iou', 'a:b', 'a:b:c:d', ':Mod:Ent', 'pkg::Ent', 'pkg:Mod:']) {
      expect(parseIdentifier(id), id).toBeNull();
    }
  });
});

describe('node helpers', () => {
  it('describes nodes the way labels and screen readers say them', () => {
    expect(tree.order.map((id) => describeNode(getNode(tree, id)))).toEqual([
      'Exercise Transfer on Iou',
      'Create Iou',
      'Exercise Split on Iou',
      'Create Iou',
      'Create Iou',
      'Exercise Archive on Account',
      'Create Account',
      'Create Iou',
    ]);
  });

  it('falls back to the raw template id when it cannot be parsed', () => {
    const odd = buildTree({
      updateId: 'u',
      offset: 1,
      events: [
        {
          kind: 'archived',
          nodeId: 0,
          contractId: 'c',
          templateId: 'Weird',
          packageName: 'p',
          witnessParties: [],
          acsDelta: null,
        },
      ],
    });
    expect(templateName(getNode(odd, 0))).toBe('Weird');
    expect(describeNode(getNode(odd, 0))).toBe('Archive Weird');
  });

  it('throws a RangeError for ids not in the tree', () => {
    expect(() => getNode(tree, 99)).toThrow(RangeError);
  });

  it('lists ancestors nearest first', () => {
    expect(ancestorsOf(tree, 5)).toEqual([2, 0]);
    expect(ancestorsOf(tree, 0)).toEqual([]);
    expect(ancestorsOf(tree, 7)).toEqual([]);
  });

  it('tells ancestors apart from other nodes', () => {
    expect(isAncestorOf(tree, 0, 5)).toBe(true);
    expect(isAncestorOf(tree, 2, 5)).toBe(true);
    expect(isAncestorOf(tree, 5, 5)).toBe(false);
    expect(isAncestorOf(tree, 5, 2)).toBe(false);
    expect(isAncestorOf(tree, 2, 6)).toBe(false);
    expect(isAncestorOf(tree, 0, 7)).toBe(false);
  });

  it('gives a subtree in pre-order, the node first', () => {
    expect(subtreeIds(tree, 0)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(subtreeIds(tree, 2)).toEqual([2, 3, 4, 5]);
    expect(subtreeIds(tree, 7)).toEqual([7]);
  });

  it('names who acted: top-level exercises’ acting parties and creates’ signatories, once each', () => {
    const forest = buildTree(
      shapedTree([
        { choice: 'Iou_Split', parties: ['alice', 'bank'], children: [{ parties: ['carol'] }] },
        { parties: ['bank', 'alice'] },
        { parties: ['dave'] },
      ]).events,
    );
    // Nested events (carol's create) are the choice's doing, not the submitters'.
    expect(actingPartiesOf(forest)).toEqual(['alice', 'bank', 'dave']);
    expect(actingPartiesOf(buildTree(shapedTree([]).events))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { fromLedgerEffectsTransaction, fromTransactionTree } from '@/api/transaction-tree-builder';
import { getNode, type NodeId, type TransactionTree } from '@/lib/transaction-tree/model';
import {
  fanoutNodeCount,
  fanoutTree,
  randomTree,
  seededRandom,
  shapedTree,
} from './tree-generators';

/**
 * Every structural fact the model promises, checked node by node. Problems are collected and
 * compared once: an `expect` per node makes the 10,000-node cases take seconds.
 */
function expectConsistent(tree: TransactionTree, parentOf: ReadonlyMap<NodeId, NodeId | null>) {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  check(tree.nodes.size === parentOf.size, `${String(tree.nodes.size)} nodes`);
  const ids = [...tree.nodes.keys()].sort((a, b) => a - b);
  check(
    ids.every((id, i) => tree.order[i] === id),
    'order is not ascending node ids',
  );
  const roots = new Set(tree.roots);
  let maxDepth = -1;
  let childCount = 0;
  tree.order.forEach((id, index) => {
    const node = getNode(tree, id);
    const at = `node ${String(id)}:`;
    check(node.nodeId === id && node.index === index, `${at} id or index`);
    check(node.parentId === parentOf.get(id), `${at} parent ${String(node.parentId)}`);
    maxDepth = Math.max(maxDepth, node.depth);
    if (node.parentId === null) {
      check(node.depth === 0 && roots.has(id), `${at} root`);
    } else {
      const parent = getNode(tree, node.parentId);
      check(node.depth === parent.depth + 1, `${at} depth`);
      check(
        parent.kind === 'exercised' && id > parent.nodeId && id <= parent.lastDescendantNodeId,
        `${at} outside its parent's range`,
      );
    }
    // Each child names this node as its parent (with the count check below, every non-root is
    // exactly one node's child); children in execution order; the subtree is the contiguous run
    // after the node.
    check(
      node.children.every((child) => getNode(tree, child).parentId === id),
      `${at} a child with another parent`,
    );
    childCount += node.children.length;
    check(
      node.children.every((child, i) => i === 0 || child > (node.children[i - 1] ?? child)),
      `${at} children out of order`,
    );
    const sizes = node.children.map((child) => 1 + getNode(tree, child).descendantCount);
    check(
      node.descendantCount === sizes.reduce((sum, size) => sum + size, 0),
      `${at} descendantCount`,
    );
    if (node.kind === 'exercised') {
      const last = tree.order[index + node.descendantCount] ?? id;
      const after = tree.order[index + node.descendantCount + 1];
      check(last <= node.lastDescendantNodeId, `${at} a descendant beyond the range`);
      check(after === undefined || after > node.lastDescendantNodeId, `${at} range not covered`);
    }
  });
  check(tree.maxDepth === maxDepth, 'maxDepth');
  check(childCount + tree.roots.length === tree.order.length, 'children plus roots');
  check(
    tree.roots.length === tree.order.filter((id) => getNode(tree, id).parentId === null).length,
    'roots',
  );
  expect(problems).toEqual([]);
}

describe('randomTree', () => {
  it('gives the same tree through both builders, consistent with how it was generated', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const size = 1 + (seed % 97);
      const generated = randomTree({ seed, size });
      const fromFlat = fromLedgerEffectsTransaction(generated.transaction);
      const fromTree = fromTransactionTree(generated.transactionTree);
      expect(fromTree, `seed ${String(seed)}`).toEqual(fromFlat);
      expect(fromFlat.order).toHaveLength(size);
      expectConsistent(fromFlat, generated.parentOf);
    }
  });

  it('covers the cases the builders must handle', () => {
    let gaps = 0;
    let trailingGaps = 0;
    let multipleRoots = 0;
    let transient = 0;
    let deep = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const generated = randomTree({ seed, size: 60 });
      const tree = fromLedgerEffectsTransaction(generated.transaction);
      if ((tree.order.at(-1) ?? 0) + 1 > tree.order.length) gaps += 1;
      if (tree.roots.length > 1) multipleRoots += 1;
      if (tree.maxDepth >= 8) deep += 1;
      for (const node of tree.nodes.values()) {
        if (node.kind === 'created' && node.consumedBy !== null) transient += 1;
        const lastBelow = tree.order[node.index + node.descendantCount];
        if (node.kind === 'exercised' && lastBelow !== node.lastDescendantNodeId) trailingGaps += 1;
      }
    }
    expect(gaps).toBeGreaterThan(50);
    expect(trailingGaps).toBeGreaterThan(50);
    expect(multipleRoots).toBeGreaterThan(50);
    expect(transient).toBeGreaterThan(50);
    expect(deep).toBeGreaterThan(20);
  });

  it('is reproducible from its seed', () => {
    expect(randomTree({ seed: 9, size: 40 })).toEqual(randomTree({ seed: 9, size: 40 }));
    expect(randomTree({ seed: 9, size: 40 })).not.toEqual(randomTree({ seed: 10, size: 40 }));
  });

  it('builds trees of a few thousand nodes, bushy or deep', () => {
    for (const seed of [1, 2, 3, 4]) {
      const generated = randomTree({ seed, size: 3000 });
      const tree = fromTransactionTree(generated.transactionTree);
      expect(tree).toEqual(fromLedgerEffectsTransaction(generated.transaction));
      expectConsistent(tree, generated.parentOf);
    }
  });
});

describe('fanoutTree', () => {
  it.each([
    [98, 1, 100],
    [998, 1, 1000],
    [9998, 1, 10_000],
    [3, 3, 53],
    [3, 6, 1457],
    [1, 5, 11],
  ])('width %i, depth %i has %i nodes', (width, depth, nodes) => {
    expect(fanoutNodeCount(width, depth)).toBe(nodes);
    const generated = fanoutTree({ width, depth });
    const tree = fromLedgerEffectsTransaction(generated.transaction);
    expect(tree.order).toHaveLength(nodes);
    expect(tree.maxDepth).toBe(depth);
    expect(fromTransactionTree(generated.transactionTree)).toEqual(tree);
    expectConsistent(tree, generated.parentOf);
  });

  it('is the sandbox Fanout_Run: a run per created Fanout above the last level', () => {
    const tree = fromLedgerEffectsTransaction(fanoutTree({ width: 2, depth: 2 }).transaction);
    const labels = tree.order.map((id) => {
      const node = getNode(tree, id);
      return node.kind === 'exercised'
        ? `${String(id)} run ${String(node.exerciseResult)} of ${String(node.createdBy)}`
        : `${String(id)} fanout consumed by ${String(node.kind === 'created' ? node.consumedBy : '?')}`;
    });
    expect(labels).toEqual([
      '0 fanout consumed by 1',
      '1 run 6 of 0',
      '2 fanout consumed by 3',
      '3 run 2 of 2',
      '4 fanout consumed by null',
      '5 fanout consumed by null',
      '6 fanout consumed by 7',
      '7 run 2 of 6',
      '8 fanout consumed by null',
      '9 fanout consumed by null',
    ]);
  });
});

describe('shapedTree', () => {
  it('numbers a hand-written tree in pre-order, in both shapes', () => {
    const generated = shapedTree([
      {
        choice: 'Transfer',
        contractId: 'outer',
        children: [{ template: 'Account' }, { choice: 'Go', consuming: false, children: [{}] }],
      },
      {},
    ]);
    const tree = fromTransactionTree(generated.transactionTree);
    expect(tree).toEqual(fromLedgerEffectsTransaction(generated.transaction));
    expectConsistent(tree, generated.parentOf);
    expect(tree.roots).toEqual([0, 4]);
    expect(getNode(tree, 0)).toMatchObject({ contractId: 'outer', children: [1, 2] });
    expect(getNode(tree, 1)).toMatchObject({
      kind: 'created',
      template: { entityName: 'Account' },
    });
    expect(getNode(tree, 2)).toMatchObject({ consuming: false, lastDescendantNodeId: 3 });
  });
});

describe('seededRandom', () => {
  it('gives numbers in [0, 1), the same for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      const value = a();
      expect(value).toBe(b());
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

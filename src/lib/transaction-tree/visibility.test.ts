import { describe, expect, it } from 'vitest';
import { buildTree } from './build-tree';
import { ancestorsOf, getNode, type NodeId, type TransactionTree } from './model';
import {
  fanoutTree,
  randomTree,
  seededRandom,
  SAMPLE_TREE_SHAPE,
  shapedTree,
} from '@/testing/tree-generators';
import {
  buildVisibleTree,
  collapse,
  collapseAll,
  collapseSubtree,
  collapseToDepth,
  DEFAULT_VISIBLE_NODE_LIMIT,
  defaultCollapsed,
  expand,
  expandAll,
  expandSubtree,
  hiddenDescendantCount,
  isVisible,
  reveal,
  toggle,
  visibleChildren,
} from './visibility';

// The sample tree: 0 Transfer (1 Iou, 2 Split (3, 4 Iou, 5 Archive), 6 Account), 7 Iou.
const tree = buildTree(shapedTree(SAMPLE_TREE_SHAPE).events);

const sorted = (ids: Iterable<NodeId>) => [...ids].sort((a, b) => a - b);

describe('buildVisibleTree', () => {
  it('shows every node in pre-order when nothing is collapsed', () => {
    const visible = buildVisibleTree(tree, expandAll());
    expect(visible.order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(visible.rowOf.get(6)).toBe(6);
    expect(visible.collapsed.size).toBe(0);
    expect(visibleChildren(visible, 0)).toEqual([1, 2, 6]);
  });

  it('hides the subtree of a collapsed node and counts it for the +N badge', () => {
    const visible = buildVisibleTree(tree, new Set([2]));
    expect(visible.order).toEqual([0, 1, 2, 6, 7]);
    expect([...visible.collapsed]).toEqual([2]);
    expect(hiddenDescendantCount(visible, 2)).toBe(3);
    expect(hiddenDescendantCount(visible, 0)).toBe(0);
    expect(visibleChildren(visible, 2)).toEqual([]);
    expect(isVisible(visible, 3)).toBe(false);
    expect(isVisible(visible, 6)).toBe(true);
  });

  it('reports only the outermost collapsed node when collapsed nodes nest', () => {
    const visible = buildVisibleTree(tree, new Set([0, 2]));
    expect(visible.order).toEqual([0, 7]);
    expect([...visible.collapsed]).toEqual([0]);
    expect(hiddenDescendantCount(visible, 0)).toBe(6);
  });

  it('ignores leaves and unknown ids in the collapsed set', () => {
    const visible = buildVisibleTree(tree, new Set([5, 7, 42]));
    expect(visible.order).toHaveLength(8);
    expect(visible.collapsed.size).toBe(0);
  });

  it('opens force-expanded nodes without forgetting that the user collapsed them', () => {
    const collapsed = new Set([0, 2]);
    const visible = buildVisibleTree(tree, collapsed, new Set([0]));
    expect(visible.order).toEqual([0, 1, 2, 6, 7]);
    expect([...visible.forcedOpen]).toEqual([0]);
    expect([...visible.collapsed]).toEqual([2]);
    expect(buildVisibleTree(tree, collapsed).order).toEqual([0, 7]);
  });

  it('agrees with the definition on random trees and random collapsed sets', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed);
      const big = buildTree(randomTree({ seed, size: 200 }).events);
      const collapsed = new Set(big.order.filter(() => random() < 0.1));
      const forced = new Set(big.order.filter(() => random() < 0.05));
      const visible = buildVisibleTree(big, collapsed, forced);
      const folded = (id: NodeId) => collapsed.has(id) && !forced.has(id);
      // Visible: no ancestor is folded.
      const expected = big.order.filter((id) => !ancestorsOf(big, id).some(folded));
      expect(visible.order).toEqual(expected);
      // Every node is either shown, or hidden under exactly one shown collapsed node.
      let hidden = 0;
      for (const id of visible.collapsed) hidden += hiddenDescendantCount(visible, id);
      expect(visible.order.length + hidden).toBe(big.order.length);
      for (const id of visible.order) {
        expect(visible.collapsed.has(id)).toBe(folded(id) && getNode(big, id).children.length > 0);
      }
    }
  });
});

describe('collapse set helpers', () => {
  it('toggle, expand and collapse return new sets and leave the old one alone', () => {
    const start = new Set([2]);
    const toggled = toggle(start, 0);
    expect(sorted(toggled)).toEqual([0, 2]);
    expect(sorted(toggle(toggled, 2))).toEqual([0]);
    expect(sorted(start)).toEqual([2]);
    expect(sorted(expand(start, 2))).toEqual([]);
    expect(sorted(collapse(start, 0))).toEqual([0, 2]);
    // No change, no new set: React skips the render.
    expect(expand(start, 0)).toBe(start);
    expect(collapse(start, 2)).toBe(start);
  });

  it('collapses to a depth, folding the deeper levels too', () => {
    expect(sorted(collapseToDepth(tree, 0))).toEqual([0, 2]);
    expect(buildVisibleTree(tree, collapseToDepth(tree, 0)).order).toEqual([0, 7]);
    expect(sorted(collapseToDepth(tree, 1))).toEqual([2]);
    expect(buildVisibleTree(tree, collapseToDepth(tree, 1)).order).toEqual([0, 1, 2, 6, 7]);
    expect(sorted(collapseToDepth(tree, 2))).toEqual([]);
    expect(sorted(collapseAll(tree))).toEqual([0, 2]);
  });

  it('shows exactly the nodes up to the depth, on random trees', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const big = buildTree(randomTree({ seed, size: 300 }).events);
      for (const depth of [0, 1, 3]) {
        const visible = buildVisibleTree(big, collapseToDepth(big, depth));
        expect(visible.order).toEqual(big.order.filter((id) => getNode(big, id).depth <= depth));
      }
    }
  });

  it('expands and collapses whole subtrees', () => {
    const all = collapseAll(tree);
    expect(sorted(expandSubtree(tree, all, 0))).toEqual([]);
    expect(sorted(expandSubtree(tree, all, 2))).toEqual([0]);
    expect(sorted(collapseSubtree(tree, expandAll(), 0))).toEqual([0, 2]);
    expect(sorted(collapseSubtree(tree, new Set([7]), 2))).toEqual([2, 7]);
  });

  it('reveals a node by opening its collapsed ancestors only', () => {
    const collapsed = new Set([0, 2]);
    expect(sorted(reveal(tree, collapsed, 4))).toEqual([]);
    expect(sorted(reveal(tree, collapsed, 1))).toEqual([2]);
    expect(reveal(tree, collapsed, 7)).toBe(collapsed);
    expect(isVisible(buildVisibleTree(tree, reveal(tree, collapsed, 4)), 4)).toBe(true);
  });
});

describe('defaultCollapsed', () => {
  const levelSizes = (big: TransactionTree) => {
    const sizes: number[] = [];
    for (const node of big.nodes.values()) sizes[node.depth] = (sizes[node.depth] ?? 0) + 1;
    return sizes;
  };

  it('opens a tree that fits completely', () => {
    expect(defaultCollapsed(tree).size).toBe(0);
    const thousand = buildTree(fanoutTree({ width: 998, depth: 1 }).events);
    expect(thousand.order).toHaveLength(DEFAULT_VISIBLE_NODE_LIMIT);
    expect(defaultCollapsed(thousand).size).toBe(0);
  });

  it('shows the deepest whole levels that fit the limit', () => {
    // Levels of Fanout 3×8: 2, 6, 18, 54, 162, 486, 1458, …: levels 0–5 make 728 nodes.
    const big = buildTree(fanoutTree({ width: 3, depth: 8 }).events);
    expect(big.order).toHaveLength(13_121);
    const visible = buildVisibleTree(big, defaultCollapsed(big));
    expect(visible.order).toHaveLength(728);
    expect(Math.max(...visible.order.map((id) => getNode(big, id).depth))).toBe(5);
    expect(buildVisibleTree(big, defaultCollapsed(big, 2186)).order).toHaveLength(2186);
    expect(buildVisibleTree(big, defaultCollapsed(big, 2185)).order).toHaveLength(728);
  });

  it('shows only the roots when one level more would be too many', () => {
    const wide = buildTree(fanoutTree({ width: 9998, depth: 1 }).events);
    const visible = buildVisibleTree(wide, defaultCollapsed(wide));
    expect(visible.order).toEqual([0, 1]);
    expect(hiddenDescendantCount(visible, 1)).toBe(9998);
    // Even when the roots alone exceed the limit, they stay.
    expect(buildVisibleTree(wide, defaultCollapsed(wide, 1)).order).toEqual([0, 1]);
  });

  it('keeps within the limit on random trees, and one more level would not', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const big = buildTree(randomTree({ seed, size: 500 }).events);
      const limit = 20 + seed * 5;
      const visible = buildVisibleTree(big, defaultCollapsed(big, limit));
      const sizes = levelSizes(big);
      const depth = Math.max(...visible.order.map((id) => getNode(big, id).depth));
      const shown = sizes.slice(0, depth + 1).reduce((sum, size) => sum + size, 0);
      expect(visible.order).toHaveLength(shown);
      if (depth > 0) expect(shown).toBeLessThanOrEqual(limit);
      if (depth < big.maxDepth) expect(shown + (sizes[depth + 1] ?? 0)).toBeGreaterThan(limit);
    }
  });
});

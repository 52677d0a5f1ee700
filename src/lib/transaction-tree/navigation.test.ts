import { describe, expect, it } from 'vitest';
import { buildTree } from './build-tree';
import type { NodeId } from './model';
import {
  firstChild,
  firstVisible,
  keyAction,
  lastVisible,
  nextSibling,
  nextVisible,
  parentOf,
  previousSibling,
  previousVisible,
} from './navigation';
import { randomTree, shapedTree } from '@/testing/tree-generators';
import { buildVisibleTree, collapseToDepth, expandAll } from './visibility';

// 0 Transfer ─┬─ 1 Iou
//             ├─ 2 Split ─┬─ 3 Iou
//             │           └─ 4 Iou
//             └─ 5 Account
// 6 Iou
const tree = buildTree(
  shapedTree([
    { choice: 'Transfer', children: [{}, { choice: 'Split', children: [{}, {}] }, {}] },
    {},
  ]).events,
);
const open = buildVisibleTree(tree, expandAll());
const folded = buildVisibleTree(tree, new Set([2]));

describe('moving through visible nodes', () => {
  it('steps through the outline rows in pre-order, skipping hidden nodes', () => {
    expect(nextVisible(open, 2)).toBe(3);
    expect(nextVisible(folded, 2)).toBe(5);
    expect(previousVisible(folded, 5)).toBe(2);
    expect(previousVisible(open, 0)).toBeNull();
    expect(nextVisible(open, 6)).toBeNull();
    expect(nextVisible(folded, 3)).toBeNull();
    expect(firstVisible(open)).toBe(0);
    expect(lastVisible(open)).toBe(6);
  });

  it('finds parents, first children and siblings', () => {
    expect(parentOf(open, 3)).toBe(2);
    expect(parentOf(open, 6)).toBeNull();
    expect(firstChild(open, 2)).toBe(3);
    expect(firstChild(folded, 2)).toBeNull();
    expect(firstChild(open, 1)).toBeNull();
    expect(nextSibling(open, 1)).toBe(2);
    expect(nextSibling(open, 2)).toBe(5);
    expect(nextSibling(open, 5)).toBeNull();
    expect(previousSibling(open, 2)).toBe(1);
    expect(previousSibling(open, 1)).toBeNull();
    // Roots are siblings of each other.
    expect(nextSibling(open, 0)).toBe(6);
    expect(previousSibling(open, 6)).toBe(0);
  });

  it('visits every visible node once, down then back up', () => {
    const big = buildTree(randomTree({ seed: 4, size: 400 }).events);
    const visible = buildVisibleTree(big, collapseToDepth(big, 5));
    const seen: NodeId[] = [];
    for (let id = firstVisible(visible); id !== null; id = nextVisible(visible, id)) seen.push(id);
    expect(seen).toEqual(visible.order);
    const back: NodeId[] = [];
    for (let id = lastVisible(visible); id !== null; id = previousVisible(visible, id)) {
      back.push(id);
    }
    expect(back).toEqual([...visible.order].reverse());
  });
});

describe('keyAction', () => {
  it('follows the tree view pattern in the outline', () => {
    expect(keyAction(open, 2, 'ArrowDown')).toEqual({ type: 'focus', id: 3 });
    expect(keyAction(open, 2, 'ArrowUp')).toEqual({ type: 'focus', id: 1 });
    expect(keyAction(open, 2, 'ArrowRight')).toEqual({ type: 'focus', id: 3 });
    expect(keyAction(folded, 2, 'ArrowRight')).toEqual({ type: 'expand', id: 2 });
    expect(keyAction(open, 2, 'ArrowLeft')).toEqual({ type: 'collapse', id: 2 });
    expect(keyAction(folded, 2, 'ArrowLeft')).toEqual({ type: 'focus', id: 0 });
    expect(keyAction(open, 3, 'ArrowLeft')).toEqual({ type: 'focus', id: 2 });
    expect(keyAction(open, 3, 'ArrowRight')).toBeNull();
    expect(keyAction(open, 3, 'Home')).toEqual({ type: 'focus', id: 0 });
    expect(keyAction(open, 3, 'End')).toEqual({ type: 'focus', id: 6 });
    expect(keyAction(open, 3, 'Enter')).toEqual({ type: 'select', id: 3 });
    expect(keyAction(open, 6, 'ArrowDown')).toBeNull();
    expect(keyAction(open, 0, 'ArrowLeft')).toEqual({ type: 'collapse', id: 0 });
    expect(keyAction(open, 6, 'ArrowLeft')).toBeNull();
    expect(keyAction(open, 3, 'x')).toBeNull();
  });

  it('follows the picture in the graph', () => {
    expect(keyAction(open, 2, 'ArrowUp', 'graph')).toEqual({ type: 'focus', id: 0 });
    expect(keyAction(open, 2, 'ArrowDown', 'graph')).toEqual({ type: 'focus', id: 3 });
    expect(keyAction(folded, 2, 'ArrowDown', 'graph')).toEqual({ type: 'expand', id: 2 });
    expect(keyAction(open, 2, 'ArrowLeft', 'graph')).toEqual({ type: 'focus', id: 1 });
    expect(keyAction(open, 2, 'ArrowRight', 'graph')).toEqual({ type: 'focus', id: 5 });
    expect(keyAction(open, 5, 'ArrowRight', 'graph')).toBeNull();
    expect(keyAction(open, 0, 'ArrowUp', 'graph')).toBeNull();
    expect(keyAction(open, 1, 'ArrowDown', 'graph')).toBeNull();
    expect(keyAction(open, 3, 'End', 'graph')).toEqual({ type: 'focus', id: 6 });
  });

  it('does nothing for a node that is not visible', () => {
    expect(keyAction(folded, 3, 'ArrowDown')).toBeNull();
  });
});

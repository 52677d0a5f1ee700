import { describe, expect, it } from 'vitest';
import { fanoutTree } from '@/testing/tree-generators';
import { buildTree } from './build-tree';
import { layoutTree } from './layout';
import { mountedAfter, mountOrder } from './progressive';
import { buildVisibleTree, expandAll } from './visibility';

const tree = buildTree(fanoutTree({ width: 998, depth: 1 }).events);
const layout = layoutTree(buildVisibleTree(tree, expandAll()));

describe('mountOrder', () => {
  it('orders every box by its distance from the anchor, the anchor first', () => {
    const order = mountOrder(layout, 500);
    expect(order).toHaveLength(layout.nodes.length);
    expect(new Set(order.map((box) => box.id)).size).toBe(layout.nodes.length);
    expect(order[0]?.id).toBe(500);
    // The exercise right above it and its neighbours on the level come soon, far ones later.
    const next = order.slice(1, 6).map((box) => box.id);
    expect(next).toEqual(expect.arrayContaining([1, 499, 501]));
    const anchor = layout.positionOf.get(500);
    const distance = (index: number) => {
      const box = order[index];
      return box && anchor ? Math.hypot(box.x - anchor.x, box.y - anchor.y) : NaN;
    };
    for (let index = 1; index < order.length; index += 97) {
      expect(distance(index)).toBeGreaterThanOrEqual(distance(index - 1) - 1e-6);
    }
  });

  it('without an anchor (or one not laid out) starts from the first root', () => {
    expect(mountOrder(layout, undefined)[0]?.id).toBe(0);
    expect(mountOrder(layout, 123_456)[0]?.id).toBe(0);
  });
});

describe('mountedAfter', () => {
  it('mounts a first slice at once, then a slice a step, never more than all', () => {
    expect([0, 1, 2, 3, 4, 5].map((step) => mountedAfter(step, 10_000, 2500, 2500))).toEqual([
      2500, 5000, 7500, 10_000, 10_000, 10_000,
    ]);
    expect(mountedAfter(0, 300, 2500, 2500)).toBe(300);
  });
});

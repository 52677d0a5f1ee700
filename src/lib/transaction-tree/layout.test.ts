import { describe, expect, it } from 'vitest';
import { buildTree } from './build-tree';
import { getNode, type NodeId } from './model';
import {
  layoutTree,
  LEVEL_GAP,
  NODE_HEIGHT,
  NODE_WIDTH,
  SIBLING_GAP,
  type LaidOutNode,
  type LayoutOptions,
  type TreeLayout,
} from './layout';
import { fanoutTree, randomTree, seededRandom, shapedTree } from '@/testing/tree-generators';
import { buildVisibleTree, collapseToDepth, expandAll, type VisibleTree } from './visibility';

/** Pairs of overlapping boxes, by a sweep along x: O(n log n) for boxes of equal width. */
function overlaps(nodes: readonly LaidOutNode[]): [NodeId, NodeId][] {
  const byX = [...nodes].sort((a, b) => a.x - b.x);
  const found: [NodeId, NodeId][] = [];
  for (let i = 0; i < byX.length; i++) {
    const a = byX[i];
    if (!a) continue;
    for (let j = i + 1; j < byX.length; j++) {
      const b = byX[j];
      if (!b || b.x >= a.x + a.width) break;
      if (b.y < a.y + a.height && a.y < b.y + b.height) found.push([a.id, b.id]);
    }
  }
  return found;
}

const centreX = (node: LaidOutNode) => node.x + node.width / 2;
const centreY = (node: LaidOutNode) => node.y + node.height / 2;

/** Every property the graph relies on, collected so that big trees take one `expect`. */
function layoutProblems(visible: VisibleTree, layout: TreeLayout, options: LayoutOptions = {}) {
  const isTopDown = options.direction !== 'left-right';
  const problems: string[] = [];
  const at = (id: NodeId) => {
    const node = layout.positionOf.get(id);
    if (!node) throw new Error(`node ${String(id)} not laid out`);
    return node;
  };
  if (layout.nodes.map((node) => node.id).join() !== visible.order.join()) {
    problems.push('nodes are not the visible nodes in pre-order');
  }
  for (const [a, b] of overlaps(layout.nodes)) problems.push(`${String(a)} overlaps ${String(b)}`);
  const families: (readonly NodeId[])[] = [visible.tree.roots];
  let edges = 0;
  for (const id of visible.order) {
    const parent = at(id);
    const children = visible.collapsed.has(id) ? [] : getNode(visible.tree, id).children;
    families.push(children);
    edges += children.length;
    for (const childId of children) {
      const child = at(childId);
      const below = isTopDown
        ? child.y >= parent.y + parent.height
        : child.x >= parent.x + parent.width;
      if (!below) problems.push(`${String(childId)} is not past its parent ${String(id)}`);
    }
    const first = children[0];
    const last = children.at(-1);
    if (first !== undefined && last !== undefined) {
      // Tidy: a parent is centred over its first and last child.
      const mid = isTopDown
        ? (centreX(at(first)) + centreX(at(last))) / 2
        : (centreY(at(first)) + centreY(at(last))) / 2;
      const centre = isTopDown ? centreX(parent) : centreY(parent);
      if (Math.abs(mid - centre) > 1e-6) problems.push(`${String(id)} is off-centre`);
    }
  }
  for (const family of families) {
    for (let i = 1; i < family.length; i++) {
      const a = at(family[i - 1] ?? -1);
      const b = at(family[i] ?? -1);
      const inOrder = isTopDown ? a.x < b.x : a.y < b.y;
      if (!inOrder) problems.push(`siblings ${String(a.id)} and ${String(b.id)} out of order`);
    }
  }
  if (layout.edges.length !== edges) problems.push(`${String(layout.edges.length)} edges`);
  for (const edge of layout.edges) {
    if (getNode(visible.tree, edge.target).parentId !== edge.source) {
      problems.push(`edge ${edge.id} is not parent → child`);
    }
  }
  if (new Set(layout.edges.map((edge) => edge.id)).size !== layout.edges.length) {
    problems.push('edge ids repeat');
  }
  if (layout.nodes.length > 0) {
    const minX = Math.min(...layout.nodes.map((node) => node.x));
    const minY = Math.min(...layout.nodes.map((node) => node.y));
    const maxX = Math.max(...layout.nodes.map((node) => node.x + node.width));
    const maxY = Math.max(...layout.nodes.map((node) => node.y + node.height));
    if (minX !== 0 || minY !== 0) problems.push(`starts at ${String(minX)}, ${String(minY)}`);
    if (layout.width !== maxX || layout.height !== maxY) problems.push('extent');
  }
  return problems;
}

// 0 Transfer ─┬─ 1 Iou
//             ├─ 2 Split ─┬─ 3 Iou
//             │           ├─ 4 Iou
//             │           └─ 5 Archive
//             └─ 6 Account
// 7 Iou
const tree = buildTree(
  shapedTree([
    {
      choice: 'Transfer',
      children: [
        {},
        { choice: 'Split', children: [{}, {}, { choice: 'Archive' }] },
        { template: 'Account' },
      ],
    },
    {},
  ]).events,
);

describe('layoutTree', () => {
  it('lays out a small tree top-down with the default box and gaps', () => {
    const visible = buildVisibleTree(tree, expandAll());
    const layout = layoutTree(visible);
    expect(layoutProblems(visible, layout)).toEqual([]);
    const node = (id: NodeId) => layout.positionOf.get(id);
    expect(node(0)).toMatchObject({ y: 0, width: NODE_WIDTH, height: NODE_HEIGHT });
    expect(node(1)?.y).toBe(NODE_HEIGHT + LEVEL_GAP);
    expect(node(3)?.y).toBe(2 * (NODE_HEIGHT + LEVEL_GAP));
    // Siblings sit one box and one gap apart.
    expect((node(4)?.x ?? 0) - (node(3)?.x ?? 0)).toBe(NODE_WIDTH + SIBLING_GAP);
    expect(layout.edges.map((edge) => edge.id)).toEqual(['0-1', '0-2', '0-6', '2-3', '2-4', '2-5']);
  });

  it('lays out only the visible nodes, with no edges below a collapsed node', () => {
    const visible = buildVisibleTree(tree, new Set([2]));
    const layout = layoutTree(visible);
    expect(layoutProblems(visible, layout)).toEqual([]);
    expect(layout.nodes.map((node) => node.id)).toEqual([0, 1, 2, 6, 7]);
    expect(layout.edges.map((edge) => edge.id)).toEqual(['0-1', '0-2', '0-6']);
  });

  it('gives an empty layout for an empty tree', () => {
    const empty = buildTree({ updateId: 'u', offset: 1, events: [] });
    expect(layoutTree(buildVisibleTree(empty, expandAll()))).toMatchObject({
      nodes: [],
      edges: [],
      width: 0,
      height: 0,
    });
  });

  it('has no overlaps, children below parents and siblings in order on random trees', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const random = seededRandom(seed);
      const big = buildTree(randomTree({ seed, size: 20 + Math.floor(random() * 400) }).events);
      const collapsed = new Set(big.order.filter(() => random() < 0.08));
      const visible = buildVisibleTree(big, collapsed);
      expect(layoutProblems(visible, layoutTree(visible)), `seed ${String(seed)}`).toEqual([]);
    }
  });

  it('holds for trees of a few thousand nodes, fully expanded', () => {
    const trees = [
      // Bushy (depth 4) and deep (depth 1,273).
      randomTree({ seed: 7, size: 3000 }),
      randomTree({ seed: 9, size: 3000 }),
      fanoutTree({ width: 3, depth: 6 }),
      fanoutTree({ width: 2998, depth: 1 }),
    ];
    for (const generated of trees) {
      const big = buildTree(generated.events);
      const visible = buildVisibleTree(big, expandAll());
      expect(layoutProblems(visible, layoutTree(visible))).toEqual([]);
    }
  });

  it('honours other box sizes and gaps', () => {
    const options = { nodeWidth: 100, nodeHeight: 30, siblingGap: 5, levelGap: 10 };
    const big = buildTree(randomTree({ seed: 5, size: 500 }).events);
    const visible = buildVisibleTree(big, collapseToDepth(big, 4));
    const layout = layoutTree(visible, options);
    expect(layoutProblems(visible, layout, options)).toEqual([]);
    expect(layout.nodes[0]).toMatchObject({ width: 100, height: 30 });
  });

  it('lays out left to right when asked', () => {
    const options = { direction: 'left-right' } as const;
    for (const seed of [1, 2, 3]) {
      const big = buildTree(randomTree({ seed, size: 400 }).events);
      const visible = buildVisibleTree(big, expandAll());
      expect(layoutProblems(visible, layoutTree(visible, options), options)).toEqual([]);
    }
  });

  it('is deterministic', () => {
    const big = buildTree(randomTree({ seed: 8, size: 1000 }).events);
    const visible = buildVisibleTree(big, collapseToDepth(big, 6));
    const again = buildVisibleTree(
      buildTree(randomTree({ seed: 8, size: 1000 }).events),
      collapseToDepth(big, 6),
    );
    expect(layoutTree(again)).toEqual(layoutTree(visible));
  });
});

import { describe, expect, it } from 'vitest';
import { fanoutTree, shapedTree, type ShapeNode } from '@/testing/tree-generators';
import { buildTree } from './build-tree';
import { layoutTree, type LaidOutNode, type TreeLayout } from './layout';
import type { TransactionTree } from './model';
import {
  FIT_NODE_LIMIT,
  FIT_PADDING,
  FRAME_MAX_SHARE,
  FRAME_MIN_HEIGHT,
  graphFrameHeight,
  OPEN_MAX_ZOOM,
  openingNodes,
  openingViewport,
  panIntoView,
  READABLE_ZOOM,
  SELECTED_ZOOM,
  WHOLE_TREE_MIN_ZOOM,
  type FrameSize,
  type Viewport,
} from './viewport';
import { buildVisibleTree, defaultCollapsed, expandAll } from './visibility';

const FRAME: FrameSize = { width: 1200, height: 700 };

function laidOut(roots: readonly ShapeNode[]): { tree: TransactionTree; layout: TreeLayout } {
  const tree = buildTree(shapedTree(roots).events);
  return { tree, layout: layoutTree(buildVisibleTree(tree, expandAll())) };
}

function at(layout: TreeLayout, id: number | undefined): LaidOutNode {
  const box = id === undefined ? undefined : layout.positionOf.get(id);
  if (!box) throw new Error(`Node ${String(id)} is not laid out`);
  return box;
}

/** Where a node's box lands on screen. */
function onScreen(viewport: Viewport, node: LaidOutNode) {
  return {
    left: viewport.x + node.x * viewport.zoom,
    top: viewport.y + node.y * viewport.zoom,
    right: viewport.x + (node.x + node.width) * viewport.zoom,
    bottom: viewport.y + (node.y + node.height) * viewport.zoom,
  };
}

function isInFrame(viewport: Viewport, node: LaidOutNode, frame = FRAME) {
  const box = onScreen(viewport, node);
  return box.left >= 0 && box.top >= 0 && box.right <= frame.width && box.bottom <= frame.height;
}

const children = (count: number, child: ShapeNode = {}): ShapeNode[] =>
  Array.from({ length: count }, () => child);

describe('openingNodes', () => {
  it('takes whole levels from the roots down while they stay few', () => {
    // 1 + 3 + 9 nodes over three levels, then a fourth level the fit never reaches.
    const grandchild: ShapeNode = { choice: 'Go', children: [{}] };
    const child: ShapeNode = { choice: 'Split', children: children(3, grandchild) };
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(3, child) }]);
    const depths = openingNodes(tree, layout).map((box) => tree.nodes.get(box.id)?.depth);
    expect(depths).toHaveLength(13);
    expect(Math.max(...depths.map(Number))).toBe(2);
  });

  it('stops before a level that would make too many nodes or too wide a span', () => {
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(FIT_NODE_LIMIT) }]);
    expect(openingNodes(tree, layout).map((box) => box.id)).toEqual([0]);
    const few = laidOut([{ choice: 'Run', children: children(8) }]);
    expect(openingNodes(few.tree, few.layout)).toHaveLength(9);
    expect(openingNodes(few.tree, few.layout, 1000)).toHaveLength(1);
  });

  it('of a forest wider than the limit, takes the first roots', () => {
    const { tree, layout } = laidOut(children(FIT_NODE_LIMIT * 2));
    expect(openingNodes(tree, layout).map((box) => box.id)).toEqual(
      tree.roots.slice(0, FIT_NODE_LIMIT),
    );
  });
});

describe('openingViewport', () => {
  it('shows a small tree whole at its natural size, centred', () => {
    const { tree, layout } = laidOut([{ choice: 'Iou_Split', children: [{}, {}] }]);
    const viewport = openingViewport(tree, layout, FRAME);
    expect(viewport.zoom).toBe(OPEN_MAX_ZOOM);
    for (const node of layout.nodes) expect(isInFrame(viewport, node)).toBe(true);
    const left = onScreen(viewport, at(layout, layout.nodes[1]?.id)).left;
    const right = FRAME.width - onScreen(viewport, at(layout, layout.nodes[2]?.id)).right;
    expect(Math.abs(left - right)).toBeLessThan(1);
  });

  it('puts the top levels of a bigger tree at the top of the frame, room for the rest below', () => {
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(50) }]);
    const viewport = openingViewport(tree, layout, FRAME);
    const root = onScreen(viewport, at(layout, 0));
    expect(root.top).toBeCloseTo(FIT_PADDING);
    expect((root.left + root.right) / 2).toBeCloseTo(FRAME.width / 2);
  });

  it('opens a 10,000-node fan-out at a readable zoom with its top in view, not shrunk to fit', () => {
    const tree = buildTree(fanoutTree({ width: 9998, depth: 1 }).events);
    for (const collapsed of [defaultCollapsed(tree), expandAll()]) {
      const layout = layoutTree(buildVisibleTree(tree, collapsed));
      const viewport = openingViewport(tree, layout, FRAME);
      expect(viewport.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
      for (const id of tree.roots) {
        expect(isInFrame(viewport, at(layout, id))).toBe(true);
      }
    }
  });

  it('never zooms below legible; a forest too wide for the frame starts at its first root', () => {
    const { tree, layout } = laidOut(children(40));
    const viewport = openingViewport(tree, layout, FRAME);
    expect(viewport.zoom).toBe(READABLE_ZOOM);
    const first = onScreen(viewport, at(layout, layout.nodes[0]?.id));
    expect(first.left).toBeCloseTo(FIT_PADDING);
    expect(first.top).toBeGreaterThanOrEqual(0);
  });

  it('fits a few wide levels between the readable and the natural zoom', () => {
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(4) }]);
    const narrow = { width: 1000, height: 700 };
    const viewport = openingViewport(tree, layout, narrow);
    expect(viewport.zoom).toBeGreaterThan(READABLE_ZOOM);
    expect(viewport.zoom).toBeLessThan(OPEN_MAX_ZOOM);
    for (const node of layout.nodes) expect(isInFrame(viewport, node, narrow)).toBe(true);
  });

  it('centres the selected node instead', () => {
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(50) }]);
    const viewport = openingViewport(tree, layout, FRAME, 37);
    expect(viewport.zoom).toBe(SELECTED_ZOOM);
    const box = onScreen(viewport, at(layout, 37));
    expect((box.left + box.right) / 2).toBeCloseTo(FRAME.width / 2);
    expect((box.top + box.bottom) / 2).toBeCloseTo(FRAME.height / 2);
    // A node that is not laid out (folded away) falls back to the opening fit.
    expect(openingViewport(tree, layout, FRAME, 999)).toEqual(openingViewport(tree, layout, FRAME));
  });
});

/** Where the centre of a node's box lands on screen. */
function centreOnScreen(viewport: Viewport, node: LaidOutNode) {
  const box = onScreen(viewport, node);
  return { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
}

describe("openingViewport in small frames (the composer's result)", () => {
  it('centres a one-node create in the frame, at its natural size', () => {
    const { tree, layout } = laidOut([{}]);
    for (const frame of [
      { width: 388, height: 240 },
      { width: 630, height: 560 },
      { width: 1400, height: 900 },
    ]) {
      const viewport = openingViewport(tree, layout, frame);
      expect(viewport.zoom).toBe(OPEN_MAX_ZOOM);
      const centre = centreOnScreen(viewport, at(layout, 0));
      expect(centre.x).toBeCloseTo(frame.width / 2);
      expect(centre.y).toBeCloseTo(frame.height / 2);
    }
  });

  it('shows all three nodes of a split in a frame narrower than the split at natural size', () => {
    const { tree, layout } = laidOut([{ choice: 'Iou_Split', children: [{}, {}] }]);
    // The composer's result column beside the form: ~390 px wide, under the 504 px of the split.
    const narrow = { width: 388, height: 348 };
    expect(layout.width).toBeGreaterThan(narrow.width);
    const viewport = openingViewport(tree, layout, narrow);
    expect(viewport.zoom).toBeGreaterThanOrEqual(WHOLE_TREE_MIN_ZOOM);
    expect(viewport.zoom).toBeLessThan(READABLE_ZOOM);
    for (const node of layout.nodes) expect(isInFrame(viewport, node, narrow)).toBe(true);
    const root = centreOnScreen(viewport, at(layout, 0));
    expect(root.x).toBeCloseTo(narrow.width / 2);
  });

  it('cuts a small tree rather than shrink it below the whole-tree zoom', () => {
    const { tree, layout } = laidOut([{ choice: 'Run', children: children(8) }]);
    const frame = { width: 600, height: 500 };
    const viewport = openingViewport(tree, layout, frame);
    expect(viewport.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(isInFrame(viewport, at(layout, 0), frame)).toBe(true);
    expect(layout.nodes.filter((node) => !isInFrame(viewport, node, frame)).length).toBeGreaterThan(
      0,
    );
  });
});

describe('graphFrameHeight', () => {
  it('gives a tree its natural height plus padding, within the window-relative bounds', () => {
    const split = laidOut([{ choice: 'Iou_Split', children: [{}, {}] }]).layout;
    expect(graphFrameHeight(split, 700)).toBe(Math.ceil(split.height + 2 * FIT_PADDING));
  });

  it('gives a one-node tree the minimum, which grows with the window', () => {
    const single = laidOut([{}]).layout;
    expect(graphFrameHeight(single, 600)).toBe(FRAME_MIN_HEIGHT);
    expect(graphFrameHeight(single, 1200)).toBe(360);
  });

  it('caps a deep tree at a share of the window, never under the minimum', () => {
    let chain: ShapeNode = {};
    for (let level = 0; level < 8; level++) chain = { choice: 'Go', children: [chain] };
    const deep = laidOut([chain]).layout;
    expect(graphFrameHeight(deep, 800)).toBe(Math.round(800 * FRAME_MAX_SHARE));
    expect(graphFrameHeight(deep, 200)).toBe(FRAME_MIN_HEIGHT);
  });
});

describe('panIntoView', () => {
  const frame = { width: 500, height: 300 };
  const node = { x: 600, y: 100, width: 240, height: 122 };

  it('leaves the view alone when the box is already inside', () => {
    const viewport = { x: -500, y: 0, zoom: 1 };
    expect(panIntoView(viewport, node, frame)).toEqual(viewport);
  });

  it('moves the view just enough to bring a clipped box inside the margin', () => {
    // The details panel took the frame's right part: the node hangs off the right edge.
    const viewport = { x: -300, y: 0, zoom: 1 };
    const moved = panIntoView(viewport, node, frame);
    expect(moved.zoom).toBe(1);
    expect(moved.y).toBe(0);
    expect(moved.x + (node.x + node.width) * moved.zoom).toBeCloseTo(frame.width - FIT_PADDING);
    const fromLeft = panIntoView({ x: -700, y: 0, zoom: 1 }, node, frame);
    expect(fromLeft.x + node.x).toBeCloseTo(FIT_PADDING);
    const fromAbove = panIntoView({ x: -500, y: 150, zoom: 1 }, node, frame);
    expect(fromAbove.y + (node.y + node.height)).toBeCloseTo(frame.height - FIT_PADDING);
  });

  it('centres a box too big for the frame at this zoom, along that axis', () => {
    const tiny = { width: 200, height: 100 };
    const moved = panIntoView({ x: 0, y: 0, zoom: 1 }, node, tiny);
    expect(moved.x + (node.x + node.width / 2)).toBeCloseTo(tiny.width / 2);
    expect(moved.y + (node.y + node.height / 2)).toBeCloseTo(tiny.height / 2);
  });

  it('works at any zoom', () => {
    const moved = panIntoView({ x: 0, y: 0, zoom: 0.5 }, node, frame);
    const right = moved.x + (node.x + node.width) * 0.5;
    expect(right).toBeLessThanOrEqual(frame.width - FIT_PADDING + 1e-9);
    expect(moved.x + node.x * 0.5).toBeGreaterThanOrEqual(FIT_PADDING);
  });
});

import type { LaidOutNode, TreeLayout } from './layout';
import type { NodeId, TransactionTree } from './model';

/**
 * Where the graph opens. Fitting the whole tree shrinks a big one until no label can be read, so
 * the view fits only the top of the tree (the roots and their first levels, as many levels as stay
 * within a handful of nodes), never below a zoom at which labels stay legible; when those nodes
 * are still too wide, it opens on the first root. A selected node (a deep link) is centred instead.
 */

/** React Flow's viewport: flow point (px, py) is drawn at (x + px·zoom, y + py·zoom). */
export type Viewport = { readonly x: number; readonly y: number; readonly zoom: number };
export type FrameSize = { readonly width: number; readonly height: number };

/** The graph's 12 px text is ~9 px here: the smallest a label still reads at. */
export const READABLE_ZOOM = 0.75;
/** Small trees are not blown up past their natural size. */
export const OPEN_MAX_ZOOM = 1;
/** A selected node is shown a little smaller than life, with some of its neighbours. */
export const SELECTED_ZOOM = 0.9;
/** The deepest level fitted on open (roots are 0). */
export const FIT_DEPTH = 2;
/** A level joins the fitted ones only while they hold at most this many nodes together. */
export const FIT_NODE_LIMIT = 24;
/** Space around what is fitted, in screen pixels. */
export const FIT_PADDING = 24;

/**
 * The laid-out nodes to fit on open: whole levels from the roots down to {@link FIT_DEPTH}, as
 * long as they hold at most {@link FIT_NODE_LIMIT} nodes and span at most `maxWidth` (flow
 * pixels); at least the roots, and of a forest of more roots than the limit, the first ones.
 */
export function openingNodes(
  tree: TransactionTree,
  layout: TreeLayout,
  maxWidth = Infinity,
): readonly LaidOutNode[] {
  const byLevel: LaidOutNode[][] = [];
  for (const box of layout.nodes) {
    const depth = tree.nodes.get(box.id)?.depth;
    if (depth === undefined || depth > FIT_DEPTH) continue;
    (byLevel[depth] ??= []).push(box);
  }
  const roots = byLevel[0] ?? [];
  if (roots.length >= FIT_NODE_LIMIT) return roots.slice(0, FIT_NODE_LIMIT);
  const chosen = [...roots];
  for (let depth = 1; depth < byLevel.length; depth++) {
    const level = byLevel[depth] ?? [];
    if (chosen.length + level.length > FIT_NODE_LIMIT) break;
    const wider = boundsOf([...chosen, ...level]);
    if (wider && wider.width > maxWidth) break;
    chosen.push(...level);
  }
  return chosen;
}

type Box = { x: number; y: number; width: number; height: number };

function boundsOf(nodes: readonly LaidOutNode[]): Box | undefined {
  if (nodes.length === 0) return undefined;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    left = Math.min(left, node.x);
    top = Math.min(top, node.y);
    right = Math.max(right, node.x + node.width);
    bottom = Math.max(bottom, node.y + node.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The viewport that puts flow point (px, py) at screen point (sx, sy) at `zoom`. */
const placing = (px: number, py: number, sx: number, sy: number, zoom: number): Viewport => ({
  x: sx - px * zoom,
  y: sy - py * zoom,
  zoom,
});

/**
 * The viewport the graph opens at, for a frame of `frame` pixels: centred on `selected` at a
 * readable zoom when it is laid out; else {@link openingNodes} fitted, at a zoom between
 * {@link READABLE_ZOOM} and {@link OPEN_MAX_ZOOM}, centred when they are the whole tree, else at
 * the top of the frame. What does not fit at that zoom is cut, keeping the first root (at the
 * left) and the top in view.
 */
export function openingViewport(
  tree: TransactionTree,
  layout: TreeLayout,
  frame: FrameSize,
  selected?: NodeId,
): Viewport {
  const target = selected === undefined ? undefined : layout.positionOf.get(selected);
  if (target) {
    return placing(
      target.x + target.width / 2,
      target.y + target.height / 2,
      frame.width / 2,
      frame.height / 2,
      SELECTED_ZOOM,
    );
  }
  const room = {
    width: Math.max(1, frame.width - 2 * FIT_PADDING),
    height: Math.max(1, frame.height - 2 * FIT_PADDING),
  };
  const chosen = openingNodes(tree, layout, room.width / READABLE_ZOOM);
  const box = boundsOf(chosen);
  if (!box) return { x: 0, y: 0, zoom: OPEN_MAX_ZOOM };
  // The whole tree is centred; the top of a bigger one goes to the top, room for what follows.
  const isWhole = chosen.length === layout.nodes.length;
  const zoom = clamp(
    Math.min(room.width / box.width, room.height / box.height),
    READABLE_ZOOM,
    OPEN_MAX_ZOOM,
  );
  const fitsAcross = box.width * zoom <= room.width;
  const fitsDown = box.height * zoom <= room.height;
  const first = layout.nodes[0];
  // Too wide even at the readable zoom: the first root at the left edge, its followers beside it.
  const across =
    fitsAcross || !first
      ? { flow: box.x + box.width / 2, screen: frame.width / 2 }
      : { flow: first.x, screen: FIT_PADDING };
  const down =
    fitsDown && isWhole
      ? { flow: box.y + box.height / 2, screen: frame.height / 2 }
      : { flow: box.y, screen: FIT_PADDING };
  return placing(across.flow, down.flow, across.screen, down.screen, zoom);
}

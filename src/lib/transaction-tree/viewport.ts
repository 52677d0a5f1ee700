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
 * A small tree (at most {@link FIT_NODE_LIMIT} nodes) is shown whole down to this zoom rather
 * than cut at {@link READABLE_ZOOM}: a split's two children both on screen, a little small, tell
 * more than one of them legible and the other clipped (the user can zoom in; "Full screen" has room).
 */
export const WHOLE_TREE_MIN_ZOOM = 0.5;
/** The graph frame's height bounds, when it is sized to its tree (see {@link graphFrameHeight}). */
export const FRAME_MIN_HEIGHT = 220;
/** …and relative to the window: never under this share of it… */
export const FRAME_MIN_SHARE = 0.3;
/** …nor over this one, so the page around the graph stays in reach. */
export const FRAME_MAX_SHARE = 0.75;

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

/** A rectangle in flow pixels (a laid-out node is one). */
export type Box = {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
};

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
 * readable zoom when it is laid out; else a small tree whole and centred, at up to its natural
 * size and down to {@link WHOLE_TREE_MIN_ZOOM}; else {@link openingNodes} fitted, at a zoom between
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
  const whole = layout.nodes.length <= FIT_NODE_LIMIT ? boundsOf(layout.nodes) : undefined;
  if (whole) {
    const zoom = Math.min(OPEN_MAX_ZOOM, room.width / whole.width, room.height / whole.height);
    if (zoom >= WHOLE_TREE_MIN_ZOOM) {
      const centre = { x: whole.x + whole.width / 2, y: whole.y + whole.height / 2 };
      return placing(centre.x, centre.y, frame.width / 2, frame.height / 2, zoom);
    }
  }
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

/**
 * How tall the graph's frame is where it is not given the page's height (the composer's result,
 * the viewer below its header on a phone): the laid-out tree at its natural size with
 * {@link FIT_PADDING} around it, so a one-node create gets a small frame and a split the room
 * for both levels; at least {@link FRAME_MIN_HEIGHT} px and {@link FRAME_MIN_SHARE} of the
 * window, at most {@link FRAME_MAX_SHARE} of it (a big tree is explored by panning, or full screen).
 */
export function graphFrameHeight(layout: Pick<TreeLayout, 'height'>, windowHeight: number): number {
  const low = Math.max(FRAME_MIN_HEIGHT, Math.round(windowHeight * FRAME_MIN_SHARE));
  const high = Math.max(low, Math.round(windowHeight * FRAME_MAX_SHARE));
  const natural = Math.ceil(layout.height * OPEN_MAX_ZOOM + 2 * FIT_PADDING);
  return clamp(natural, low, high);
}

/**
 * The least move of `viewport` (same zoom) that puts `box` (flow pixels) inside `frame` with
 * `margin` screen pixels to spare on every side; along an axis where it cannot fit, it is centred.
 * Used when a node is selected or the frame shrinks (the details panel opening beside it), so the
 * selection never ends up clipped, without jumping the view when it is already in sight.
 */
export function panIntoView(
  viewport: Viewport,
  box: Box,
  frame: FrameSize,
  margin = FIT_PADDING,
): Viewport {
  const { zoom } = viewport;
  const along = (offset: number, start: number, size: number, frameSize: number) => {
    const first = offset + start * zoom;
    const last = first + size * zoom;
    if (size * zoom > frameSize - 2 * margin) return frameSize / 2 - (start + size / 2) * zoom;
    if (first < margin) return offset + (margin - first);
    if (last > frameSize - margin) return offset - (last - (frameSize - margin));
    return offset;
  };
  return {
    x: along(viewport.x, box.x, box.width, frame.width),
    y: along(viewport.y, box.y, box.height, frame.height),
    zoom,
  };
}

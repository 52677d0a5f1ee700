import type { LaidOutNode, TreeLayout } from './layout';
import type { NodeId } from './model';

/**
 * Mounting a big layout in slices (so that no single task blocks the page): which boxes go first.
 * The graph keeps the anchor (the node just acted on, or the first root) where it was on screen,
 * so the boxes nearest to it are the ones in view; they come first, the far ones last.
 */
export function mountOrder(layout: TreeLayout, anchor: NodeId | undefined): readonly LaidOutNode[] {
  const centre =
    (anchor === undefined ? undefined : layout.positionOf.get(anchor)) ?? layout.nodes[0];
  if (!centre) return [];
  const cx = centre.x + centre.width / 2;
  const cy = centre.y + centre.height / 2;
  const distance = new Map<NodeId, number>();
  for (const box of layout.nodes) {
    distance.set(box.id, Math.hypot(box.x + box.width / 2 - cx, box.y + box.height / 2 - cy));
  }
  return [...layout.nodes].sort((a, b) => (distance.get(a.id) ?? 0) - (distance.get(b.id) ?? 0));
}

/** How many of `total` boxes are mounted after `step` slices (step 0: the first, at once). */
export function mountedAfter(
  step: number,
  total: number,
  firstSlice: number,
  slice: number,
): number {
  return Math.min(total, firstSlice + Math.max(0, step) * slice);
}

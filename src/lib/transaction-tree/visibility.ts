import { ancestorsOf, getNode, subtreeIds, type NodeId, type TransactionTree } from './model';

/**
 * Which nodes are shown, from two sets kept apart on purpose: the user's `collapsed` set (what
 * they folded; it survives searches) and a `forceExpanded` set (the ancestors of search matches,
 * which must stay open while the search is on). Clearing the search restores exactly the user's
 * folds. Every helper returns a new set, so they can feed React state directly.
 */

export type CollapsedSet = ReadonlySet<NodeId>;

export type VisibleTree = {
  readonly tree: TransactionTree;
  /** Visible node ids in pre-order: the outline's rows, and the graph's nodes. */
  readonly order: readonly NodeId[];
  /** Position of each visible node in `order`. */
  readonly rowOf: ReadonlyMap<NodeId, number>;
  /** Visible nodes whose children are hidden: the ones that show `+N`. */
  readonly collapsed: ReadonlySet<NodeId>;
  /** Nodes the user collapsed that are shown open because `forceExpanded` holds them. */
  readonly forcedOpen: ReadonlySet<NodeId>;
};

const NO_NODES: ReadonlySet<NodeId> = new Set();

/**
 * The visible part of `tree`, in O(visible nodes): a collapsed node's subtree is a contiguous run
 * of `tree.order`, so it is skipped in one step. Ids in `collapsed` that are leaves, or not in the
 * tree, are ignored.
 */
export function buildVisibleTree(
  tree: TransactionTree,
  collapsed: CollapsedSet,
  forceExpanded: ReadonlySet<NodeId> = NO_NODES,
): VisibleTree {
  const order: NodeId[] = [];
  const rowOf = new Map<NodeId, number>();
  const shownCollapsed = new Set<NodeId>();
  const forcedOpen = new Set<NodeId>();
  const all = tree.order;
  for (let i = 0; i < all.length;) {
    const id = all[i];
    if (id === undefined) break;
    const node = getNode(tree, id);
    rowOf.set(id, order.length);
    order.push(id);
    if (node.children.length > 0 && collapsed.has(id)) {
      if (forceExpanded.has(id)) {
        forcedOpen.add(id);
      } else {
        shownCollapsed.add(id);
        i += 1 + node.descendantCount;
        continue;
      }
    }
    i += 1;
  }
  return { tree, order, rowOf, collapsed: shownCollapsed, forcedOpen };
}

export function isVisible(visible: VisibleTree, id: NodeId): boolean {
  return visible.rowOf.has(id);
}

/** The `+N` of a collapsed node: all its descendants are hidden. 0 for open nodes and leaves. */
export function hiddenDescendantCount(visible: VisibleTree, id: NodeId): number {
  return visible.collapsed.has(id) ? getNode(visible.tree, id).descendantCount : 0;
}

/** The children drawn below a visible node: all of them when it is open, none when collapsed. */
export function visibleChildren(visible: VisibleTree, id: NodeId): readonly NodeId[] {
  return visible.collapsed.has(id) ? [] : getNode(visible.tree, id).children;
}

/** Nothing collapsed. */
export function expandAll(): CollapsedSet {
  return new Set();
}

/**
 * Shows the nodes of depth ≤ `depth` (roots are depth 0) by collapsing every node at that depth
 * or deeper that has children. The deeper ones are collapsed too, so expanding a node reveals one
 * more level rather than its whole subtree (`expandSubtree` does that).
 */
export function collapseToDepth(tree: TransactionTree, depth: number): CollapsedSet {
  const collapsed = new Set<NodeId>();
  for (const node of tree.nodes.values()) {
    if (node.depth >= depth && node.children.length > 0) collapsed.add(node.nodeId);
  }
  return collapsed;
}

/** Only the roots visible. */
export function collapseAll(tree: TransactionTree): CollapsedSet {
  return collapseToDepth(tree, 0);
}

export function toggle(collapsed: CollapsedSet, id: NodeId): CollapsedSet {
  return collapsed.has(id) ? expand(collapsed, id) : collapse(collapsed, id);
}

export function expand(collapsed: CollapsedSet, id: NodeId): CollapsedSet {
  if (!collapsed.has(id)) return collapsed;
  const next = new Set(collapsed);
  next.delete(id);
  return next;
}

export function collapse(collapsed: CollapsedSet, id: NodeId): CollapsedSet {
  if (collapsed.has(id)) return collapsed;
  return new Set(collapsed).add(id);
}

/** Opens `id` and everything below it. */
export function expandSubtree(
  tree: TransactionTree,
  collapsed: CollapsedSet,
  id: NodeId,
): CollapsedSet {
  const next = new Set(collapsed);
  for (const below of subtreeIds(tree, id)) next.delete(below);
  return next;
}

/** Collapses `id` and every node below it with children, so it reopens one level at a time. */
export function collapseSubtree(
  tree: TransactionTree,
  collapsed: CollapsedSet,
  id: NodeId,
): CollapsedSet {
  const next = new Set(collapsed);
  for (const below of subtreeIds(tree, id)) {
    if (getNode(tree, below).children.length > 0) next.add(below);
  }
  return next;
}

/** Opens the ancestors of `id` so that it is visible (a deep link to a node, say). */
export function reveal(tree: TransactionTree, collapsed: CollapsedSet, id: NodeId): CollapsedSet {
  const ancestors = ancestorsOf(tree, id).filter((ancestor) => collapsed.has(ancestor));
  if (ancestors.length === 0) return collapsed;
  const next = new Set(collapsed);
  for (const ancestor of ancestors) next.delete(ancestor);
  return next;
}

/**
 * About as many nodes as the graph shows at once without a stall (React Flow takes ~600 ms for
 * 1,000 nodes in headless Chromium, issue 6); a tree this size or smaller opens fully expanded.
 */
export const DEFAULT_VISIBLE_NODE_LIMIT = 1000;

/**
 * The collapse a tree opens with. Rule: show whole levels, from the roots down, as long as the
 * nodes shown stay within `limit`; that is `collapseToDepth(tree, D)` for the deepest D whose
 * levels 0..D hold at most `limit` nodes, so the deepest levels are the first to fold. Nothing is
 * collapsed when the whole tree fits; only the roots show when even they exceed the limit.
 * Whole levels, rather than filling the budget node by node, keep sibling subtrees alike, so no
 * branch looks emptier than its neighbours just because it came later.
 */
export function defaultCollapsed(
  tree: TransactionTree,
  limit: number = DEFAULT_VISIBLE_NODE_LIMIT,
): CollapsedSet {
  if (tree.order.length <= limit) return expandAll();
  const perLevel = new Array<number>(tree.maxDepth + 1).fill(0);
  for (const node of tree.nodes.values()) perLevel[node.depth] = (perLevel[node.depth] ?? 0) + 1;
  let shown = 0;
  let depth = 0;
  for (let level = 0; level <= tree.maxDepth; level++) {
    shown += perLevel[level] ?? 0;
    if (shown > limit) break;
    depth = level;
  }
  return collapseToDepth(tree, depth);
}

import { getNode, type NodeId } from './model';
import { visibleChildren, type VisibleTree } from './visibility';

/**
 * Moving the focus among visible nodes, for the outline (a WAI-ARIA tree view) and the graph.
 * Each helper answers null when there is nowhere to go; all are O(1) apart from sibling lookups,
 * which are O(siblings).
 */

/** The next row of the outline (pre-order), or null after the last. */
export function nextVisible(visible: VisibleTree, id: NodeId): NodeId | null {
  const row = visible.rowOf.get(id);
  return row === undefined ? null : (visible.order[row + 1] ?? null);
}

export function previousVisible(visible: VisibleTree, id: NodeId): NodeId | null {
  const row = visible.rowOf.get(id);
  return row === undefined ? null : (visible.order[row - 1] ?? null);
}

export function firstVisible(visible: VisibleTree): NodeId | null {
  return visible.order[0] ?? null;
}

export function lastVisible(visible: VisibleTree): NodeId | null {
  return visible.order.at(-1) ?? null;
}

/** The parent, which is visible whenever the node is. */
export function parentOf(visible: VisibleTree, id: NodeId): NodeId | null {
  return getNode(visible.tree, id).parentId;
}

/** The first child, if the node is open and has one. */
export function firstChild(visible: VisibleTree, id: NodeId): NodeId | null {
  return visibleChildren(visible, id)[0] ?? null;
}

function siblingsOf(visible: VisibleTree, id: NodeId): readonly NodeId[] {
  const parent = getNode(visible.tree, id).parentId;
  return parent === null ? visible.tree.roots : getNode(visible.tree, parent).children;
}

/** The next sibling (next root, for roots) in execution order. */
export function nextSibling(visible: VisibleTree, id: NodeId): NodeId | null {
  const siblings = siblingsOf(visible, id);
  return siblings[siblings.indexOf(id) + 1] ?? null;
}

export function previousSibling(visible: VisibleTree, id: NodeId): NodeId | null {
  const siblings = siblingsOf(visible, id);
  const position = siblings.indexOf(id);
  return position > 0 ? (siblings[position - 1] ?? null) : null;
}

export type TreeKeyAction =
  | { type: 'focus'; id: NodeId }
  | { type: 'expand'; id: NodeId }
  | { type: 'collapse'; id: NodeId }
  | { type: 'select'; id: NodeId };

/**
 * What a key press on the focused node does; null when nothing (the caller then lets the event
 * through). `outline` follows the WAI-ARIA tree view pattern: ↑/↓ previous/next row, → opens a
 * collapsed node or moves to its first child, ← closes an open node or moves to its parent,
 * Home/End first/last row, Enter selects. `graph` follows the picture: ↑ parent, ↓ first child
 * (opening a collapsed node first), ←/→ previous/next sibling; Home/End and Enter as above.
 * A node held open by a search (`visible.forcedOpen`) answers `collapse` too; it stays open until
 * the search ends, since the search's `forceExpanded` set wins.
 */
export function keyAction(
  visible: VisibleTree,
  id: NodeId,
  key: string,
  mode: 'outline' | 'graph' = 'outline',
): TreeKeyAction | null {
  if (!visible.rowOf.has(id)) return null;
  const focus = (target: NodeId | null): TreeKeyAction | null =>
    target === null ? null : { type: 'focus', id: target };
  const hasChildren = getNode(visible.tree, id).children.length > 0;
  const isCollapsed = visible.collapsed.has(id);
  switch (key) {
    case 'Home':
      return focus(firstVisible(visible));
    case 'End':
      return focus(lastVisible(visible));
    case 'Enter':
      return { type: 'select', id };
  }
  if (mode === 'outline') {
    switch (key) {
      case 'ArrowDown':
        return focus(nextVisible(visible, id));
      case 'ArrowUp':
        return focus(previousVisible(visible, id));
      case 'ArrowRight':
        if (isCollapsed) return { type: 'expand', id };
        return focus(firstChild(visible, id));
      case 'ArrowLeft':
        if (hasChildren && !isCollapsed) return { type: 'collapse', id };
        return focus(parentOf(visible, id));
    }
    return null;
  }
  switch (key) {
    case 'ArrowUp':
      return focus(parentOf(visible, id));
    case 'ArrowDown':
      if (isCollapsed) return { type: 'expand', id };
      return focus(firstChild(visible, id));
    case 'ArrowLeft':
      return focus(previousSibling(visible, id));
    case 'ArrowRight':
      return focus(nextSibling(visible, id));
  }
  return null;
}

import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { observeRectAfterLayout, scrollUnlessThere } from '@/components/observe-rect-after-layout';
import { formatKeyValues, keyValues } from '@/lib/transaction-tree/key-values';
import { describeNode, getNode, type NodeId } from '@/lib/transaction-tree/model';
import { keyAction, type TreeKeyAction } from '@/lib/transaction-tree/navigation';
import { hiddenDescendantCount, type VisibleTree } from '@/lib/transaction-tree/visibility';
import { NODE_MATCH, NODE_SELECTED, useNodeFlags, type NodeFlagsStore } from './node-flags-store';
import classes from './transaction-outline.module.css';

const ROW_HEIGHT = 28;
const INDENT = 16;
const OVERSCAN = 12;
// jsdom has no layout: without a height the virtualizer would render no rows at all.
const FALLBACK_RECT = { width: 320, height: 560 };
const observeAfterLayout = observeRectAfterLayout(FALLBACK_RECT);

export type TransactionOutlineProps = {
  visible: VisibleTree;
  store: NodeFlagsStore;
  selectedNodeId: NodeId | undefined;
  onSelect: (id: NodeId) => void;
  onToggle: (id: NodeId) => void;
  onKeyAction: (action: TreeKeyAction) => void;
  /** Scrolls this node into view when it changes (selection from the graph, search, a link). */
  scrollRequest: { id: NodeId } | undefined;
  /** As tall as its container rather than a fixed height. */
  fill?: boolean;
};

/**
 * The visible nodes as an indented WAI-ARIA tree view, virtualized so 10,000 rows cost what the
 * ~25 on screen cost. One row is focusable at a time (roving tabindex): the selected one, or the
 * first; the keys are those of `keyAction`'s outline mode, and moving the focus selects.
 */
export function TransactionOutline({
  visible,
  store,
  selectedNodeId,
  onSelect,
  onToggle,
  onKeyAction,
  scrollRequest,
  fill = false,
}: TransactionOutlineProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The compiler cannot memoize around the virtualizer's mutable instance; it re-renders on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeAfterLayout,
    scrollToFn: scrollUnlessThere,
  });
  const focusable =
    selectedNodeId !== undefined && visible.rowOf.has(selectedNodeId)
      ? selectedNodeId
      : visible.order[0];

  useEffect(() => {
    if (!scrollRequest) return;
    const row = visible.rowOf.get(scrollRequest.id);
    if (row === undefined) return;
    virtualizer.scrollToIndex(row, { align: 'auto' });
    // Keep the keyboard focus on the moved-to row when the outline has it.
    const tree = scrollRef.current;
    if (!tree?.contains(document.activeElement)) return;
    requestAnimationFrame(() => {
      tree
        .querySelector<HTMLElement>(`[data-node-id="${String(scrollRequest.id)}"]`)
        ?.focus({ preventScroll: true });
    });
    // Only a new request scrolls; a re-render with the same one must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollRequest]);

  const handleKeyDown = useCallback(
    (id: NodeId, event: KeyboardEvent<HTMLLIElement>) => {
      const action = keyAction(visible, id, event.key, 'outline');
      if (!action) return;
      event.preventDefault();
      onKeyAction(action);
    },
    [visible, onKeyAction],
  );

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} className={classes.scroller} data-fill={fill || undefined}>
      <ul
        role="tree"
        aria-label="Transaction outline"
        className={classes.tree}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const id = visible.order[item.index];
          if (id === undefined) return null;
          return (
            <OutlineRow
              key={id}
              id={id}
              visible={visible}
              store={store}
              top={item.start}
              isFocusable={id === focusable}
              onSelect={onSelect}
              onToggle={onToggle}
              onKeyDown={handleKeyDown}
            />
          );
        })}
      </ul>
    </div>
  );
}

type OutlineRowProps = {
  id: NodeId;
  visible: VisibleTree;
  store: NodeFlagsStore;
  top: number;
  isFocusable: boolean;
  onSelect: (id: NodeId) => void;
  onToggle: (id: NodeId) => void;
  onKeyDown: (id: NodeId, event: KeyboardEvent<HTMLLIElement>) => void;
};

const OutlineRow = memo(function OutlineRow({
  id,
  visible,
  store,
  top,
  isFocusable,
  onSelect,
  onToggle,
  onKeyDown,
}: OutlineRowProps) {
  const node = getNode(visible.tree, id);
  const flags = useNodeFlags(store, id);
  const hasChildren = node.children.length > 0;
  const hidden = hiddenDescendantCount(visible, id);
  const isExpanded = hasChildren && !visible.collapsed.has(id);
  const siblings =
    node.parentId === null ? visible.tree.roots : getNode(visible.tree, node.parentId).children;
  const isArchived = node.kind === 'created' && node.consumedBy !== null;
  // The values alone, to fit a row; their field names on hover.
  const values = keyValues(node);
  return (
    <li
      role="treeitem"
      data-node-id={id}
      className={classes.row}
      style={{ top, paddingLeft: 4 + node.depth * INDENT }}
      aria-level={node.depth + 1}
      aria-setsize={siblings.length}
      aria-posinset={siblings.indexOf(id) + 1}
      aria-expanded={hasChildren ? isExpanded : undefined}
      aria-selected={(flags & NODE_SELECTED) !== 0}
      data-match={(flags & NODE_MATCH) !== 0 || undefined}
      tabIndex={isFocusable ? 0 : -1}
      onClick={() => {
        onSelect(id);
      }}
      onKeyDown={(event) => {
        onKeyDown(id, event);
      }}
    >
      <span
        className={classes.twisty}
        aria-hidden="true"
        onClick={(event) => {
          if (!hasChildren) return;
          event.stopPropagation();
          onToggle(id);
        }}
      >
        {hasChildren ? (isExpanded ? '▾' : '▸') : ''}
      </span>
      <span className={classes.label}>
        {describeNode(node)}
        {isArchived ? ' (archived)' : ''}
      </span>
      {values.length > 0 && (
        <span className={classes.values} title={formatKeyValues(values)}>
          {/* Each value isolated: a right-to-left value cannot pull its neighbours into its run. */}
          {values.map((value, index) => (
            <Fragment key={index}>
              {index > 0 && ' · '}
              <bdi>{value.value}</bdi>
            </Fragment>
          ))}
        </span>
      )}
      <span className={classes.meta}>
        #{id}
        {hidden > 0 ? ` +${String(hidden)}` : ''}
      </span>
    </li>
  );
});

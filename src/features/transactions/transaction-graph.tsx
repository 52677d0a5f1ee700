import { useComputedColorScheme } from '@mantine/core';
import {
  Panel,
  ReactFlow,
  useReactFlow,
  useStore,
  ViewportPortal,
  type Edge,
  type Node,
  type NodeHandle,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import {
  createContext,
  Fragment,
  memo,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { identifierText, revealControls } from '@/lib/text/display-text';
import { formatCount, shortenIdentifier } from '@/lib/text/format';
import { formatKeyValues, keyValues } from '@/lib/transaction-tree/key-values';
import type { TreeLayout } from '@/lib/transaction-tree/layout';
import {
  describeNode,
  templateName,
  type NodeId,
  type TransactionTree,
  type TreeNode,
} from '@/lib/transaction-tree/model';
import { keyAction, type TreeKeyAction } from '@/lib/transaction-tree/navigation';
import { mountedAfter, mountOrder } from '@/lib/transaction-tree/progressive';
import { openingViewport, panIntoView, type Viewport } from '@/lib/transaction-tree/viewport';
import { hiddenDescendantCount, type VisibleTree } from '@/lib/transaction-tree/visibility';
import {
  NODE_CURRENT_MATCH,
  NODE_MATCH,
  NODE_SELECTED,
  useNodeFlags,
  type NodeFlagsStore,
} from './node-flags-store';
import classes from './transaction-graph.module.css';
import { TransactionMiniMap } from './transaction-minimap';

type TreeNodeData = {
  node: TreeNode;
  /** The `+N` when collapsed; 0 when open or a leaf. */
  hidden: number;
};

type TreeFlowNode = Node<TreeNodeData, 'created' | 'exercised' | 'archived'>;

type GraphActions = {
  store: NodeFlagsStore;
  onToggle: (id: NodeId) => void;
};

// Callbacks reach the nodes through context, so node data (and React Flow's node list) changes
// only when the layout does.
const GraphActionsContext = createContext<GraphActions | null>(null);

/**
 * Every node's box: five lines (what, on which contract, its identifying values, its parties,
 * its witnesses) and room for the `+N` toggle below them.
 */
export const GRAPH_NODE_HEIGHT = 122;

/** A frame React Flow has not measured (jsdom) is taken as this big. */
const FALLBACK_FRAME = { width: 800, height: 560 };
const CENTER_ZOOM = 0.85;
/**
 * Up to this many nodes are handed to React Flow at once; more are handed over a slice per task
 * (nearest the anchor first), so "Expand all" on 10,000 nodes never blocks the page for long.
 */
export const FIRST_SLICE = 2500;
export const SLICE = 2500;
const CENTER_DURATION = 200;

/** A request to bring a node into view; each new object is a new request. */
export type CenterRequest = { id: NodeId };

export type TransactionGraphProps = {
  visible: VisibleTree;
  layout: TreeLayout;
  store: NodeFlagsStore;
  onSelect: (id: NodeId) => void;
  onToggle: (id: NodeId) => void;
  onKeyAction: (action: TreeKeyAction) => void;
  /** Moves the view to this node when it changes (selection from the outline, search, a link). */
  centerRequest: CenterRequest | undefined;
  /**
   * The node that stays where it is on screen when the layout changes (the one just folded or
   * unfolded, or the selection); without one, the first root.
   */
  anchorNodeId: NodeId | undefined;
  /** Fits the whole graph into view when it changes. */
  fitRequest: number;
  /**
   * Kept in view: when the frame shrinks (the details panel opening beside it) or it is clicked
   * while partly off screen, the view pans just enough to show it whole.
   */
  selectedNodeId?: NodeId | undefined;
  /** As tall as its container rather than a fixed height. */
  fill?: boolean;
};

const nodeTypes = {
  created: memo(TreeNodeBox),
  exercised: memo(TreeNodeBox),
  archived: memo(TreeNodeBox),
};

/**
 * The visible part of a transaction tree as a read-only React Flow graph: the positions come from
 * `layoutTree` (a linear-time tidy tree), every node has a fixed size (so React Flow need not
 * measure before showing it), and only the nodes in view are rendered.
 */
export function TransactionGraph({
  visible,
  layout,
  store,
  onSelect,
  onToggle,
  onKeyAction,
  centerRequest,
  anchorNodeId,
  fitRequest,
  selectedNodeId,
  fill = false,
}: TransactionGraphProps) {
  const { nodes, total, isComplete } = useSlicedNodes(visible, layout, anchorNodeId);
  const isCanvasMounted = useIsCanvasMounted();
  // How the view was last placed, so that a resized frame can be placed the same way again.
  const viewModeRef = useRef<ViewMode>('opening');
  const moveStartRef = useRef<Viewport | undefined>(undefined);
  const actions = useMemo(() => ({ store, onToggle }), [store, onToggle]);
  const frameRef = useRef<HTMLDivElement>(null);
  const tree = visible.tree;
  const kindOf = useCallback((id: NodeId) => tree.nodes.get(id)?.kind, [tree]);
  // The scheme Mantine resolved ('auto' → the system's), so the canvas and minimap follow the
  // console's colour-scheme control rather than only the system setting.
  const colorMode = useComputedColorScheme('light');

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const id = Number(target.closest<HTMLElement>('.react-flow__node')?.dataset.id ?? NaN);
    if (!Number.isInteger(id) || target.tagName === 'BUTTON') return;
    const action = keyAction(visible, id, event.key, 'graph');
    if (!action) return;
    event.preventDefault();
    onKeyAction(action);
  };

  return (
    <GraphActionsContext value={actions}>
      {/* Keys come from the focusable nodes inside (React Flow's own elements) and bubble here. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={frameRef}
        className={classes.frame}
        data-fill={fill || undefined}
        onKeyDown={handleKeyDown}
        role="region"
        aria-label="Transaction graph"
        aria-busy={!isCanvasMounted || !isComplete}
        data-drawn-nodes={isCanvasMounted ? nodes.length : 0}
      >
        {isCanvasMounted && (
          <ReactFlow<TreeFlowNode>
            nodes={nodes}
            edges={NO_EDGES}
            nodeTypes={nodeTypes}
            colorMode={colorMode}
            onNodeClick={(_, node) => {
              onSelect(node.data.node.nodeId);
            }}
            onMoveStart={(event, viewport) => {
              moveStartRef.current = event ? viewport : undefined;
            }}
            onMoveEnd={(event, viewport) => {
              // Only the user's own pan or zoom has an event (ours, opening and centring, have
              // none), and a press on a node starts one that may not move at all.
              const start = moveStartRef.current;
              moveStartRef.current = undefined;
              if (!event || !start) return;
              if (
                start.x !== viewport.x ||
                start.y !== viewport.y ||
                start.zoom !== viewport.zoom
              ) {
                viewModeRef.current = 'placed';
              }
            }}
            minZoom={0.02}
            maxZoom={2}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            edgesFocusable={false}
            onlyRenderVisibleElements
            proOptions={{ hideAttribution: true }}
          >
            <TreeEdges layout={layout} />
            <GraphViewControl
              tree={tree}
              layout={layout}
              frameRef={frameRef}
              centerRequest={centerRequest}
              anchorNodeId={anchorNodeId}
              fitRequest={fitRequest}
              selectedNodeId={selectedNodeId}
              viewModeRef={viewModeRef}
            />
            <TransactionMiniMap layout={layout} kindOf={kindOf} />
            {!isComplete && (
              <Panel position="top-left" className={classes.progress}>
                <span role="status">
                  Drawing {String(nodes.length)} of {formatCount(total, 'node', 'nodes')}…
                </span>
              </Panel>
            )}
          </ReactFlow>
        )}
      </div>
    </GraphActionsContext>
  );
}

/**
 * False in the commit that mounts the graph, true one task later. React Flow measures its frame
 * when it mounts, which forces the layout of everything the same commit added (a preview's
 * outline and summary): mounted a task later it finds them laid out, and a preview's work is two
 * shorter tasks instead of one long one (issue 29).
 */
function useIsCanvasMounted(): boolean {
  const [isMounted, setIsMounted] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setIsMounted(true);
    }, 0);
    return () => {
      window.clearTimeout(timer);
    };
  }, []);
  return isMounted;
}

type SlicedNodes = {
  /** The layout they come from: a new one starts the slicing afresh (and cancels the old). */
  layout: TreeLayout;
  all: TreeFlowNode[];
  /** `all` nearest the anchor first; empty when everything went at once. */
  queue: TreeFlowNode[];
  step: number;
};

/**
 * The flow nodes of `layout`, all at once when there are few; otherwise the first slice at once
 * and a slice per task after it, until all are there (then in pre-order, the order of the focus).
 * A newer layout (a fold while slicing) replaces the pending slices.
 */
function useSlicedNodes(visible: VisibleTree, layout: TreeLayout, anchor: NodeId | undefined) {
  const start = (): SlicedNodes => {
    const all = toFlowNodes(visible, layout);
    if (all.length <= FIRST_SLICE) return { layout, all, queue: [], step: 0 };
    const byId = new Map(all.map((node) => [node.data.node.nodeId, node]));
    const queue = mountOrder(layout, anchor).flatMap((box) => byId.get(box.id) ?? []);
    return { layout, all, queue, step: 0 };
  };
  const [sliced, setSliced] = useState(start);
  let current = sliced;
  if (sliced.layout !== layout) {
    current = start();
    setSliced(current);
  }
  const count =
    current.queue.length === 0
      ? current.all.length
      : mountedAfter(current.step, current.all.length, FIRST_SLICE, SLICE);
  const isComplete = count >= current.all.length;

  useEffect(() => {
    if (isComplete) return;
    const timer = window.setTimeout(() => {
      setSliced((state) => (state === current ? { ...state, step: state.step + 1 } : state));
    }, 0);
    return () => {
      window.clearTimeout(timer);
    };
  }, [current, isComplete]);

  const nodes = useMemo(
    () => (isComplete ? current.all : current.queue.slice(0, count)),
    [current, count, isComplete],
  );
  return { nodes, total: current.all.length, isComplete };
}

/**
 * How the view was last placed: by the opening fit (`opening`), by "Fit view" (`fitted`), or on a
 * node or by the user's own pan and zoom (`placed`). A resized frame (the details panel opening,
 * full screen, the window) is fitted again in the first two cases; in the last the view stays and
 * only the selected node is brought back into sight.
 */
type ViewMode = 'opening' | 'fitted' | 'placed';

const FIT_VIEW_OPTIONS = { padding: 0.1, duration: 200, includeHiddenNodes: true };

/** Opening, centering and fitting need React Flow's instance, which only its children reach. */
function GraphViewControl({
  tree,
  layout,
  centerRequest,
  anchorNodeId,
  fitRequest,
  selectedNodeId,
  frameRef,
  viewModeRef,
}: {
  tree: TransactionTree;
  layout: TreeLayout;
  frameRef: RefObject<HTMLDivElement | null>;
  centerRequest: CenterRequest | undefined;
  anchorNodeId: NodeId | undefined;
  fitRequest: number;
  selectedNodeId: NodeId | undefined;
  viewModeRef: RefObject<ViewMode>;
}) {
  const flow = useReactFlow();
  const isReady = flow.viewportInitialized;
  const frameWidth = useStore((state) => state.width);
  const frameHeight = useStore((state) => state.height);
  const layoutRef = useRef(layout);
  const hasOpened = useRef(false);
  const openedFrame = useRef({ width: 0, height: 0 });

  // Folding moves everything after the folded node; the view moves with the anchor, so what the
  // user acted on stays under the pointer.
  useLayoutEffect(() => {
    const before = layoutRef.current;
    layoutRef.current = layout;
    if (before === layout || !isReady) return;
    const id = anchorNodeId ?? layout.nodes[0]?.id;
    const from = id === undefined ? undefined : before.positionOf.get(id);
    const to = id === undefined ? undefined : layout.positionOf.get(id);
    if (!from || !to) return;
    const { x, y, zoom } = flow.getViewport();
    void flow.setViewport({ x: x - (to.x - from.x) * zoom, y: y - (to.y - from.y) * zoom, zoom });
  }, [layout, anchorNodeId, isReady, flow]);

  // The top of the tree at a readable zoom (or the selected node): fitting a big tree would
  // shrink 10,000 nodes to dots and render every one of them.
  useEffect(() => {
    if (!isReady || hasOpened.current) return;
    hasOpened.current = true;
    const frame =
      frameWidth > 0 && frameHeight > 0
        ? { width: frameWidth, height: frameHeight }
        : FALLBACK_FRAME;
    openedFrame.current = { width: frameWidth, height: frameHeight };
    viewModeRef.current = centerRequest ? 'placed' : 'opening';
    void flow.setViewport(openingViewport(tree, layoutRef.current, frame, centerRequest?.id));
  }, [isReady, tree, centerRequest, flow, frameWidth, frameHeight, viewModeRef]);

  // A frame that changed size after opening (measured late, the details panel opening beside
  // it, full screen, a resized window, a composer result growing with its tree): fitted views are
  // fitted again, and the selected node is never left cut off at the new edge.
  useEffect(() => {
    if (!isReady || !hasOpened.current || frameWidth <= 0 || frameHeight <= 0) return;
    const before = openedFrame.current;
    if (before.width === frameWidth && before.height === frameHeight) return;
    openedFrame.current = { width: frameWidth, height: frameHeight };
    const frame = { width: frameWidth, height: frameHeight };
    if (viewModeRef.current === 'fitted') {
      void flow.fitView(FIT_VIEW_OPTIONS);
      return;
    }
    let viewport: Viewport =
      viewModeRef.current === 'opening'
        ? openingViewport(tree, layoutRef.current, frame)
        : flow.getViewport();
    const box =
      selectedNodeId === undefined ? undefined : layoutRef.current.positionOf.get(selectedNodeId);
    if (box) viewport = panIntoView(viewport, box, frame);
    void flow.setViewport(viewport);
  }, [isReady, tree, flow, frameWidth, frameHeight, selectedNodeId, viewModeRef]);

  useEffect(() => {
    if (!isReady || !centerRequest) return;
    const box = layoutRef.current.positionOf.get(centerRequest.id);
    if (!box) return;
    viewModeRef.current = 'placed';
    void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, {
      zoom: Math.max(flow.getZoom(), CENTER_ZOOM),
      duration: CENTER_DURATION,
    });
    // Keyboard moves within the graph keep the focus on the moved-to node, whose element
    // exists only once the view has reached it (only nodes in view are rendered).
    const frame = frameRef.current;
    if (!frame?.contains(document.activeElement)) return;
    const timer = window.setTimeout(() => {
      frame
        .querySelector<HTMLElement>(`.react-flow__node[data-id="${String(centerRequest.id)}"]`)
        ?.focus({ preventScroll: true });
    }, CENTER_DURATION + 20);
    return () => {
      window.clearTimeout(timer);
    };
  }, [isReady, centerRequest, flow, frameRef, viewModeRef]);

  // A node clicked while partly outside the frame slides fully into it.
  useEffect(() => {
    if (!isReady || selectedNodeId === undefined || centerRequest?.id === selectedNodeId) return;
    const box = layoutRef.current.positionOf.get(selectedNodeId);
    if (!box || frameWidth <= 0 || frameHeight <= 0) return;
    const current = flow.getViewport();
    const next = panIntoView(current, box, { width: frameWidth, height: frameHeight });
    if (next.x === current.x && next.y === current.y) return;
    viewModeRef.current = 'placed';
    void flow.setViewport(next, { duration: CENTER_DURATION });
    // Only a new selection moves the view; the frame's own changes are the effect above's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedNodeId, isReady]);

  useEffect(() => {
    if (fitRequest === 0) return;
    viewModeRef.current = 'fitted';
    void flow.fitView(FIT_VIEW_OPTIONS);
  }, [fitRequest, flow, viewModeRef]);

  return null;
}

function toFlowNodes(visible: VisibleTree, layout: TreeLayout): TreeFlowNode[] {
  const nodes: TreeFlowNode[] = [];
  for (const box of layout.nodes) {
    const node = visible.tree.nodes.get(box.id);
    if (!node) continue;
    nodes.push({
      id: String(box.id),
      type: node.kind,
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      data: { node, hidden: hiddenDescendantCount(visible, box.id) },
      ariaLabel: `${describeNode(node)}, node ${String(node.nodeId)}`,
      // Focusable, with buttons inside (fold): an article, as in ARIA's feed pattern. React Flow's
      // default `group` is no role for a stop in the focus order, and a widget role (button,
      // treeitem) would either hide the fold button or need a parent React Flow does not render.
      ariaRole: 'article',
      // Known (no) handles: React Flow renders a node without handle bounds once, to measure
      // them, even off screen; for 10,000 new nodes that is seconds. Edges are drawn by TreeEdges.
      handles: NO_HANDLES,
      draggable: false,
      connectable: false,
      selectable: false,
    });
  }
  return nodes;
}

/**
 * The parent → child edges, drawn as one SVG path of tree "brackets" (down from the parent, across
 * its children, down to each) instead of one React Flow edge each: React Flow renders every edge
 * that merely crosses the view, and from a parent with 10,000 children every edge does, which
 * took seconds. One path of 10,000 segments is a few milliseconds. The compare view draws them too.
 */
export const TreeEdges = memo(function TreeEdges({ layout }: { layout: TreeLayout }) {
  const path = useMemo(() => edgePath(layout), [layout]);
  return (
    <ViewportPortal>
      <svg className={classes.edges} aria-hidden="true" width={layout.width} height={layout.height}>
        <path d={path} />
      </svg>
    </ViewportPortal>
  );
});

function edgePath(layout: TreeLayout): string {
  const parts: string[] = [];
  let index = 0;
  const { edges, positionOf } = layout;
  while (index < edges.length) {
    const source = edges[index]?.source;
    const parent = source === undefined ? undefined : positionOf.get(source);
    let first = Infinity;
    let last = -Infinity;
    let childTop = Infinity;
    const childParts: string[] = [];
    for (; index < edges.length && edges[index]?.source === source; index++) {
      const target = edges[index]?.target;
      const child = target === undefined ? undefined : positionOf.get(target);
      if (!child) continue;
      const x = child.x + child.width / 2;
      first = Math.min(first, x);
      last = Math.max(last, x);
      childTop = Math.min(childTop, child.y);
      childParts.push(`M${fmt(x)} ${fmt(child.y)}`);
    }
    if (!parent || childParts.length === 0) continue;
    const x = parent.x + parent.width / 2;
    const bottom = parent.y + parent.height;
    const middle = (bottom + childTop) / 2;
    parts.push(`M${fmt(x)} ${fmt(bottom)}V${fmt(middle)}`);
    parts.push(`M${fmt(Math.min(first, x))} ${fmt(middle)}H${fmt(Math.max(last, x))}`);
    for (const part of childParts) parts.push(`${part}V${fmt(middle)}`);
  }
  return parts.join('');
}

const fmt = (value: number) => String(Math.round(value * 10) / 10);

const NO_EDGES: Edge[] = [];
const NO_HANDLES: NodeHandle[] = [];

function TreeNodeBox({ data }: NodeProps<TreeFlowNode>) {
  const actions = use(GraphActionsContext);
  if (!actions) throw new Error('TreeNodeBox is rendered outside TransactionGraph');
  const { node, hidden } = data;
  const flags = useNodeFlags(actions.store, node.nodeId);
  const isArchived = node.kind === 'created' && node.consumedBy !== null;
  return (
    <div
      className={classes.node}
      data-kind={node.kind}
      data-archived={isArchived || undefined}
      data-selected={(flags & NODE_SELECTED) !== 0 || undefined}
      data-match={(flags & NODE_MATCH) !== 0 || undefined}
      data-current-match={(flags & NODE_CURRENT_MATCH) !== 0 || undefined}
    >
      <NodeLines node={node} isArchived={isArchived} />
      {node.children.length > 0 && (
        <button
          type="button"
          className={`${classes.toggle} nodrag nopan`}
          aria-expanded={hidden === 0}
          aria-label={
            hidden === 0
              ? `Collapse node ${String(node.nodeId)}`
              : `Expand node ${String(node.nodeId)} (${String(hidden)} hidden)`
          }
          onClick={(event) => {
            event.stopPropagation();
            actions.onToggle(node.nodeId);
          }}
        >
          {hidden === 0 ? '−' : `+${String(hidden)}`}
        </button>
      )}
    </div>
  );
}

/** Shortened parties, each revealed (`identifierText`) and isolated. */
function PartyList({ parties }: { parties: readonly string[] }) {
  if (parties.length === 0) return '–';
  return parties.map((party, index) => (
    <Fragment key={index}>
      {index > 0 && ', '}
      <bdi>{identifierText(party).shown}</bdi>
    </Fragment>
  ));
}

const PARTY_LABELS: Record<string, string> = {
  Sig: 'Signatories',
  Obs: 'Observers',
  By: 'Acting parties',
  Witn: 'Witnesses',
};

/** A node's first line: its kind's tag, its title (`hint` on hover) and what follows it. */
function HeadLine({
  tag,
  hint,
  after,
  children,
}: {
  tag: ReactNode;
  hint?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={classes.line}>
      {tag}
      <span className={classes.title} title={hint}>
        {children}
      </span>
      {after}
    </div>
  );
}

function Tag({ tone, children }: { tone: string | undefined; children: ReactNode }) {
  return (
    <span className={classes.tag} data-tone={tone}>
      {children}
    </span>
  );
}

/** A dimmed line of shortened text, `hint` (the full ids) on hover. */
function DimmedLine({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <div className={classes.line}>
      <span className={classes.dimmed} title={hint}>
        {children}
      </span>
    </div>
  );
}

/** A line of shortened parties (`Sig: a, b · Obs: c`), the full ids on hover. */
function PartyLine({
  label,
  parties,
  extra,
}: {
  label: string;
  parties: readonly string[];
  extra?: [string, readonly string[]];
}) {
  const parts: [string, readonly string[]][] = extra
    ? [[label, parties], extra]
    : [[label, parties]];
  return (
    <div className={classes.line}>
      <span
        className={classes.dimmed}
        title={parts
          .map(
            ([name, list]) =>
              `${PARTY_LABELS[name] ?? name}: ${list.map((party) => revealControls(party)).join(', ') || 'none'}`,
          )
          .join('\n')}
      >
        {parts.map(([name, list], index) => (
          <Fragment key={name}>
            {index > 0 && ' · '}
            {name}: <PartyList parties={list} />
          </Fragment>
        ))}
      </span>
    </div>
  );
}

/** The argument values that identify the contract (`amount 30 · currency USD`), each isolated. */
function KeyValuesLine({ node }: { node: TreeNode }) {
  const values = keyValues(node);
  if (values.length === 0) return null;
  return (
    <div className={classes.line}>
      <span className={classes.values} title={formatKeyValues(values)}>
        {/* Each value isolated: a right-to-left value cannot pull its neighbours into its run. */}
        {values.map((value, index) => (
          <Fragment key={index}>
            {index > 0 && ' · '}
            {value.field} <bdi>{value.value}</bdi>
          </Fragment>
        ))}
      </span>
    </div>
  );
}

function NodeLines({ node, isArchived }: { node: TreeNode; isArchived: boolean }) {
  switch (node.kind) {
    case 'created':
      return (
        <>
          <HeadLine
            tag={<Tag tone="create">Create</Tag>}
            hint={node.templateId}
            after={isArchived && <Tag tone="archived">Archived</Tag>}
          >
            {templateName(node)}
          </HeadLine>
          <DimmedLine hint={node.contractId}>{shortenIdentifier(node.contractId)}</DimmedLine>
          <KeyValuesLine node={node} />
          <PartyLine label="Sig" parties={node.signatories} extra={['Obs', node.observers]} />
          <PartyLine label="Witn" parties={node.witnessParties} />
        </>
      );
    case 'exercised':
      return (
        <>
          <HeadLine
            tag={<Tag tone="exercise">Exercise</Tag>}
            after={
              <Tag tone={node.consuming ? 'consuming' : undefined}>
                {node.consuming ? 'Consuming' : 'Non-consuming'}
              </Tag>
            }
          >
            {node.choice}
          </HeadLine>
          <DimmedLine hint={`${node.templateId} ${node.contractId}`}>
            {templateName(node)} · {shortenIdentifier(node.contractId)}
          </DimmedLine>
          <KeyValuesLine node={node} />
          <PartyLine label="By" parties={node.actingParties} />
          <PartyLine label="Witn" parties={node.witnessParties} />
        </>
      );
    case 'archived':
      return (
        <>
          <HeadLine tag={<Tag tone="archived">Archive</Tag>}>{templateName(node)}</HeadLine>
          <DimmedLine hint={node.contractId}>{shortenIdentifier(node.contractId)}</DimmedLine>
          <PartyLine label="Witn" parties={node.witnessParties} />
        </>
      );
  }
}

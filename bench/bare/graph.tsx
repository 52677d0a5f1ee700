/**
 * The transaction graph's limits (issue 29), in the same Chromium as the console:
 *
 * - layout: dagre (`@dagrejs/dagre`, the general layered layout most React Flow apps use), timed
 *   beside the console's own `layoutTree` on the same tree, alternately (`__graph.layoutTimes`);
 * - render: React Flow with its default nodes and edges at positions computed here BEFORE the
 *   timer starts (`?update=…&render`): from `__graphStart` to the frame that shows the nodes, read
 *   by the same probe as the console's graph (GRAPH_SHOWN_SCRIPT). It gets the console's opening
 *   viewport and `onlyRenderVisibleElements`, so it draws about the nodes the console draws.
 *
 * The tree is the console's own model of the same `update-by-id` answer, fetched through the same
 * server; building it is not timed.
 */
import '@xyflow/react/dist/style.css';
import dagre from '@dagrejs/dagre';
import { ReactFlow, type Edge, type Node } from '@xyflow/react';
import { createRoot } from 'react-dom/client';
import { type WireUpdate } from '@/api/transaction-tree-adapter';
import { fromUpdate } from '@/api/transaction-tree-builder';
import { layoutTree, NODE_HEIGHT, NODE_WIDTH } from '@/lib/transaction-tree/layout';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { openingViewport } from '@/lib/transaction-tree/viewport';
import { buildVisibleTree, expandAll } from '@/lib/transaction-tree/visibility';

const UPDATE_FORMAT = {
  includeTransactions: {
    eventFormat: {
      filtersForAnyParty: {
        cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }],
      },
      verbose: true,
    },
    transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
  },
};

async function treeOf(updateId: string): Promise<TransactionTree> {
  const response = await fetch('/v2/updates/update-by-id', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ updateId, updateFormat: UPDATE_FORMAT }),
  });
  if (!response.ok) throw new Error(`update-by-id answered ${String(response.status)}`);
  const { update } = (await response.json()) as { update: WireUpdate };
  const tree = fromUpdate(update);
  if (!tree) throw new Error(`${updateId} is not a transaction`);
  return tree;
}

/** dagre on the same tree: every node a 240 × 72 box, top-down, as dagre's usual options. */
function dagreLayout(tree: TransactionTree): number {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 20, ranksep: 40 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const id of tree.order)
    graph.setNode(String(id), { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const id of tree.order) {
    for (const child of tree.nodes.get(id)?.children ?? [])
      graph.setEdge(String(id), String(child));
  }
  dagre.layout(graph);
  // Read one centre back, so that the layout cannot be skipped as unused.
  return (graph.node('0') as { x: number }).x;
}

function ourLayout(tree: TransactionTree): number {
  return layoutTree(buildVisibleTree(tree, expandAll())).width;
}

/**
 * Each is run untimed for at least WARM_UP_MS and twice before its samples. A count was not
 * enough: after 5 runs of the 100-node tree (3.5 ms in all) V8 had not optimized ours yet, and it
 * took 0.7 ms where the 1,000-node tree, timed after it, took 0.5 ms.
 */
const WARM_UP_MS = 200;
/**
 * A sample is the mean of as many runs in a row as fill SAMPLE_MS: outside a cross-origin
 * isolated page Chromium rounds `performance.now()` to 0.1 ms, the size of a 100-node layout.
 */
const SAMPLE_MS = 10;

type Layout = (tree: TransactionTree) => number;

/** Runs `layout` untimed until warm; the ms one run then takes. */
function warmUp(layout: Layout, tree: TransactionTree): { perRunMs: number; sink: number } {
  let sink = 0;
  let runs = 0;
  let spent = 0;
  let last = 0;
  while (runs < 2 || spent < WARM_UP_MS) {
    const start = performance.now();
    sink += layout(tree);
    last = performance.now() - start;
    spent += last;
    runs++;
  }
  return { perRunMs: last, sink };
}

/** One sample: the mean ms of `repeats` runs in a row. */
function sample(layout: Layout, tree: TransactionTree, repeats: number) {
  let sink = 0;
  const start = performance.now();
  for (let run = 0; run < repeats; run++) sink += layout(tree);
  return { ms: (performance.now() - start) / repeats, sink };
}

const repeatsFor = (perRunMs: number) =>
  Math.max(1, Math.ceil(SAMPLE_MS / Math.max(perRunMs, 0.01)));

/** `runs` samples of each, alternately (ours, dagre, ours, dagre …), after both are warm. */
function layoutTimes(tree: TransactionTree, runs: number) {
  const ours: number[] = [];
  const limit: number[] = [];
  const oursWarm = warmUp(ourLayout, tree);
  const dagreWarm = warmUp(dagreLayout, tree);
  let sink = oursWarm.sink + dagreWarm.sink;
  const oursRepeats = repeatsFor(oursWarm.perRunMs);
  const dagreRepeats = repeatsFor(dagreWarm.perRunMs);
  for (let run = 0; run < runs; run++) {
    const oursSample = sample(ourLayout, tree, oursRepeats);
    const dagreSample = sample(dagreLayout, tree, dagreRepeats);
    ours.push(oursSample.ms);
    limit.push(dagreSample.ms);
    sink += oursSample.sink + dagreSample.sink;
  }
  return { ours, limit, sink, oursRepeats, dagreRepeats };
}

const trees = new Map<string, TransactionTree>();

Object.assign(window, {
  __graph: {
    /** Fetches and models the tree (not timed); its node count. */
    load: async (updateId: string) => {
      const tree = await treeOf(updateId);
      trees.set(updateId, tree);
      return tree.nodes.size;
    },
    layoutTimes: (updateId: string, runs: number) => {
      const tree = trees.get(updateId);
      if (!tree) throw new Error(`${updateId} is not loaded`);
      return layoutTimes(tree, runs);
    },
  },
});

async function render(updateId: string) {
  const tree = await treeOf(updateId);
  const layout = layoutTree(buildVisibleTree(tree, expandAll()));
  const frame = { width: window.innerWidth, height: Math.round(window.innerHeight * 0.75) };
  const nodes: Node[] = layout.nodes.map((box) => ({
    id: String(box.id),
    position: { x: box.x, y: box.y },
    data: { label: tree.nodes.get(box.id)?.kind ?? '' },
    width: box.width,
    height: box.height,
  }));
  const edges: Edge[] = layout.edges.map((edge) => ({
    id: edge.id,
    source: String(edge.source),
    target: String(edge.target),
  }));
  const viewport = openingViewport(tree, layout, frame);
  const container = document.getElementById('root');
  if (!container) return;
  Object.assign(window, { __graphStart: performance.now() });
  createRoot(container).render(
    <div aria-label="Transaction graph" style={{ width: frame.width, height: frame.height }}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        defaultViewport={viewport}
        minZoom={0.02}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        onlyRenderVisibleElements
        proOptions={{ hideAttribution: true }}
      />
    </div>,
  );
}

const params = new URLSearchParams(location.search);
const updateId = params.get('update');
if (updateId && params.has('render')) void render(updateId);

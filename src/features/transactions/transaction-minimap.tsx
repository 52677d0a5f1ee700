import { Panel, useReactFlow, useStore, type ReactFlowState } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, type PointerEvent } from 'react';
import type { TreeLayout } from '@/lib/transaction-tree/layout';
import type { NodeId, TreeNodeKind } from '@/lib/transaction-tree/model';
import classes from './transaction-graph.module.css';

const WIDTH = 180;
const HEIGHT = 120;
const MIN_NODE_PIXELS = 2;
const WHEEL_ZOOM_STEP = 1.2;

const KIND_COLOURS: Record<TreeNodeKind, string> = {
  exercised: 'var(--mantine-color-blue-5)',
  created: 'var(--mantine-color-teal-5)',
  archived: 'var(--mantine-color-gray-5)',
};

type Rect = { x: number; y: number; width: number; height: number };

const viewOf = (state: ReactFlowState): Rect => {
  const [tx, ty, zoom] = state.transform;
  return {
    x: -tx / zoom,
    y: -ty / zoom,
    width: state.width / zoom,
    height: state.height / zoom,
  };
};
const sameView = (a: Rect, b: Rect) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

const r = (value: number) => Math.round(value);

/**
 * The whole tree in miniature, with the part in view unmasked; a press or drag moves the view
 * there, the wheel zooms. Not shown while the whole tree is in view: it would map nothing new
 * and cover the nodes in its corner (a fitted split's right-hand child). One SVG path per node kind instead of React Flow's MiniMap, which mounts
 * a component (and a store subscription) per node: for 10,000 nodes that alone took most of the
 * half second "Expand all" blocked the page for.
 */
export const TransactionMiniMap = memo(function TransactionMiniMap({
  layout,
  kindOf,
}: {
  layout: TreeLayout;
  kindOf: (id: NodeId) => TreeNodeKind | undefined;
}) {
  const flow = useReactFlow();
  const view = useStore(viewOf, sameView);
  const svgRef = useRef<SVGSVGElement>(null);
  const isPressed = useRef(false);
  const isAllInView =
    view.width > 0 &&
    view.height > 0 &&
    view.x <= 0 &&
    view.y <= 0 &&
    view.x + view.width >= layout.width &&
    view.y + view.height >= layout.height;

  const paths = useMemo(() => {
    const parts: Record<TreeNodeKind, string[]> = { exercised: [], created: [], archived: [] };
    // A wide tree shrinks its boxes below a pixel here: each stays at least a dot wide.
    const dot = MIN_NODE_PIXELS * Math.max(layout.width / WIDTH, layout.height / HEIGHT);
    for (const layoutBox of layout.nodes) {
      const kind = kindOf(layoutBox.id);
      if (!kind) continue;
      const box = {
        x: layoutBox.x,
        y: layoutBox.y,
        width: Math.max(layoutBox.width, dot),
        height: Math.max(layoutBox.height, dot),
      };
      parts[kind].push(
        `M${String(r(box.x))} ${String(r(box.y))}h${String(r(box.width))}v${String(r(box.height))}h${String(-r(box.width))}z`,
      );
    }
    return (Object.keys(parts) as TreeNodeKind[]).map((kind) => ({
      kind,
      d: parts[kind].join(''),
    }));
  }, [layout, kindOf]);

  const bounds = union({ x: 0, y: 0, width: layout.width, height: layout.height }, view);
  const scale = Math.max(bounds.width / WIDTH, bounds.height / HEIGHT, 1e-9);
  const viewWidth = WIDTH * scale;
  const viewHeight = HEIGHT * scale;
  const offset = 5 * scale;
  const box = {
    x: bounds.x - (viewWidth - bounds.width) / 2 - offset,
    y: bounds.y - (viewHeight - bounds.height) / 2 - offset,
    width: viewWidth + 2 * offset,
    height: viewHeight + 2 * offset,
  };

  const toFlow = (event: { clientX: number; clientY: number }) => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return undefined;
    return {
      x: box.x + ((event.clientX - rect.left) / rect.width) * box.width,
      y: box.y + ((event.clientY - rect.top) / rect.height) * box.height,
    };
  };
  const moveTo = (event: PointerEvent<SVGSVGElement>) => {
    const point = toFlow(event);
    if (point) void flow.setCenter(point.x, point.y, { zoom: flow.getZoom() });
  };

  // React's wheel listeners are passive; this one must stop the page from scrolling.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const zoom = flow.getZoom();
      void flow.zoomTo(event.deltaY < 0 ? zoom * WHEEL_ZOOM_STEP : zoom / WHEEL_ZOOM_STEP);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      svg.removeEventListener('wheel', onWheel);
    };
    // The svg comes and goes with isAllInView.
  }, [flow, isAllInView]);

  if (isAllInView) return null;
  return (
    <Panel position="bottom-right" className={`react-flow__minimap ${classes.minimap}`}>
      <svg
        ref={svgRef}
        width={WIDTH}
        height={HEIGHT}
        viewBox={`${String(box.x)} ${String(box.y)} ${String(box.width)} ${String(box.height)}`}
        className="react-flow__minimap-svg nodrag nopan"
        role="img"
        aria-label="Minimap of the transaction graph"
        onPointerDown={(event) => {
          isPressed.current = true;
          event.currentTarget.setPointerCapture(event.pointerId);
          moveTo(event);
        }}
        onPointerMove={(event) => {
          if (isPressed.current) moveTo(event);
        }}
        onPointerUp={() => {
          isPressed.current = false;
        }}
        onPointerCancel={() => {
          isPressed.current = false;
        }}
      >
        {paths.map(({ kind, d }) => (
          <path key={kind} d={d} fill={KIND_COLOURS[kind]} />
        ))}
        <path
          className="react-flow__minimap-mask"
          fillRule="evenodd"
          d={`M${String(box.x)} ${String(box.y)}h${String(box.width)}v${String(box.height)}h${String(-box.width)}z M${String(view.x)} ${String(view.y)}h${String(view.width)}v${String(view.height)}h${String(-view.width)}z`}
        />
      </svg>
    </Panel>
  );
});

import { Badge, Stack, Table, Text, Title, useComputedColorScheme } from '@mantine/core';
import { ReactFlow, type Node, type NodeHandle, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useId, useMemo } from 'react';
import { formatCount } from '@/lib/text/format';
import type { TreeLayout } from '@/lib/transaction-tree/layout';
import {
  layoutComparison,
  type ComparedNode,
  type ProjectionComparison,
  type ProjectionSide,
  type SeenBy,
} from '@/lib/transaction-tree/projection-comparison';
import { TreeEdges } from './transaction-graph';
import classes from './projection-comparison-view.module.css';

export type ProjectionComparisonViewProps = {
  comparison: ProjectionComparison;
};

type ComparedFlowNode = Node<{ compared: ComparedNode; side: ProjectionSide }, 'compared'>;

/** Three lines: what, which node, seen or not; the reasons are in the table. */
const COMPARE_NODE_HEIGHT = 64;
const COMPARE_NODE_WIDTH = 220;
/** More rows than this are not listed (the graphs still draw every node). */
export const MAX_COMPARED_ROWS = 1000;
const NO_HANDLES: NodeHandle[] = [];
const nodeTypes = { compared: memo(ComparedNodeBox) };

/**
 * One transaction as two participants see it: the same layout drawn twice, side by side, each
 * side's unseen nodes ghosted; and the same facts as a table (who sees each node, and why) for
 * keyboards and screen readers, which the canvases leave out of the focus order.
 */
export function ProjectionComparisonView({ comparison }: ProjectionComparisonViewProps) {
  const layout = useMemo(
    () =>
      layoutComparison(comparison, new Set(), {
        nodeWidth: COMPARE_NODE_WIDTH,
        nodeHeight: COMPARE_NODE_HEIGHT,
      }),
    [comparison],
  );
  const { names, counts } = comparison;
  const summary = [
    `${formatCount(counts.both, 'node', 'nodes')} seen by both`,
    `${String(counts.hereOnly)} by ${names.here} only`,
    `${String(counts.thereOnly)} by ${names.there} only`,
  ].join(', ');
  return (
    <Stack gap="sm">
      <Text size="sm">{summary}.</Text>
      <div className={classes.sides}>
        <ProjectionCanvas comparison={comparison} layout={layout} side="here" />
        <ProjectionCanvas comparison={comparison} layout={layout} side="there" />
      </div>
      <ComparisonTable comparison={comparison} />
    </Stack>
  );
}

const seesNode = (compared: ComparedNode, side: ProjectionSide) => compared[side].sees;

function ProjectionCanvas({
  comparison,
  layout,
  side,
}: {
  comparison: ProjectionComparison;
  layout: TreeLayout;
  side: ProjectionSide;
}) {
  const colorMode = useComputedColorScheme('light');
  const captionId = useId();
  const nodes = useMemo(
    () =>
      layout.nodes.flatMap((box): ComparedFlowNode[] => {
        const compared = comparison.nodes.get(box.id);
        if (!compared) return [];
        return [
          {
            id: String(box.id),
            type: 'compared',
            position: { x: box.x, y: box.y },
            width: box.width,
            height: box.height,
            data: { compared, side },
            handles: NO_HANDLES,
            draggable: false,
            connectable: false,
            selectable: false,
            focusable: false,
          },
        ];
      }),
    [comparison, layout, side],
  );
  const seen = nodes.filter((node) => seesNode(node.data.compared, side)).length;
  const name = comparison.names[side];
  return (
    <figure className={classes.side} aria-labelledby={captionId}>
      <figcaption id={captionId} className={classes.caption}>
        <Title order={3} size="h5">
          {side === 'here' ? `${name} (this participant)` : name}
        </Title>{' '}
        <Text span size="sm" c="dimmed">
          sees {String(seen)} of {formatCount(nodes.length, 'node', 'nodes')}
        </Text>
      </figcaption>
      {/* The table below tells the same: the canvas is for the eye, not the focus order. */}
      <div className={classes.canvas} aria-hidden="true">
        <ReactFlow<ComparedFlowNode>
          nodes={nodes}
          nodeTypes={nodeTypes}
          colorMode={colorMode}
          fitView
          fitViewOptions={{ padding: 0.1 }}
          minZoom={0.02}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          onlyRenderVisibleElements
          proOptions={{ hideAttribution: true }}
        >
          <TreeEdges layout={layout} />
        </ReactFlow>
      </div>
    </figure>
  );
}

function ComparedNodeBox({ data }: NodeProps<ComparedFlowNode>) {
  const { compared, side } = data;
  const sees = seesNode(compared, side);
  return (
    <div className={classes.node} data-seen={sees || undefined} data-seen-by={compared.seenBy}>
      <div className={classes.line}>
        <strong>{compared.description}</strong>
      </div>
      <div className={classes.line}>node {compared.nodeId}</div>
      <div className={classes.line}>{sees ? seenByText(compared.seenBy) : 'Not seen here'}</div>
    </div>
  );
}

function seenByText(seenBy: SeenBy): string {
  return seenBy === 'both' ? 'Seen by both' : 'Seen here only';
}

const SEEN_BY_COLOR: Record<SeenBy, string> = {
  both: 'gray',
  'here-only': 'blue',
  'there-only': 'grape',
};

function ComparisonTable({ comparison }: { comparison: ProjectionComparison }) {
  const { names } = comparison;
  const rows = comparison.union.order.slice(0, MAX_COMPARED_ROWS);
  const label = (seenBy: SeenBy) =>
    seenBy === 'both'
      ? 'Both'
      : seenBy === 'here-only'
        ? `${names.here} only`
        : `${names.there} only`;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped withTableBorder>
        <caption className={classes.tableCaption}>Who sees each node, and why</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Node</Table.Th>
            <Table.Th scope="col">Event</Table.Th>
            <Table.Th scope="col">Seen by</Table.Th>
            <Table.Th scope="col">Why</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((id) => {
            const compared = comparison.nodes.get(id);
            if (!compared) return null;
            return (
              <Table.Tr key={id}>
                <Table.Td>{id}</Table.Td>
                <Table.Th scope="row" fw={500}>
                  {compared.description}
                </Table.Th>
                <Table.Td>
                  <Badge variant="light" color={SEEN_BY_COLOR[compared.seenBy]}>
                    {label(compared.seenBy)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{compared.reason}</Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {comparison.union.order.length > rows.length && (
        <Text size="sm" c="dimmed">
          The first {String(rows.length)} of{' '}
          {formatCount(comparison.union.order.length, 'node', 'nodes')} are listed.
        </Text>
      )}
    </Table.ScrollContainer>
  );
}

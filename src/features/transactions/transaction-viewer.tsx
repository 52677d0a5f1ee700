import { Group, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { updateQueries } from '@/api/updates';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { TransactionLinks } from './transaction-links';
import { TransactionView } from './transaction-view';
import { useReadScope } from './use-read-scope';

export type TransactionViewerProps = {
  updateId: string;
  selectedNodeId: number | undefined;
  onSelectNode: (nodeId: number | undefined) => void;
  links: TransactionLinks;
};

/** A past transaction, looked up by id for the caller's parties, in the transaction view. */
export function TransactionViewer({
  updateId,
  selectedNodeId,
  onSelectNode,
  links,
}: TransactionViewerProps) {
  const scope = useReadScope();
  const { data: tree } = useSuspenseQuery(updateQueries.tree({ updateId }, scope));
  return (
    <Stack gap="md">
      <TransactionHeader tree={tree} />
      <TransactionView
        tree={tree}
        selectedNodeId={selectedNodeId}
        onSelectNode={onSelectNode}
        links={links}
      />
    </Stack>
  );
}

function TransactionHeader({ tree }: { tree: TransactionTree }) {
  const items: Property[] = [
    {
      label: 'Update id',
      value: <Identifier value={tree.updateId} label="update id" isShortened={false} />,
    },
    { label: 'Offset', value: String(tree.offset) },
  ];
  if (tree.commandId) items.push({ label: 'Command id', value: tree.commandId });
  if (tree.workflowId) items.push({ label: 'Workflow id', value: tree.workflowId });
  if (tree.effectiveAt) items.push({ label: 'Effective at', value: tree.effectiveAt });
  if (tree.recordTime) items.push({ label: 'Record time', value: tree.recordTime });
  if (tree.synchronizerId) {
    items.push({
      label: 'Synchronizer',
      value: <Identifier value={tree.synchronizerId} label="synchronizer id" />,
    });
  }
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Title order={2} size="h3">
          Transaction at offset {tree.offset}
        </Title>
        <Text size="sm" c="dimmed">
          {tree.order.length === 0 ? 'No events visible to your parties' : null}
        </Text>
      </Group>
      <PropertyList items={items} />
    </Stack>
  );
}

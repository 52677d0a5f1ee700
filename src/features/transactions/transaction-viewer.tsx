import { Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isEmptyScope, updateQueries, type ReadScope, type UpdateRef } from '@/api/updates';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import { RelativeTime } from '@/components/relative-time';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import type { TransactionLinks } from './transaction-links';
import { TransactionView, type TransactionPane } from './transaction-view';
import { useReadScope } from './use-read-scope';
import { NoReadScopeState } from './no-read-scope-state';

export type TransactionViewerProps = {
  /** The update to show: by id, or by offset (a contract's events know only their offset). */
  updateRef: UpdateRef;
  selectedNodeId: number | undefined;
  onSelectNode: (nodeId: number | undefined) => void;
  /**
   * Opened by offset, the update's id is now known: the page can put it in the URL (the tree is
   * then cached under the id too).
   */
  onResolveOffset?: (updateId: string) => void;
  links: TransactionLinks;
  /** Outline or graph, on screens too narrow for both (the page keeps it in the URL). */
  pane?: TransactionPane | undefined;
  onPaneChange?: ((pane: TransactionPane) => void) | undefined;
};

/**
 * A past transaction, looked up by id or offset for the caller's parties, in the transaction
 * view; or, for a user who reads no party, why there is nothing to show (a deep link followed by
 * such a user would otherwise meet the participant's refusal of an empty filter).
 */
export function TransactionViewer(props: TransactionViewerProps) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return <NoReadScopeState title="You may not read any party’s transactions" />;
  }
  return <TransactionViewerOf {...props} scope={scope} />;
}

function TransactionViewerOf({
  updateRef,
  selectedNodeId,
  onSelectNode,
  onResolveOffset,
  links,
  pane,
  onPaneChange,
  scope,
}: TransactionViewerProps & { scope: ReadScope }) {
  const queryClient = useQueryClient();
  const { data: tree } = useSuspenseQuery(updateQueries.tree(updateRef, scope));
  const isByOffset = 'offset' in updateRef;
  useEffect(() => {
    if (!isByOffset) return;
    queryClient.setQueryData(updateQueries.tree({ updateId: tree.updateId }, scope).queryKey, tree);
    onResolveOffset?.(tree.updateId);
  }, [isByOffset, tree, scope, queryClient, onResolveOffset]);
  return (
    <Stack gap="md">
      <TransactionHeader tree={tree} />
      <TransactionView
        tree={tree}
        selectedNodeId={selectedNodeId}
        onSelectNode={onSelectNode}
        links={links}
        pane={pane}
        onPaneChange={onPaneChange}
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
  if (tree.effectiveAt) {
    items.push({ label: 'Effective at', value: <RelativeTime value={tree.effectiveAt} /> });
  }
  if (tree.recordTime) {
    items.push({ label: 'Record time', value: <RelativeTime value={tree.recordTime} /> });
  }
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

import { Group, Text, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useId, type ReactNode } from 'react';
import { isEmptyScope, type ReadScope } from '@/api/updates';
import { type UpdateRef, updateViewQueries } from '@/api/update-views';
import { Identifier } from '@/components/identifier';
import { RelativeTime } from '@/components/relative-time';
import { formatTrafficCost } from '@/lib/text/format';
import { actingPartiesOf, type TransactionTree } from '@/lib/transaction-tree/model';
import type { TransactionLinks } from './transaction-links';
import { ComparedTransaction, CompareControl, type TransactionCompare } from './compare-control';
import { TopologyUpdateView } from './topology-update-view';
import { TransactionView, type TransactionPane } from './transaction-view';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import classes from './transaction-viewer.module.css';

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
  /** Over the whole window (the page keeps it in the URL). */
  isFullScreen?: boolean | undefined;
  onFullScreenChange?: ((isFullScreen: boolean) => void) | undefined;
  /**
   * Comparing with another participant of the console (the page keeps which in the URL); offered
   * when given and the console has more than one participant.
   */
  compare?: TransactionCompare | undefined;
};

/**
 * A past transaction, looked up by id or offset for the caller's parties, as the page's hero: a
 * compact header of its metadata over the transaction view, which fills the rest of the page's
 * height on wide screens (the page gives it a flex column to fill); or, for a user who reads no party, why there is nothing to show (a deep link followed by
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
  isFullScreen,
  onFullScreenChange,
  compare,
  scope,
}: TransactionViewerProps & { scope: ReadScope }) {
  const queryClient = useQueryClient();
  const { data: view } = useSuspenseQuery(updateViewQueries.view(updateRef, scope));
  const isByOffset = 'offset' in updateRef;
  useEffect(() => {
    if (!isByOffset) return;
    queryClient.setQueryData(
      updateViewQueries.view({ updateId: view.updateId }, scope).queryKey,
      view,
    );
    onResolveOffset?.(view.updateId);
  }, [isByOffset, view, scope, queryClient, onResolveOffset]);
  if (view.kind === 'topology') return <TopologyUpdateView summary={view.summary} />;
  const { tree } = view;
  return (
    <div className={classes.viewer}>
      <TransactionHeader tree={tree} />
      {compare && <CompareControl tree={tree} compare={compare} />}
      {compare?.with !== undefined ? (
        <ComparedTransaction tree={tree} compare={compare} />
      ) : (
        <TransactionView
          tree={tree}
          selectedNodeId={selectedNodeId}
          onSelectNode={onSelectNode}
          links={links}
          pane={pane}
          onPaneChange={onPaneChange}
          isFullScreen={isFullScreen}
          onFullScreenChange={onFullScreenChange}
          fill
        />
      )}
    </div>
  );
}

/** One labelled item of the header: a group named by its label, as PropertyList's are. */
function Meta({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className={classes.meta}>
      <Text id={id} span size="xs" c="dimmed">
        {label}
      </Text>
      <div className={classes.metaValue}>{children}</div>
    </div>
  );
}

/** Free text chosen by the submitter (command and workflow ids): cut short, whole on hover. */
function ClippedMeta({ label, value }: { label: string; value: string }) {
  return (
    <Meta label={label}>
      <Text span size="sm" className={classes.clip} title={value}>
        {value}
      </Text>
    </Meta>
  );
}

/** The metadata in a few wrapping lines rather than a property list, so the tree gets the page. */
function TransactionHeader({ tree }: { tree: TransactionTree }) {
  const acting = actingPartiesOf(tree);
  return (
    <header className={classes.header}>
      <Group gap="sm" wrap="wrap" align="baseline">
        <Title order={2} size="h4">
          Transaction at offset {tree.offset}
        </Title>
        {tree.order.length === 0 && (
          <Text size="sm" c="dimmed">
            No events visible to your parties
          </Text>
        )}
      </Group>
      <div className={classes.metaRow}>
        <Meta label="Update id">
          <Identifier value={tree.updateId} label="update id" />
        </Meta>
        <Meta label="Offset">
          <Text span size="sm">
            {tree.offset}
          </Text>
        </Meta>
        {tree.recordTime && (
          <Meta label="Record time">
            <RelativeTime value={tree.recordTime} />
          </Meta>
        )}
        {tree.effectiveAt && (
          <Meta label="Effective at">
            <RelativeTime value={tree.effectiveAt} />
          </Meta>
        )}
        {tree.commandId && <ClippedMeta label="Command id" value={tree.commandId} />}
        {tree.workflowId && <ClippedMeta label="Workflow id" value={tree.workflowId} />}
        {acting.length > 0 && (
          <Meta label="Acting parties">
            <Group gap="xs" wrap="wrap">
              {acting.map((party) => (
                <Identifier key={party} value={party} label={`party ${party}`} kind="party" />
              ))}
            </Group>
          </Meta>
        )}
        {tree.synchronizerId && (
          <Meta label="Synchronizer">
            <Identifier value={tree.synchronizerId} label="synchronizer id" />
          </Meta>
        )}
        {tree.paidTrafficCost !== undefined && (
          <Meta label="Traffic cost">
            <Text span size="sm" title="Paid by this participant for the confirmation request">
              {formatTrafficCost(tree.paidTrafficCost)}
            </Text>
          </Meta>
        )}
      </div>
    </header>
  );
}

import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { Composer } from '@/features/composer/composer';
import { TransactionView } from '@/features/transactions/transaction-view';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { paths } from '@/app/paths';

const composerLinks = {
  transaction: (updateId: string) => paths.transactions.to(updateId),
  uploadDar: paths.uploadDar.to,
  user: (userId: string, identityProviderId: string) => paths.user.to(userId, identityProviderId),
};
const transactionLinks = { node: paths.transactions.to };

function parseNode(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

// Contract and template ids are far shorter; a longer value in a link is not one.
const MAX_PREFILL_ID_LENGTH = 512;

/** `?exercise=<contract id>&template=<template id>` (paths.composer.to), when both are sane. */
function parseExercise(params: URLSearchParams) {
  const contractId = params.get('exercise')?.trim() ?? '';
  const templateId = params.get('template')?.trim() ?? '';
  const isSane = (id: string) => id !== '' && id.length <= MAX_PREFILL_ID_LENGTH;
  return isSane(contractId) && isSane(templateId) ? { contractId, templateId } : undefined;
}

/** An earlier submission's tree: its selection is its own, the URL's belongs to the newest. */
function EarlierTree({ tree }: { tree: TransactionTree }) {
  const [selectedNodeId, setSelectedNodeId] = useState<number>();
  return (
    <TransactionView
      tree={tree}
      selectedNodeId={selectedNodeId}
      onSelectNode={setSelectedNodeId}
      links={transactionLinks}
    />
  );
}

/** `fullscreen=1`: the newest result's transaction is shown over the whole window. */
const FULL_SCREEN_PARAM = 'fullscreen';

/**
 * The command composer; the selected node of the newest result's tree is `?node=` in the URL, and
 * whether that tree is shown full screen `?fullscreen=1`.
 */
export function ComposerPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedNodeId = parseNode(searchParams.get('node'));
  const isFullScreen = searchParams.get(FULL_SCREEN_PARAM) === '1';
  const exercise = parseExercise(searchParams);

  const setParam = useCallback(
    (name: string, value: string | undefined) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === undefined) next.delete(name);
          else next.set(name, value);
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  const selectNode = useCallback(
    (nodeId: number | undefined) => {
      setParam('node', nodeId === undefined ? undefined : String(nodeId));
    },
    [setParam],
  );
  const setFullScreen = useCallback(
    (next: boolean) => {
      setParam(FULL_SCREEN_PARAM, next ? '1' : undefined);
    },
    [setParam],
  );

  const renderTree = useCallback(
    (tree: TransactionTree, isCurrent: boolean) =>
      isCurrent ? (
        <TransactionView
          tree={tree}
          selectedNodeId={selectedNodeId}
          onSelectNode={selectNode}
          links={transactionLinks}
          isFullScreen={isFullScreen}
          onFullScreenChange={setFullScreen}
        />
      ) : (
        <EarlierTree tree={tree} />
      ),
    [selectedNodeId, selectNode, isFullScreen, setFullScreen],
  );

  return (
    <>
      <PageHeader
        title="Command composer"
        description="Submit commands as your parties and explore the transaction they make."
      />
      <QueryBoundary fallback={<SectionSkeleton lines={10} />}>
        <Composer
          // Another contract's "Exercise…" link opens a composer for it.
          key={exercise ? `${exercise.contractId} ${exercise.templateId}` : ''}
          {...(exercise ? { exercise } : {})}
          links={composerLinks}
          renderTree={renderTree}
          onResult={() => {
            selectNode(undefined);
          }}
        />
      </QueryBoundary>
    </>
  );
}

import { Stack } from '@mantine/core';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { OpenUpdateSection } from '@/features/transactions/open-update-section';
import { RecentUpdates } from '@/features/transactions/recent-updates';
import { TransactionViewer } from '@/features/transactions/transaction-viewer';
import { paths } from '@/app/paths';

const transactionLinks = { node: paths.transactions.to };
const recentLinks = { update: (updateId: string) => paths.transactions.to(updateId) };

const wholeNumber = (value: string | null) =>
  value !== null && /^\d+$/.test(value) ? Number(value) : undefined;

/**
 * `?update=<id>&node=<n>` opens a transaction with a node selected; `?offset=<o>&node=<n>` the one
 * at that offset (a contract's events link so), replaced by its `update` link once found; without
 * either, the recent list.
 */
export function TransactionsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const updateId = searchParams.get('update') ?? undefined;
  const offset = updateId ? undefined : wholeNumber(searchParams.get('offset'));
  const selectedNodeId = wholeNumber(searchParams.get('node'));
  const updateRef = updateId ? { updateId } : offset !== undefined ? { offset } : undefined;

  const handleResolveOffset = useCallback(
    (resolvedId: string) => {
      const next = paths.transactions.to(resolvedId, selectedNodeId).split('?')[1];
      setSearchParams(new URLSearchParams(next), { replace: true });
    },
    [selectedNodeId, setSearchParams],
  );

  const handleSelectNode = useCallback(
    (nodeId: number | undefined) => {
      if (!updateId) return;
      const next = new URLSearchParams(paths.transactions.to(updateId, nodeId).split('?')[1]);
      // Selecting is not navigating: Back leaves the transaction rather than stepping through nodes.
      setSearchParams(next, { replace: true });
    },
    [updateId, setSearchParams],
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Transactions"
        description="Open a transaction by update id or offset and explore its tree."
      />
      <SectionCard title="Open an update">
        <QueryBoundary fallback={<SectionSkeleton lines={2} />}>
          <OpenUpdateSection
            onOpen={(id) => {
              void navigate(paths.transactions.to(id));
            }}
          />
        </QueryBoundary>
      </SectionCard>
      {updateRef ? (
        <QueryBoundary fallback={<SectionSkeleton lines={10} />}>
          <TransactionViewer
            key={updateId ?? `offset-${String(offset)}`}
            updateRef={updateRef}
            selectedNodeId={selectedNodeId}
            onSelectNode={handleSelectNode}
            onResolveOffset={handleResolveOffset}
            links={transactionLinks}
          />
        </QueryBoundary>
      ) : (
        <SectionCard title="Recent transactions">
          <QueryBoundary fallback={<SectionSkeleton lines={6} />}>
            <RecentUpdates links={recentLinks} />
          </QueryBoundary>
        </SectionCard>
      )}
    </Stack>
  );
}

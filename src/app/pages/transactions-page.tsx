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

/** `?update=<id>&node=<n>` opens a transaction with a node selected; without, the recent list. */
export function TransactionsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const updateId = searchParams.get('update') ?? undefined;
  const nodeParam = searchParams.get('node');
  const selectedNodeId =
    nodeParam !== null && /^\d+$/.test(nodeParam) ? Number(nodeParam) : undefined;

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
      {updateId ? (
        <QueryBoundary fallback={<SectionSkeleton lines={10} />}>
          <TransactionViewer
            key={updateId}
            updateId={updateId}
            selectedNodeId={selectedNodeId}
            onSelectNode={handleSelectNode}
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

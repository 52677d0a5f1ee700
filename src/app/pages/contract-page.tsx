import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { Identifier } from '@/components/identifier';
import { PageHeader } from '@/components/page-header';
import { ContractEvents } from '@/features/transactions/contract-events';
import { idFromRouteSegment, paths } from '@/app/paths';

const links = { nodeAtOffset: paths.transactions.atOffset };

export function ContractPage() {
  const contractId = idFromRouteSegment(useParams().contractId);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.transactions.to()} size="sm">
        Back to transactions
      </Anchor>
      <PageHeader
        title="Contract"
        description="The events of one contract: its create and archive."
      />
      <Identifier value={contractId} label="contract id" isShortened={false} />
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>
        <ContractEvents key={contractId} contractId={contractId} links={links} />
      </QueryBoundary>
    </Stack>
  );
}

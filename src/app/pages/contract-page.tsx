import { Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { Identifier } from '@/components/identifier';
import { PageHeader } from '@/components/page-header';
import { ContractEvents } from '@/features/transactions/contract-events';
import { idFromRouteSegment, paths } from '@/app/paths';
import { useCameFrom } from '@/app/layout/back-link-place';

const links = { nodeAtOffset: paths.transactions.atOffset };
const exerciseLink = (contractId: string, templateId: string) =>
  paths.composer.to({ exercise: { contractId, templateId } });

export function ContractPage() {
  const contractId = idFromRouteSegment(useParams().contractId);
  // A contract is opened from Live, Transactions, Active contracts, a party…: back goes there.
  // Opened from a link or a reload, its own list: the active contracts.
  const back = useCameFrom({ to: paths.contracts.to(), label: 'Active contracts' });
  return (
    <Stack gap="md">
      <PageHeader
        title="Contract"
        description="The events of one contract: its create and archive."
        back={back}
      />
      <Identifier value={contractId} label="contract id" isShortened={false} />
      <QueryBoundary
        fallback={<SectionSkeleton lines={8} />}
        notFound={{
          what: 'contract',
          id: contractId,
          detail:
            'No contract with this id is visible to you: it may not exist, or belong only to parties you cannot read as.',
          back,
        }}
      >
        <ContractEvents
          key={contractId}
          contractId={contractId}
          links={links}
          exerciseLink={exerciseLink}
        />
      </QueryBoundary>
    </Stack>
  );
}

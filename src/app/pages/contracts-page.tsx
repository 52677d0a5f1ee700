import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { ActiveContracts, type ActiveContractsLinks } from '@/features/contracts/active-contracts';
import { readContractsView, type ContractsView } from '@/features/contracts/contracts-view';
import { paths } from '@/app/paths';

const links: ActiveContractsLinks = {
  contract: paths.contract.to,
  exercise: (contractId, templateId) => paths.composer.to({ exercise: { contractId, templateId } }),
};

/** The active contracts; the view (parties, offset, template or interface, search) is the URL's. */
export function ContractsPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const view = useMemo(() => readContractsView(searchParams), [searchParams]);
  const changeView = (next: ContractsView) => {
    void navigate(paths.contracts.to(next), { replace: true });
  };
  return (
    <Stack gap="lg">
      <PageHeader
        title="Active contracts"
        description="The contracts that parties you can read as hold, at the ledger end or at an offset."
      />
      <QueryBoundary fallback={<SectionSkeleton lines={10} />}>
        <ActiveContracts view={view} onViewChange={changeView} links={links} />
      </QueryBoundary>
    </Stack>
  );
}

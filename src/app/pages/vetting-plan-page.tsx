import type { QueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { packageQueries } from '@/api/packages';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { VettingPlanner, type VettingPlanLinks } from '@/features/packages/vetting-plan';
import { paths } from '@/app/paths';

const links: VettingPlanLinks = {
  plan: paths.vettingPlan.to,
  package: paths.package.to,
  contracts: (templateId) => paths.contracts.to({ template: templateId }),
};

/** Starts loading what the planner reads first; does not wait. */
export function vettingPlanPageLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, packageQueries.ids());
    void prefetch(queryClient, packageQueries.vetting());
    void prefetch(queryClient, synchronizerQueries.connected());
    return null;
  };
}

export function VettingPlanPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Plan a vetting change"
        description="Vet or unvet packages on a synchronizer: the participant dry-runs the change first, and you see what it would do before applying it."
        back={{ to: paths.packages.to(), label: 'packages' }}
      />
      <QueryBoundary>
        <VettingPlanner
          search={searchParams.toString()}
          onSearchChange={(search) => {
            setSearchParams(new URLSearchParams(search), { replace: true });
          }}
          links={links}
        />
      </QueryBoundary>
    </>
  );
}

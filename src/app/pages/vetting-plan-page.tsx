import { useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { VettingPlanner, type VettingPlanLinks } from '@/features/packages/vetting-plan';
import { paths } from '@/app/paths';

const links: VettingPlanLinks = {
  plan: paths.vettingPlan.to,
  package: paths.package.to,
  contracts: (templateId) => paths.contracts.to({ template: templateId }),
};

/** The planner reads first what the packages list does: the caller, ids, vetting, synchronizers. */
export { packagesPageLoader as vettingPlanPageLoader } from './packages-page';

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

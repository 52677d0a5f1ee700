import type { QueryClient } from '@tanstack/react-query';
import { useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { packageQueries } from '@/api/packages';
import { vettingQueries } from '@/api/package-vetting';
import { packageUsageQueries, templateNamesOf } from '@/api/package-usage';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { readScopeOf } from '@/api/updates';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { VettingPlanner, type VettingPlanLinks } from '@/features/packages/vetting-plan';
import { plannedSynchronizer, readPlanSearch } from '@/features/packages/vetting-plan-model';
import { paths } from '@/app/paths';
import { packagesPageLoader } from './packages-page';

const links: VettingPlanLinks = {
  plan: paths.vettingPlan.to,
  package: paths.package.to,
  contracts: (templateId) => paths.contracts.to({ template: templateId }),
};

/**
 * What the packages list reads (the caller, ids, vetting, synchronizers), and the verdict's own
 * chain started at once rather than after the page has rendered: the dry run, and each planned
 * package's archive, then its active contracts counted. That chain is most of the wait for a
 * verdict; the planner's queries take over whatever is in flight.
 */
export function vettingPlanPageLoader(queryClient: QueryClient) {
  const readLists = packagesPageLoader(queryClient);
  return ({ request }: LoaderFunctionArgs) => {
    readLists();
    const { plan } = readPlanSearch(new URL(request.url).searchParams);
    if (plan.changes.length === 0) return null;
    void prefetch(queryClient, synchronizerQueries.connected()).then((connected) => {
      const synchronizerId = plannedSynchronizer(plan.synchronizerId, connected ?? []);
      if (synchronizerId) {
        void prefetch(queryClient, vettingQueries.vettingDryRun({ ...plan, synchronizerId }));
      }
    });
    const caller = prefetch(queryClient, sessionQueries.caller());
    for (const { packageId } of plan.changes) {
      const contents = prefetch(queryClient, packageQueries.contents(packageId));
      void Promise.all([caller, contents]).then(([who, decoded]) => {
        if (!who || !decoded) return;
        const templates = templateNamesOf(decoded);
        const scope = readScopeOf(who);
        void prefetch(queryClient, packageUsageQueries.contracts({ packageId, templates, scope }));
      });
    }
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

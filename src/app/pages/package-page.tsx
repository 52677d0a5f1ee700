import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams, type LoaderFunctionArgs } from 'react-router';
import { packageQueries } from '@/api/packages';
import { vettingQueries } from '@/api/package-vetting';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PackageDetail } from '@/features/packages/package-detail';
import { whenIdle } from '@/lib/scheduling/when-idle';
import { idFromRouteSegment, paths } from '@/app/paths';

/** Starts loading the package (archive and its decoding), its status and vetting; does not wait. */
export function packagePageLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const packageId = idFromRouteSegment(params.packageId);
    void prefetch(queryClient, packageQueries.contents(packageId));
    void prefetch(queryClient, packageQueries.status(packageId));
    void prefetch(queryClient, vettingQueries.vetting());
    void prefetch(queryClient, synchronizerQueries.connected());
    void prefetch(queryClient, sessionQueries.caller());
    return null;
  };
}

const loadVettingPlanPage = () => {
  void import('./vetting-plan-page').catch(() => undefined);
};

export function PackagePage() {
  const packageId = idFromRouteSegment(useParams().packageId);
  // The vetting planner is one click from this page ("Plan a change…"): its code, about twenty
  // chunks, is fetched while the user reads, so the click waits for the dry run alone. Not from
  // the loader: there it was fetched in the click's own work, before the page was shown.
  useEffect(() => whenIdle(loadVettingPlanPage), []);
  const back = { to: paths.packages.to(), label: 'packages' };
  return (
    <QueryBoundary notFound={{ what: 'package', id: packageId, back }}>
      {/* Another package starts with a fresh filter and folded modules. */}
      <PackageDetail
        key={packageId}
        packageId={packageId}
        packagesHref={back.to}
        vettingPlanHref={paths.vettingPlan.to}
      />
    </QueryBoundary>
  );
}

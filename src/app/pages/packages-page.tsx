import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { packageQueries } from '@/api/packages';
import { vettingQueries } from '@/api/package-vetting';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { PackagesHeaderActions } from '@/features/packages/packages-header-actions';
import { PackagesList } from '@/features/packages/packages-list';
import { ListPageLayout } from '@/app/layout/list-page-layout';
import { paths } from '@/app/paths';
import { whenIdle } from '@/lib/scheduling/when-idle';

const links = { package: paths.package.to };

/** Starts loading the package ids, the vetting list and the caller; does not wait. */
export function packagesPageLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, packageQueries.ids());
    void prefetch(queryClient, vettingQueries.vetting());
    void prefetch(queryClient, synchronizerQueries.connected());
    return null;
  };
}

const loadPackagePage = () => {
  void import('./package-page').catch(() => undefined);
};

export function PackagesPage() {
  // A package's page is where this list leads: its code (about twenty more chunks) loads once the
  // list is idle, so opening a package does not first fetch it, in the click's task.
  useEffect(() => whenIdle(loadPackagePage), []);
  return (
    <ListPageLayout
      title="Packages"
      description="The Daml packages stored on this participant, by the DAR they came with, and where they are vetted."
      actions={
        <PackagesHeaderActions
          uploadDarHref={paths.uploadDar.to()}
          vettingPlanHref={paths.vettingPlan.to()}
        />
      }
    >
      <PackagesList
        links={links}
        emptyAction={<PackagesHeaderActions uploadDarHref={paths.uploadDar.to()} />}
      />
    </ListPageLayout>
  );
}

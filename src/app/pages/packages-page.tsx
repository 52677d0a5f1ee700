import { Group } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { packageQueries } from '@/api/packages';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { PackagesHeaderActions } from '@/features/packages/packages-header-actions';
import { PackagesList } from '@/features/packages/packages-list';
import { paths } from '@/app/paths';

const links = { package: paths.package.to };

/** Starts loading the package ids, the vetting list and the caller; does not wait. */
export function packagesPageLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, sessionQueries.caller());
    void prefetch(queryClient, packageQueries.ids());
    void prefetch(queryClient, packageQueries.vetting());
    void prefetch(queryClient, synchronizerQueries.connected());
    return null;
  };
}

export function PackagesPage() {
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <PageHeader
          title="Packages"
          description="The Daml packages stored on this participant, by name and version, and where they are vetted."
        />
        <PackagesHeaderActions uploadDarHref={paths.uploadDar.to()} />
      </Group>
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>
        <PackagesList links={links} />
      </QueryBoundary>
    </>
  );
}

import { Group } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { packageQueries } from '@/api/packages';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { PackagesHeaderActions } from '@/features/packages/packages-header-actions';
import { PackagesList } from '@/features/packages/packages-list';
import { paths } from '@/app/paths';

// A failed prefetch is not lost: the query keeps its error and the list's boundary shows it.
const ignore = () => undefined;

const links = { package: paths.package.to };

/** Starts loading the package ids, the vetting list and the caller; does not wait. */
export function packagesPageLoader(queryClient: QueryClient) {
  return () => {
    void queryClient.query(sessionQueries.caller()).catch(ignore);
    void queryClient.query(packageQueries.ids()).catch(ignore);
    void queryClient.query(packageQueries.vetting()).catch(ignore);
    void queryClient.query(synchronizerQueries.connected()).catch(ignore);
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

import { Anchor } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { Link, useParams, type LoaderFunctionArgs } from 'react-router';
import { packageQueries } from '@/api/packages';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { PackageDetail } from '@/features/packages/package-detail';
import { idFromRouteSegment, paths } from '@/app/paths';

// A failed prefetch is not lost: the query keeps its error and the section shows it.
const ignore = () => undefined;

/** Starts loading the package (archive and its decoding), its status and vetting; does not wait. */
export function packagePageLoader(queryClient: QueryClient) {
  return ({ params }: LoaderFunctionArgs) => {
    const packageId = idFromRouteSegment(params.packageId);
    void queryClient.query(packageQueries.contents(packageId)).catch(ignore);
    void queryClient.query(packageQueries.status(packageId)).catch(ignore);
    void queryClient.query(packageQueries.vetting()).catch(ignore);
    void queryClient.query(synchronizerQueries.connected()).catch(ignore);
    void queryClient.query(sessionQueries.caller()).catch(ignore);
    return null;
  };
}

export function PackagePage() {
  const packageId = idFromRouteSegment(useParams().packageId);
  return (
    <>
      <Anchor component={Link} to={paths.packages.to()} size="sm">
        Back to packages
      </Anchor>
      {/* Another package starts with a fresh filter and folded modules. */}
      <PackageDetail key={packageId} packageId={packageId} />
    </>
  );
}

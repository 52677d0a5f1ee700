import { useQueries } from '@tanstack/react-query';
import { packageQueries } from '@/api/packages';
import { packageUsageQueries, templateNamesOf, type PackageUsage } from '@/api/package-usage';
import type { ReadScope } from '@/api/updates';

export type UsageResult = {
  data: PackageUsage | undefined;
  error: unknown;
  templates: readonly string[] | undefined;
};

/** Each package's templates (from its archive), then its active contracts counted. */
export function usePackageUsage(
  packageIds: readonly string[],
  scope: ReadScope,
): Map<string, UsageResult> {
  const contents = useQueries({
    queries: packageIds.map((packageId) => packageQueries.contents(packageId)),
  });
  const templatesOf = packageIds.map((_, i) => {
    const data = contents[i]?.data;
    return data && templateNamesOf(data);
  });
  const counts = useQueries({
    queries: packageIds.map((packageId, i) => ({
      ...packageUsageQueries.contracts({ packageId, templates: templatesOf[i] ?? [], scope }),
      enabled: templatesOf[i] !== undefined,
    })),
  });
  return new Map(
    packageIds.map((packageId, i) => [
      packageId,
      {
        data: counts[i]?.data,
        error: counts[i]?.error ?? contents[i]?.error,
        templates: templatesOf[i],
      },
    ]),
  );
}

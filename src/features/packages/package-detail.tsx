import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { formatLfVersion } from '@/api/daml-lf-decoder';
import { packageQueries } from '@/api/packages';
import { type VettedPackages, vettingQueries } from '@/api/package-vetting';
import { NotFoundState } from '@/components/feedback/page-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { Identifier } from '@/components/identifier';
import { PageHeader } from '@/components/page-header';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { shortenIdentifier } from '@/lib/text/format';
import { packageErrorText } from './package-error-text';
import { PackageContentsSection } from './package-contents';
import { PackageVetting } from './package-vetting';

export type PackageDetailProps = {
  packageId: string;
  /** The packages list, where the header's back link and a not-found page lead. */
  packagesHref: string;
  /** The vetting change planner with a plan (its URL query). */
  vettingPlanHref?: (search: string) => string;
};

/** Name and version as the vetting list gives them, when it knows the package. */
function vettedHeader(vetting: readonly VettedPackages[] | undefined, packageId: string) {
  for (const entry of vetting ?? []) {
    const pkg = entry.packages.find((candidate) => candidate.packageId === packageId);
    if (pkg?.packageName) return { name: pkg.packageName, version: pkg.packageVersion ?? '' };
  }
  return undefined;
}

/**
 * A package: what it is (from the vetting list and its decoded archive), where it is vetted, with
 * the way to change that, and what it contains. Each part loads and fails on its own, so a package
 * the browser cannot decode still shows its vetting. A package the participant does not know is
 * one "not found" state, without the parts: there is nothing to vet or read.
 */
export function PackageDetail({ packageId, packagesHref, vettingPlanHref }: PackageDetailProps) {
  const { data: status } = useSuspenseQuery(packageQueries.status(packageId));
  const back = { to: packagesHref, label: 'packages' };
  // The participant answers UNSPECIFIED for an id it has never stored (there is no 404 here).
  if (status !== 'PACKAGE_STATUS_REGISTERED') {
    return (
      <Stack gap="lg">
        <PageHeader title={`Package ${shortenIdentifier(packageId)}`} back={back} />
        <NotFoundState what="package" id={packageId} back={back} />
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <PackageHeading packageId={packageId} back={back} />
      <SectionCard title="Details">
        <QueryBoundary>
          <PackageDetails packageId={packageId} />
        </QueryBoundary>
      </SectionCard>
      <SectionCard title="Vetting">
        <QueryBoundary>
          <PackageVetting packageId={packageId} {...(vettingPlanHref ? { vettingPlanHref } : {})} />
        </QueryBoundary>
      </SectionCard>
      <PackageContentsSection packageId={packageId} />
    </Stack>
  );
}

function usePackageHeader(packageId: string) {
  const { data: vetting } = useQuery(vettingQueries.vetting());
  const contents = useQuery(packageQueries.contents(packageId));
  const header =
    vettedHeader(vetting, packageId) ??
    (contents.data ? { name: contents.data.name, version: contents.data.version } : undefined);
  return { header, contents };
}

function PackageHeading({
  packageId,
  back,
}: {
  packageId: string;
  back: { to: string; label: string };
}) {
  const { header } = usePackageHeader(packageId);
  // Until the name is known (or if it never is), the page is named by its shortened id.
  return (
    <PageHeader
      title={
        header ? `${header.name} ${header.version}` : `Package ${shortenIdentifier(packageId)}`
      }
      description="A Daml package stored on this participant."
      back={back}
    />
  );
}

const STATUS_TEXT: Record<string, string> = {
  PACKAGE_STATUS_REGISTERED: 'Registered on this participant',
  PACKAGE_STATUS_UNSPECIFIED: 'Not known to this participant',
};

function PackageDetails({ packageId }: { packageId: string }) {
  const { data: status } = useSuspenseQuery(packageQueries.status(packageId));
  const { header, contents } = usePackageHeader(packageId);
  const decoded = contents.data;
  // What an archive-derived field shows until the archive is decoded, or if it cannot be.
  const notYet = contents.isError ? (
    <Text size="sm" c="dimmed">
      Not known: {packageErrorText(contents.error)}
    </Text>
  ) : (
    <Loader size="xs" aria-label="Reading the archive" />
  );

  return (
    <PropertyList
      items={[
        {
          label: 'Package id',
          value: <Identifier value={packageId} label="package id" isShortened={false} />,
        },
        { label: 'Name', value: header ? <Text size="sm">{header.name}</Text> : notYet },
        { label: 'Version', value: header ? <Text size="sm">{header.version}</Text> : notYet },
        {
          label: 'Daml-LF version',
          value: decoded ? <Text size="sm">{formatLfVersion(decoded.lfVersion)}</Text> : notYet,
        },
        {
          label: 'Upgrades',
          value: !decoded ? (
            notYet
          ) : decoded.upgradedPackageId ? (
            <Identifier
              value={decoded.upgradedPackageId}
              label="upgraded package id"
              kind="package"
            />
          ) : (
            <Text size="sm" c="dimmed">
              No earlier version declared
            </Text>
          ),
        },
        {
          label: 'Status',
          value: (
            <Group gap="xs">
              <Badge
                color={status === 'PACKAGE_STATUS_REGISTERED' ? 'teal' : 'gray'}
                variant="light"
                tt="none"
              >
                {STATUS_TEXT[status] ?? status}
              </Badge>
            </Group>
          ),
        },
      ]}
    />
  );
}

import { Anchor, Badge, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueries, useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { packageQueries } from '@/api/packages';
import { EmptyState } from '@/components/feedback/empty-state';
import { Identifier } from '@/components/identifier';
import {
  filterPackageRows,
  groupPackages,
  idsWithoutName,
  toPackageRows,
  type PackageHeader,
  type PackageRow,
} from './package-groups';
import { packageErrorText } from './package-error-text';
import { useSynchronizerLabel } from './use-synchronizer-label';

export type PackagesListLinks = {
  /** The detail page of a package. */
  package: (packageId: string) => string;
};

export type PackagesListProps = { links: PackagesListLinks };

const count = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

/**
 * Every package the participant stores, grouped by name with its versions, newest first. Names and
 * versions come from the vetting list; for packages it does not name (not vetted anywhere) the Web
 * Worker reads just the name and version from their archives, a few archives at a time.
 */
export function PackagesList({ links }: PackagesListProps) {
  const { data: packageIds } = useSuspenseQuery(packageQueries.ids());
  const { data: vetting } = useSuspenseQuery(packageQueries.vetting());
  const synchronizerLabel = useSynchronizerLabel();
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter);

  const unnamed = useMemo(() => idsWithoutName(packageIds, vetting), [packageIds, vetting]);
  const decodes = useQueries({
    queries: unnamed.map((packageId) => ({
      ...packageQueries.nameVersion(packageId),
      select: ({ name, version }: { name: string; version: string }): PackageHeader => ({
        name,
        version,
      }),
    })),
  });
  const decoded = new Map<string, PackageHeader>();
  const failures = new Map<string, unknown>();
  let pending = 0;
  decodes.forEach((result, index) => {
    const packageId = unnamed[index];
    if (packageId === undefined) return;
    if (result.data) decoded.set(packageId, result.data);
    else if (result.isError) failures.set(packageId, result.error);
    else pending++;
  });

  const rows = toPackageRows(packageIds, vetting, decoded);
  const shown = filterPackageRows(rows, deferredFilter);
  const groups = groupPackages(shown);
  const names = new Set(rows.map((row) => row.name).filter((name) => name !== undefined));
  const vettedCount = rows.filter((row) => row.vettedOn.length > 0).length;

  if (packageIds.length === 0) {
    return (
      <EmptyState
        title="No packages yet"
        description="This participant stores no Daml packages. Upload a DAR to add some."
      />
    );
  }

  return (
    <Stack gap="md">
      <TextInput
        label="Filter packages"
        description="By name, version or package id"
        placeholder="e.g. finance or 1220ab"
        value={filter}
        onChange={(event) => {
          setFilter(event.currentTarget.value);
        }}
        w={320}
      />
      <Text size="sm" role="status">
        {count(rows.length, 'package', 'packages')} under {count(names.size, 'name', 'names')},{' '}
        {vettedCount} vetted
        {pending > 0 ? ` · reading ${count(pending, 'archive', 'archives')} for names…` : ''}
        {deferredFilter.trim() ? ` · ${count(shown.length, 'match', 'matches')}` : ''}
      </Text>
      {groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          No package matches “{deferredFilter.trim()}”.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Packages" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
                <Table.Th scope="col">Package id</Table.Th>
                <Table.Th scope="col">Vetting</Table.Th>
              </Table.Tr>
            </Table.Thead>
            {groups.map((group) => (
              <Table.Tbody key={group.name ?? '\u0000unknown'}>
                {group.rows.map((row, index) => (
                  <Table.Tr key={row.packageId}>
                    {index === 0 && (
                      <Table.Th
                        scope="rowgroup"
                        rowSpan={group.rows.length}
                        style={{ verticalAlign: 'top' }}
                      >
                        <GroupName
                          name={group.name}
                          versions={group.rows.length}
                          href={links.package(row.packageId)}
                        />
                      </Table.Th>
                    )}
                    <Table.Td>
                      <VersionCell
                        row={row}
                        isReading={row.source === 'unknown' && !failures.has(row.packageId)}
                        failure={failures.get(row.packageId)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Identifier
                        value={row.packageId}
                        label={`package id ${row.packageId}`}
                        kind="package"
                      />
                    </Table.Td>
                    <Table.Td>
                      <VettingCell row={row} synchronizerLabel={synchronizerLabel} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            ))}
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function GroupName({
  name,
  versions,
  href,
}: {
  name: string | undefined;
  versions: number;
  href: string;
}) {
  if (name === undefined) {
    return (
      <Text size="sm" c="dimmed" fw={400}>
        Name not known
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {/* The newest version's page. */}
      <Anchor component={Link} to={href} size="sm" fw={600}>
        {name}
      </Anchor>
      {versions > 1 && (
        <Text size="xs" c="dimmed" fw={400}>
          {versions} versions
        </Text>
      )}
    </Stack>
  );
}

function VersionCell({
  row,
  isReading,
  failure,
}: {
  row: PackageRow;
  isReading: boolean;
  failure: unknown;
}) {
  if (row.version !== undefined) return <Text size="sm">{row.version}</Text>;
  if (isReading) {
    return (
      <Group gap={6} wrap="nowrap">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Reading archive…
        </Text>
      </Group>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      Unknown: {packageErrorText(failure)}
    </Text>
  );
}

function VettingCell({
  row,
  synchronizerLabel,
}: {
  row: PackageRow;
  synchronizerLabel: (synchronizerId: string) => string;
}) {
  if (row.vettedOn.length === 0) {
    return (
      <Badge color="gray" variant="light" tt="none">
        Not vetted
      </Badge>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color="teal" variant="light" tt="none">
        Vetted
      </Badge>
      <Text size="sm" c="dimmed">
        on {row.vettedOn.map(synchronizerLabel).join(', ')}
      </Text>
    </Group>
  );
}

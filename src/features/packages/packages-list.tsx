import {
  Anchor,
  Badge,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useQueries, useSuspenseQuery } from '@tanstack/react-query';
import { IconCornerDownRight } from '@tabler/icons-react';
import { memo, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { packageQueries } from '@/api/packages';
import { vettingQueries } from '@/api/package-vetting';
import { EmptyState } from '@/components/feedback/empty-state';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { Identifier } from '@/components/identifier';
import { IsolatedText } from '@/components/isolated-text';
import {
  filterGrouping,
  filterPackageRows,
  groupByDar,
  idsWithoutName,
  isStandardLibrary,
  toPackageRows,
  type DarGroup,
  type PackageGrouping,
  type PackageHeader,
  type PackageRow,
} from './package-groups';
import { packageErrorText } from './package-error-text';
import { SHOW_STANDARD_LIBRARY_PARAM, UPLOADED_PARAM } from './packages-list-search';
import { useSynchronizerLabel } from '@/hooks/use-synchronizer-label';
import tableClasses from '@/components/data-table/data-table.module.css';

export type PackagesListLinks = {
  /** The detail page of a package. */
  package: (packageId: string) => string;
};

export type PackagesListProps = {
  links: PackagesListLinks;
  /** What an empty list offers: the upload, for those who may. */
  emptyAction?: ReactNode;
};

const count = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

/**
 * Every package the participant stores, grouped by the DAR it came with: each DAR's main package
 * (its versions, newest first) and under it the packages it depends on. The standard library,
 * which every DAR brings, is hidden unless asked for (`?stdlib=shown`). Names and versions come
 * from the vetting list; for packages it does not name (not vetted anywhere) the Web Worker reads
 * just the name and version from their archives, and for every other package its dependencies,
 * a few archives at a time.
 */
export function PackagesList({ links, emptyAction }: PackagesListProps) {
  const { data: packageIds } = useSuspenseQuery(packageQueries.ids());
  const { data: vetting } = useSuspenseQuery(vettingQueries.vetting());
  const synchronizerLabel = useSynchronizerLabel();
  const [searchParams, setSearchParams] = useSearchParams();
  const isStandardLibraryShown = searchParams.get(SHOW_STANDARD_LIBRARY_PARAM) === 'shown';
  const uploaded = searchParams.get(UPLOADED_PARAM) ?? undefined;
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

  // Which DAR a package came with is read from the dependencies of the packages that are not
  // the standard library's (those are listed apart, so theirs are never needed).
  const own = rows
    .filter((row) => row.name !== undefined && !isStandardLibrary(row.name))
    .map((row) => row.packageId);
  const dependencyReads = useQueries({ queries: own.map(packageQueries.dependencies) });
  const dependencies = new Map<string, string[]>();
  dependencyReads.forEach((result, index) => {
    const packageId = own[index];
    if (packageId === undefined) return;
    if (result.data) dependencies.set(packageId, result.data);
    else if (!result.isError) pending++;
  });

  const grouping = groupByDar(
    rows,
    dependencies,
    uploaded === undefined ? {} : { firstMainId: uploaded },
  );
  const standardLibraryCount = grouping.standardLibrary.length;
  const listed = isStandardLibraryShown ? grouping : { ...grouping, standardLibrary: [] };
  const shown = filterGrouping(listed, deferredFilter);
  const needle = deferredFilter.trim();
  const matchCount = needle
    ? filterPackageRows(
        [
          ...listed.dars.flatMap((dar) => [...dar.mains, ...dar.dependencies.map((d) => d.row)]),
          ...listed.standardLibrary,
          ...listed.unnamed,
        ],
        needle,
      ).length
    : 0;
  const hiddenMatches =
    needle && !isStandardLibraryShown
      ? filterPackageRows(grouping.standardLibrary, needle).length
      : 0;
  const vettedCount = rows.filter((row) => row.vettedOn.length > 0).length;
  const isEmpty =
    shown.dars.length === 0 && shown.standardLibrary.length === 0 && shown.unnamed.length === 0;
  // Each archive read is a query update, which React renders at once, not in slices. The table
  // takes the grouping deferred: the rows a read moves under their DAR are drawn by a background
  // render that yields to the page (and to a click on a package), and reads arriving together are
  // drawn once. Other updates leave the table alone (memo).
  const table = useDeferredValue({ shown, failures });

  const setStandardLibraryShown = (isShown: boolean) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (isShown) next.set(SHOW_STANDARD_LIBRARY_PARAM, 'shown');
        else next.delete(SHOW_STANDARD_LIBRARY_PARAM);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  if (packageIds.length === 0) {
    return (
      <EmptyState
        title="No packages yet"
        description="This participant stores no Daml packages. Upload a DAR to add some."
        action={emptyAction}
      />
    );
  }

  return (
    <Stack gap="md">
      <Group gap="lg" align="flex-end" wrap="wrap">
        <TextInput
          label="Filter packages"
          description="By name, version or package id"
          placeholder="e.g. finance or 1220ab"
          value={filter}
          onChange={(event) => {
            setFilter(event.currentTarget.value);
          }}
          w="100%"
          maw={FIELD_WIDTH.medium}
        />
        {standardLibraryCount > 0 && (
          <Switch
            label={`Show standard library (${String(standardLibraryCount)})`}
            checked={isStandardLibraryShown}
            onChange={(event) => {
              setStandardLibraryShown(event.currentTarget.checked);
            }}
            mb={6}
          />
        )}
      </Group>
      <Text size="sm" role="status">
        {count(rows.length, 'package', 'packages')} from{' '}
        {count(grouping.dars.length, 'DAR', 'DARs')}
        {standardLibraryCount > 0
          ? `, ${String(standardLibraryCount)} of them the standard library${isStandardLibraryShown ? '' : ' (hidden)'}`
          : ''}
        , {vettedCount} vetted
        {pending > 0 ? ` · reading ${count(pending, 'archive', 'archives')}…` : ''}
        {needle ? ` · ${count(matchCount, 'match', 'matches')}` : ''}
        {hiddenMatches > 0 ? ` (${String(hiddenMatches)} more in the hidden standard library)` : ''}
      </Text>
      {isEmpty ? (
        <Text size="sm" c="dimmed">
          No package matches “{needle}”.
        </Text>
      ) : (
        <PackagesTable
          shown={table.shown}
          uploaded={uploaded}
          links={links}
          synchronizerLabel={synchronizerLabel}
          failures={table.failures}
        />
      )}
    </Stack>
  );
}

type RowProps = {
  links: PackagesListLinks;
  synchronizerLabel: (synchronizerId: string) => string;
  /** Why an archive could not be read, by package id. */
  failures: ReadonlyMap<string, unknown>;
};

type PackagesTableProps = RowProps & { shown: PackageGrouping; uploaded: string | undefined };

const PackagesTable = memo(function PackagesTable({
  shown,
  uploaded,
  ...rowProps
}: PackagesTableProps) {
  return (
    // On phones each package is a card (data-table.module.css); wider, the table scrolls.
    // On phones each package is a card (data-table.module.css); wider, the table scrolls.
    <div className={tableClasses.wideScroll}>
      <Table aria-label="Packages" verticalSpacing="xs" className={tableClasses.table} role="table">
        <Table.Thead role="rowgroup">
          <Table.Tr role="row">
            <Table.Th scope="col" role="columnheader">
              Name
            </Table.Th>
            <Table.Th scope="col" role="columnheader">
              Version
            </Table.Th>
            <Table.Th scope="col" role="columnheader">
              Package id
            </Table.Th>
            <Table.Th scope="col" role="columnheader">
              Vetting
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        {shown.dars.map((dar) => (
          <DarRows
            key={dar.name}
            dar={dar}
            isUploaded={dar.mains.some((main) => main.packageId === uploaded)}
            {...rowProps}
          />
        ))}
        {shown.standardLibrary.length > 0 && (
          <Table.Tbody aria-label="Standard library" role="rowgroup">
            <SectionRow title="Standard library" />
            {shown.standardLibrary.map((row) => (
              <PackageRowView key={row.packageId} row={row} kind="library" {...rowProps} />
            ))}
          </Table.Tbody>
        )}
        {shown.unnamed.length > 0 && (
          <Table.Tbody aria-label="Name not known" role="rowgroup">
            <SectionRow title="Name not known" />
            {shown.unnamed.map((row) => (
              <PackageRowView key={row.packageId} row={row} kind="library" {...rowProps} />
            ))}
          </Table.Tbody>
        )}
      </Table>
    </div>
  );
});

/** One DAR: its main package's versions, then its dependencies, indented. */
function DarRows({
  dar,
  isUploaded,
  ...rowProps
}: RowProps & { dar: DarGroup; isUploaded: boolean }) {
  return (
    <Table.Tbody
      role="rowgroup"
      aria-label={`${dar.name}${dar.dependencies.length > 0 ? ' and its dependencies' : ''}`}
    >
      {dar.mains.map((row) => (
        <PackageRowView
          key={row.packageId}
          row={row}
          kind="main"
          isUploaded={isUploaded}
          {...rowProps}
        />
      ))}
      {dar.dependencies.map(({ row, alsoUsedBy }) => (
        <PackageRowView
          key={row.packageId}
          row={row}
          kind="dependency"
          alsoUsedBy={alsoUsedBy}
          {...rowProps}
        />
      ))}
    </Table.Tbody>
  );
}

/** A row that titles a part of the table that is not a DAR. */
function SectionRow({ title }: { title: string }) {
  return (
    <Table.Tr role="row">
      <Table.Td colSpan={4} pt="md" role="cell">
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {title}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

type PackageRowViewProps = RowProps & {
  row: PackageRow;
  kind: 'main' | 'dependency' | 'library';
  isUploaded?: boolean;
  alsoUsedBy?: readonly string[];
};

const sameItems = (a: readonly string[] = [], b: readonly string[] = []) =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/**
 * Every archive read re-renders the list with rows built anew, one read at a time: a row renders
 * again only when what it shows changed, or each read re-rendered every row in one long task.
 */
function isSameRowView(before: PackageRowViewProps, after: PackageRowViewProps): boolean {
  const [a, b] = [before.row, after.row];
  const id = b.packageId;
  return (
    a.packageId === id &&
    a.name === b.name &&
    a.version === b.version &&
    a.source === b.source &&
    sameItems(a.vettedOn, b.vettedOn) &&
    before.kind === after.kind &&
    before.isUploaded === after.isUploaded &&
    sameItems(before.alsoUsedBy, after.alsoUsedBy) &&
    before.links === after.links &&
    before.synchronizerLabel === after.synchronizerLabel &&
    before.failures.has(id) === after.failures.has(id) &&
    before.failures.get(id) === after.failures.get(id)
  );
}

const PackageRowView = memo(function PackageRowView({
  row,
  kind,
  isUploaded = false,
  alsoUsedBy = [],
  links,
  synchronizerLabel,
  failures,
}: PackageRowViewProps) {
  const name =
    row.name === undefined ? (
      <Text size="sm" c="dimmed">
        Name not known
      </Text>
    ) : (
      <Anchor
        component={Link}
        to={links.package(row.packageId)}
        size="sm"
        fw={kind === 'main' ? 600 : 400}
      >
        <IsolatedText isIdentifier>{row.name}</IsolatedText>
      </Anchor>
    );
  return (
    <Table.Tr role="row" className={tableClasses.row}>
      <Table.Th
        scope="row"
        role="rowheader"
        fw={400}
        // The DAR just uploaded: marked at its edge, so the row's colours stay readable.
        style={
          isUploaded ? { boxShadow: 'inset 3px 0 0 var(--mantine-color-teal-filled)' } : undefined
        }
      >
        {kind === 'dependency' ? (
          <Group gap={6} wrap="nowrap" pl="sm" align="flex-start">
            <IconCornerDownRight
              size={14}
              aria-hidden
              style={{ flexShrink: 0, marginTop: 4, color: 'var(--mantine-color-dimmed)' }}
            />
            <Stack gap={0}>
              {name}
              {alsoUsedBy.length > 0 && (
                <Text size="xs" c="dimmed">
                  <VisuallyHidden>, </VisuallyHidden>also used by{' '}
                  {alsoUsedBy.map((user, index) => (
                    <span key={user}>
                      {index > 0 ? ', ' : ''}
                      <IsolatedText isIdentifier>{user}</IsolatedText>
                    </span>
                  ))}
                </Text>
              )}
            </Stack>
          </Group>
        ) : (
          <Group gap="xs" wrap="wrap">
            {name}
            {isUploaded && (
              <Badge color="teal" variant="light" tt="none">
                Just uploaded
              </Badge>
            )}
          </Group>
        )}
      </Table.Th>
      <Table.Td role="cell" data-label="Version">
        <VersionCell
          row={row}
          isReading={row.source === 'unknown' && !failures.has(row.packageId)}
          failure={failures.get(row.packageId)}
        />
      </Table.Td>
      <Table.Td role="cell" data-label="Package id">
        <Identifier value={row.packageId} label={`package id ${row.packageId}`} kind="package" />
      </Table.Td>
      <Table.Td role="cell" data-label="Vetting">
        <VettingCell row={row} synchronizerLabel={synchronizerLabel} />
      </Table.Td>
    </Table.Tr>
  );
}, isSameRowView);

function VersionCell({
  row,
  isReading,
  failure,
}: {
  row: PackageRow;
  isReading: boolean;
  failure: unknown;
}) {
  if (row.version !== undefined)
    return (
      <Text size="sm">
        <IsolatedText isIdentifier>{row.version}</IsolatedText>
      </Text>
    );
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

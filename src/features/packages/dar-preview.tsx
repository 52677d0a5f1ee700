import { Alert, Badge, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, useMemo } from 'react';
import { formatLfVersion, type DarContents } from '@/api/daml-lf-decoder';
import { packageQueries } from '@/api/packages';
import { darQueries } from '@/api/dars';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { Identifier } from '@/components/identifier';
import { IsolatedText } from '@/components/isolated-text';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { describeError } from '@/lib/errors/api-error';
import { TableScroller } from '@/components/table-scroller';

export type DarPreviewProps = { file: File; selection: number };

const count = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

const NO_PACKAGES: DarContents['packages'] = [];

/** `package ids not verified: …` as a sentence. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * What a chosen DAR holds, read in the browser's Web Worker before anything is sent: its main
 * package, and every package with whether the participant already stores it.
 */
export function DarPreview({ file, selection }: DarPreviewProps) {
  const preview = useQuery(darQueries.darFile(file, selection));
  // Shown by a deferred render, which yields to the browser every few milliseconds: the
  // contents of a large DAR then never block the page for long (web-bench.ts measures it).
  const contents = useDeferredValue(preview.data);
  const problem = preview.isError ? describeError(preview.error) : undefined;
  return (
    <SectionCard title="In this DAR">
      {contents ? (
        <DarContentsView contents={contents} />
      ) : problem ? (
        // A warning is the decoder's: the DAR may still be fine for the participant.
        problem.severity === 'warning' ? (
          <Alert color="orange" variant="light" title={problem.title}>
            <Stack gap={4}>
              <Text size="sm">
                The browser could not read <IsolatedText isIdentifier>{file.name}</IsolatedText>:{' '}
                {problem.message}
              </Text>
              <Text size="sm">
                The participant checks a DAR its own way: validate or upload it to read its verdict.
              </Text>
            </Stack>
          </Alert>
        ) : (
          <ErrorAlert error={preview.error} />
        )
      ) : (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">
            Reading <IsolatedText isIdentifier>{file.name}</IsolatedText> in your browser…
          </Text>
        </Group>
      )}
    </SectionCard>
  );
}

function DarContentsView({ contents }: { contents: DarContents }) {
  // Not suspending: without the list, the preview still says what is in the DAR.
  const { data: storedIds } = useQuery(packageQueries.ids());
  const stored = useMemo(() => new Set(storedIds ?? []), [storedIds]);
  const { main, packages } = contents;
  // The table of every package comes in a render of its own, after the summary. A query's update
  // renders at once, not in slices, so the table takes the stored ids deferred too: their arrival
  // redraws its rows in a background render, and other updates leave the table alone (memo).
  const listed = useDeferredValue(packages, NO_PACKAGES);
  const isListed = listed === packages;
  const tableStoredIds = useDeferredValue(storedIds);
  const tableStored = useMemo(
    () => (tableStoredIds === undefined ? undefined : new Set(tableStoredIds)),
    [tableStoredIds],
  );
  const alreadyStored = packages.filter((pkg) => stored.has(pkg.packageId)).length;
  const templates = main.modules.flatMap((module) =>
    module.templates.map((template) => `${module.name}:${template.name}`),
  );

  return (
    <Stack gap="md">
      {contents.unverifiedReason !== undefined && (
        <Alert color="yellow" variant="light" title="Package ids not verified">
          <Text size="sm">
            {sentence(contents.unverifiedReason)} The participant checks every package id on upload.
          </Text>
        </Alert>
      )}
      <PropertyList
        items={[
          {
            label: 'Main package',
            value: (
              <Text size="sm">
                <IsolatedText isIdentifier>{main.name}</IsolatedText>{' '}
                <IsolatedText isIdentifier>{main.version}</IsolatedText>
              </Text>
            ),
          },
          {
            label: 'Package id',
            value: (
              <Identifier
                value={main.packageId}
                label="main package id"
                {...(stored.has(main.packageId) ? { kind: 'package' as const } : {})}
              />
            ),
          },
          {
            label: 'Daml-LF version',
            value: <Text size="sm">{formatLfVersion(main.lfVersion)}</Text>,
          },
          ...(contents.sdkVersion === undefined
            ? []
            : [{ label: 'SDK version', value: <Text size="sm">{contents.sdkVersion}</Text> }]),
          {
            label: 'Templates',
            value:
              templates.length === 0 ? (
                <Text size="sm" c="dimmed">
                  None in the main package
                </Text>
              ) : (
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  <IsolatedText isIdentifier>{templates.join(', ')}</IsolatedText>
                </Text>
              ),
          },
        ]}
      />
      <Text size="sm" role="status">
        {isListed
          ? `${count(packages.length, 'package', 'packages')} in this DAR${storedIds ? `, ${String(alreadyStored)} already on this participant` : ''}`
          : `Listing ${count(packages.length, 'package', 'packages')}…`}
      </Text>
      <DarPackagesTable packages={listed} mainId={main.packageId} stored={tableStored} />
    </Stack>
  );
}

type DarPackagesTableProps = {
  packages: DarContents['packages'];
  mainId: string;
  /** The ids the participant stores; undefined until known. */
  stored: ReadonlySet<string> | undefined;
};

const DarPackagesTable = memo(function DarPackagesTable({
  packages,
  mainId,
  stored,
}: DarPackagesTableProps) {
  return (
    <TableScroller label={'Packages in this DAR'} minWidth={640}>
      <Table aria-label="Packages in this DAR" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Version</Table.Th>
            <Table.Th scope="col">Daml-LF</Table.Th>
            <Table.Th scope="col">Package id</Table.Th>
            <Table.Th scope="col">On this participant</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {packages.map((pkg) => {
            const isStored = stored?.has(pkg.packageId) ?? false;
            return (
              <Table.Tr key={pkg.packageId}>
                <Table.Td>
                  <IsolatedText isIdentifier>{pkg.name}</IsolatedText>
                  {pkg.packageId === mainId ? ' (main)' : ''}
                </Table.Td>
                <Table.Td>
                  <IsolatedText isIdentifier>{pkg.version}</IsolatedText>
                </Table.Td>
                <Table.Td>{formatLfVersion(pkg.lfVersion)}</Table.Td>
                <Table.Td>
                  <Identifier
                    value={pkg.packageId}
                    label={`package id of ${pkg.name} ${pkg.version}`}
                    {...(isStored ? { kind: 'package' as const } : {})}
                  />
                </Table.Td>
                <Table.Td>
                  {stored === undefined ? (
                    ''
                  ) : isStored ? (
                    <Badge color="gray" variant="light" tt="none">
                      Already stored
                    </Badge>
                  ) : (
                    <Badge color="blue" variant="light" tt="none">
                      New
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScroller>
  );
});

import {
  Accordion,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import {
  formatType,
  recordFieldsOf,
  type Choice,
  type DamlType,
  type DataType,
  type Field,
  type Interface,
  type Module,
  type PackageContents,
  type Template,
} from '@/api/daml-lf-decoder';
import { packageQueries } from '@/api/packages';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { SectionCard } from '@/components/section-card';
import { describeError } from '@/lib/errors/api-error';
import { filterModules, moduleSummary } from './package-contents-filter';
import { packageErrorText } from './package-error-text';
import { TableScroller } from '@/components/table-scroller';
import { buttonBusy } from '@/components/form/button-busy';

const count = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

/**
 * What the package declares, decoded from its archive in the Web Worker: modules, each expandable
 * to its templates (fields, key, choices), interfaces and data types.
 */
export function PackageContentsSection({ packageId }: { packageId: string }) {
  // Not a suspense query: a package the browser cannot decode gets the decoder's own explanation,
  // not a generic error, and the rest of the page stays as it is.
  const contents = useQuery(packageQueries.contents(packageId));
  const problem = contents.isError ? describeError(contents.error) : undefined;
  return (
    <SectionCard title="Contents">
      {contents.data ? (
        <PackageContentsView contents={contents.data} />
      ) : problem ? (
        // A warning is the decoder's: retrying would decode the same bytes the same way.
        problem.severity === 'warning' ? (
          <Alert color="orange" variant="light" title={problem.title}>
            <Text size="sm">The browser could not decode this package: {problem.message}</Text>
          </Alert>
        ) : (
          <ErrorAlert
            error={contents.error}
            onRetry={() => {
              void contents.refetch();
            }}
          />
        )
      ) : (
        <SectionSkeleton lines={4} />
      )}
    </SectionCard>
  );
}

function PackageContentsView({ contents }: { contents: PackageContents }) {
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string[]>([]);
  const deferredFilter = useDeferredValue(filter);
  const shown = useMemo(
    () => filterModules(contents.modules, deferredFilter),
    [contents.modules, deferredFilter],
  );
  const totals = contents.modules.reduce(
    (sum, module) => ({
      templates: sum.templates + module.templates.length,
      interfaces: sum.interfaces + module.interfaces.length,
      dataTypes: sum.dataTypes + module.dataTypes.length,
    }),
    { templates: 0, interfaces: 0, dataTypes: 0 },
  );

  return (
    <Stack gap="md">
      <Text size="sm" role="status">
        {count(contents.modules.length, 'module', 'modules')},{' '}
        {count(totals.templates, 'template', 'templates')},{' '}
        {count(totals.interfaces, 'interface', 'interfaces')},{' '}
        {count(totals.dataTypes, 'data type', 'data types')}
        {deferredFilter.trim()
          ? ` · ${count(shown.length, 'module matches', 'modules match')}`
          : ''}
      </Text>
      <TextInput
        label="Filter contents"
        description="By module, template, choice, interface or data type name; matching modules open"
        value={filter}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setFilter(next);
          // A search opens what it finds; clearing it folds everything back.
          setOpen(next.trim() ? filterModules(contents.modules, next).map((m) => m.name) : []);
        }}
        maw={420}
      />
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {contents.modules.length === 0
            ? 'This package declares no modules.'
            : `Nothing matches “${deferredFilter.trim()}”.`}
        </Text>
      ) : (
        <Accordion
          multiple
          value={open}
          onChange={setOpen}
          order={3}
          variant="separated"
          chevronPosition="left"
          // Only open modules are rendered: a large package stays quick to show.
          keepMounted={false}
        >
          {shown.map((module) => (
            <Accordion.Item key={module.name} value={module.name}>
              <Accordion.Control>
                {/* Spans: a button may only hold phrasing content. */}
                <Group component="span" gap="sm" wrap="nowrap">
                  <Text span ff="monospace" size="sm" fw={600}>
                    {module.name}
                  </Text>
                  <Text span size="xs" c="dimmed">
                    {moduleSummary(module)}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <ModuleContents module={module} contents={contents} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}

function ModuleContents({ module, contents }: { module: Module; contents: PackageContents }) {
  return (
    <Stack gap="md">
      {module.templates.map((template) => (
        <TemplateView key={template.name} template={template} contents={contents} />
      ))}
      {module.interfaces.map((iface) => (
        <InterfaceView key={iface.name} iface={iface} contents={contents} />
      ))}
      {module.dataTypes.length > 0 && <DataTypesTable module={module} />}
      {module.synonyms.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h6">
            Type synonyms
          </Title>
          <ul aria-label={`Type synonyms of ${module.name}`} style={{ margin: 0 }}>
            {module.synonyms.map((synonym) => (
              <li key={synonym.name}>
                <Code>
                  {[synonym.name, ...synonym.params].join(' ')} = {formatType(synonym.type)}
                </Code>
              </li>
            ))}
          </ul>
        </Stack>
      )}
    </Stack>
  );
}

function EntityHeading({ id, name, kind }: { id: string; name: string; kind: string }) {
  return (
    <Group gap="xs">
      <Title order={4} size="h5" id={id} ff="monospace">
        {name}
      </Title>
      <Badge variant="light" color="gray" tt="none">
        {kind}
      </Badge>
    </Group>
  );
}

function TemplateView({ template, contents }: { template: Template; contents: PackageContents }) {
  const headingId = useId();
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <EntityHeading id={headingId} name={template.name} kind="Template" />
        <FieldsTable label={`Fields of ${template.name}`} fields={template.fields} />
        <Text size="sm">
          Key:{' '}
          {template.keyType ? (
            <Code>{formatType(template.keyType)}</Code>
          ) : (
            <Text span size="sm" c="dimmed">
              none
            </Text>
          )}
        </Text>
        {template.implements.length > 0 && (
          <Text size="sm">
            Implements:{' '}
            {template.implements.map((tycon) => (
              <Code key={`${tycon.module}:${tycon.name}`} mr={4}>
                {tycon.module}:{tycon.name}
              </Code>
            ))}
          </Text>
        )}
        <ChoiceList owner={template.name} choices={template.choices} contents={contents} />
      </Stack>
    </Paper>
  );
}

function InterfaceView({ iface, contents }: { iface: Interface; contents: PackageContents }) {
  const headingId = useId();
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <EntityHeading id={headingId} name={iface.name} kind="Interface" />
        <Text size="sm">
          View:{' '}
          {iface.viewType ? (
            <Code>{formatType(iface.viewType)}</Code>
          ) : (
            <Text span size="sm" c="dimmed">
              none
            </Text>
          )}
        </Text>
        {iface.requires.length > 0 && (
          <Text size="sm">
            Requires:{' '}
            {iface.requires.map((tycon) => (
              <Code key={`${tycon.module}:${tycon.name}`} mr={4}>
                {tycon.module}:{tycon.name}
              </Code>
            ))}
          </Text>
        )}
        <ChoiceList owner={iface.name} choices={iface.choices} contents={contents} />
      </Stack>
    </Paper>
  );
}

function FieldsTable({ label, fields }: { label: string; fields: readonly Field[] }) {
  if (fields.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No fields
      </Text>
    );
  }
  return (
    <Table aria-label={label} withTableBorder verticalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Field</Table.Th>
          <Table.Th scope="col">Type</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field.name}>
            <Table.Td ff="monospace">{field.name}</Table.Td>
            <Table.Td ff="monospace">{formatType(field.type)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ChoiceList({
  owner,
  choices,
  contents,
}: {
  owner: string;
  choices: readonly Choice[];
  contents: PackageContents;
}) {
  const headingId = useId();
  return (
    <Stack gap={4}>
      <Title order={5} size="h6" id={headingId}>
        Choices ({choices.length})
      </Title>
      <Stack
        component="ul"
        gap="xs"
        aria-label={`Choices of ${owner}`}
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {choices.map((choice) => (
          <li key={choice.name}>
            <Stack gap={2}>
              <Group gap="xs">
                <Title order={6} ff="monospace" size="sm">
                  {choice.name}
                </Title>
                <Badge
                  size="sm"
                  variant="light"
                  color={choice.consuming ? 'orange' : 'blue'}
                  tt="none"
                >
                  {choice.consuming ? 'Consuming' : 'Non-consuming'}
                </Badge>
              </Group>
              <ChoiceArgument owner={owner} choice={choice} contents={contents} />
              <Text size="sm">
                Returns <Code>{formatType(choice.returnType)}</Code>
              </Text>
            </Stack>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function ChoiceArgument({
  owner,
  choice,
  contents,
}: {
  owner: string;
  choice: Choice;
  contents: PackageContents;
}) {
  const type = choice.argType;
  const local = recordFieldsOf([contents], type);
  // Archive's argument, for one, is a record of the standard library's template package.
  const foreignPackageId =
    local === undefined && type.kind === 'con' && type.tycon.packageId !== contents.packageId
      ? type.tycon.packageId
      : undefined;
  return (
    <Stack gap={2}>
      <Text size="sm">
        Argument <Code>{formatType(type)}</Code>
      </Text>
      {local !== undefined ? (
        <ArgumentFields choiceName={choice.name} fields={local} />
      ) : foreignPackageId !== undefined ? (
        <ForeignArgumentFields
          owner={owner}
          choiceName={choice.name}
          packageId={foreignPackageId}
          type={type}
        />
      ) : null}
    </Stack>
  );
}

function ForeignArgumentFields({
  owner,
  choiceName,
  packageId,
  type,
}: {
  owner: string;
  choiceName: string;
  packageId: string;
  type: DamlType;
}) {
  const { data, isError, error, refetch, isFetching } = useQuery(
    packageQueries.contents(packageId),
  );
  if (isError) {
    // In place and short: the choice is still shown, only its argument's fields are missing.
    return (
      <Group gap="xs" pl="md" wrap="nowrap">
        <Text size="xs" c="dimmed">
          Argument fields not known: {packageErrorText(error)}
        </Text>
        <Button
          size="compact-xs"
          variant="subtle"
          loading={buttonBusy(isFetching)}
          aria-label={`Retry reading the argument of ${choiceName} of ${owner}`}
          onClick={() => {
            void refetch();
          }}
        >
          Retry
        </Button>
      </Group>
    );
  }
  if (!data) return <Loader size="xs" aria-label={`Reading the argument of ${choiceName}`} />;
  const fields = recordFieldsOf([data], type);
  return fields ? <ArgumentFields choiceName={choiceName} fields={fields} /> : null;
}

function ArgumentFields({ choiceName, fields }: { choiceName: string; fields: readonly Field[] }) {
  if (fields.length === 0) {
    return (
      <Text size="xs" c="dimmed" pl="md">
        No argument fields
      </Text>
    );
  }
  return (
    <ul aria-label={`Argument fields of ${choiceName}`} style={{ margin: 0 }}>
      {fields.map((field) => (
        <li key={field.name}>
          <Text span size="sm" ff="monospace">
            {field.name}: {formatType(field.type)}
          </Text>
        </li>
      ))}
    </ul>
  );
}

function DataTypesTable({ module }: { module: Module }) {
  return (
    <Stack gap={4}>
      <Title order={4} size="h6">
        Data types
      </Title>
      <TableScroller label={`Data types of ${module.name}`} minWidth={560}>
        <Table
          aria-label={`Data types of ${module.name}`}
          withTableBorder
          verticalSpacing={4}
          fz="sm"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">Definition</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {module.dataTypes.map((dataType) => (
              <Table.Tr key={dataType.name}>
                <Table.Td ff="monospace">{[dataType.name, ...dataType.params].join(' ')}</Table.Td>
                <Table.Td>{dataType.kind}</Table.Td>
                <Table.Td ff="monospace">{definitionOf(dataType)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroller>
    </Stack>
  );
}

function definitionOf(dataType: DataType): string {
  switch (dataType.kind) {
    case 'record':
      return dataType.fields.length === 0
        ? '{}'
        : `{ ${dataType.fields.map((f) => `${f.name}: ${formatType(f.type)}`).join(', ')} }`;
    case 'variant':
      return dataType.constructors
        .map((c) => (isUnit(c.type) ? c.name : `${c.name} ${formatTypeNested(c.type)}`))
        .join(' | ');
    case 'enum':
      return dataType.constructors.join(' | ');
    case 'interface':
      return 'see the interface above';
  }
}

const isUnit = (type: DamlType) => type.kind === 'prim' && type.prim === 'UNIT';

function formatTypeNested(type: DamlType): string {
  const text = formatType(type);
  return text.includes(' ') ? `(${text})` : text;
}

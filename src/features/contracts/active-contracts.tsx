import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  Fragment,
  memo,
  useCallback,
  useDeferredValue,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { PlainLink } from '@/components/plain-link';
import {
  MAX_ACTIVE_CONTRACTS,
  type ActiveContract,
  type ActiveContractsQuery,
} from '@/api/active-contracts';
import { isEmptyScope, updateQueries, type ReadScope } from '@/api/updates';
import { DamlValue } from '@/components/daml-value';
import {
  DataTable,
  STREAMED_VIRTUALIZE_ABOVE,
  type DataTableColumn,
} from '@/components/data-table/data-table';
import { downloadFile } from '@/components/data-table/download-file';
import { EmptyState } from '@/components/feedback/empty-state';
import { ErrorState } from '@/components/feedback/error-state';
import { RelativeTime } from '@/components/relative-time';
import linkClasses from '@/components/value-link.module.css';
import { readDamlValue, type ValueType } from '@/lib/values/daml-value';
import { shortenIdentifier } from '@/lib/text/format';
import { parseIdentifier } from '@/lib/transaction-tree/model';
import { idHint } from '@/lib/transaction-tree/update-summary';
import { isRecord } from '@/lib/values/is-record';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import { useTemplateCatalog } from '@/hooks/template-catalog';
import classes from './active-contracts.module.css';
import { contractTypes, fieldType, type ContractTypes } from './contract-value-types';
import { columnsSource, contractsCsv, contractsJson } from './contracts-export';
import { ContractsFilters } from './contracts-filters';
import { matchContracts } from './contracts-search';
import type { ContractsView } from './contracts-view';
import { useActiveContracts } from './use-active-contracts';

export type ActiveContractsLinks = {
  contract: (contractId: string) => string;
  /** The composer, prefilled with an exercise on the contract. */
  exercise: (contractId: string, templateId: string) => string;
};

export type ActiveContractsProps = {
  view: ContractsView;
  onViewChange: (view: ContractsView) => void;
  links: ActiveContractsLinks;
};

const READ_NEED = 'Read as for each party listed, or Read as any party';

/** Field columns beyond this many go into one "Other fields" column: the table stays readable. */
const MAX_FIELD_COLUMNS = 6;

/**
 * The active contracts of the parties the caller picks (or every party it may read), at the ledger
 * end or an offset, streamed in as the participant sends them; columns from the picked template's
 * fields or interface's view.
 */
export function ActiveContracts(props: ActiveContractsProps) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) return <NoReadScopeState title="You may not read any contracts" />;
  return <ActiveContractsOf {...props} scope={scope} />;
}

function queryOf(
  view: ContractsView,
  scope: ReadScope,
  offset: number | undefined,
): ActiveContractsQuery | undefined {
  if (offset === undefined) return undefined;
  const parties =
    view.parties.length > 0 ? view.parties : scope.kind === 'any-party' ? 'any' : scope.parties;
  const filter =
    view.template !== undefined
      ? { kind: 'template' as const, templateId: view.template }
      : view.interface !== undefined
        ? { kind: 'interface' as const, interfaceId: view.interface }
        : undefined;
  return { parties, activeAtOffset: offset, ...(filter ? { filter } : {}) };
}

function ActiveContractsOf({
  view,
  onViewChange,
  links,
  scope,
}: ActiveContractsProps & { scope: ReadScope }) {
  const { packages, templates, interfaces } = useTemplateCatalog();
  const ledgerEnd = useQuery({
    ...updateQueries.ledgerEnd(),
    enabled: view.offset === undefined,
    // The list is "now" when it opens, not when the end was last read.
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const [generation, setGeneration] = useState(0);
  const offset = view.offset ?? ledgerEnd.data;
  const query = queryOf(view, scope, offset);
  const state = useActiveContracts(query, generation);

  // Unfiltered, a list that holds one template only still reads best in that template's columns.
  const soleTemplate = useMemo(
    () =>
      view.template === undefined && view.interface === undefined
        ? soleTemplateOf(state.contracts)
        : undefined,
    [view.template, view.interface, state.contracts],
  );
  const columnsTemplate = view.template ?? soleTemplate;
  const types = useMemo(
    () =>
      contractTypes(
        { packages, templates, interfaces },
        {
          ...(columnsTemplate === undefined ? {} : { template: columnsTemplate }),
          ...(view.interface === undefined ? {} : { interface: view.interface }),
        },
      ),
    [packages, templates, interfaces, columnsTemplate, view.interface],
  );
  const isInterface = view.interface !== undefined;
  const search = useDeferredValue(view.search);
  const shown = useMemo(() => matchContracts(state.contracts, search), [state.contracts, search]);
  const columns = useMemo(() => contractColumns(types, view, links), [types, view, links]);

  const { refetch, data: shownEnd } = ledgerEnd;
  const isAtLedgerEnd = view.offset === undefined;
  // Stable, so the filters (memo) do not re-render with every streamed batch. At the ledger end,
  // a new end is a new query, which streams by itself; the same end is streamed again.
  const refresh = useCallback(() => {
    if (!isAtLedgerEnd) {
      setGeneration((current) => current + 1);
      return;
    }
    void refetch().then(({ data }) => {
      if (data === shownEnd) setGeneration((current) => current + 1);
    });
  }, [isAtLedgerEnd, refetch, shownEnd]);

  const isStreaming =
    state.status.kind === 'connecting' ||
    state.status.kind === 'open' ||
    state.status.kind === 'reconnecting';
  const count = state.contracts.length;
  return (
    <Stack gap="md">
      <ContractsFilters
        // Its inputs start from the URL again when the view changes elsewhere (a link, Back);
        // not on the search it commits itself, which would take the focus from the box.
        key={JSON.stringify([view.parties, view.offset, view.template, view.interface])}
        view={view}
        onViewChange={onViewChange}
        scope={scope}
        templates={templates}
        interfaces={interfaces}
        ledgerEnd={ledgerEnd.data}
        onRefresh={refresh}
      />
      {ledgerEnd.error && <ErrorState error={ledgerEnd.error} onRetry={refresh} />}
      {state.status.kind === 'failed' && (
        <ErrorState error={state.status.error} onRetry={refresh} need={READ_NEED} />
      )}
      {state.isCapped && (
        <Alert color="yellow" variant="light" title="Not every contract is listed">
          The first {MAX_ACTIVE_CONTRACTS.toLocaleString('en')} contracts are listed; the page keeps
          no more. Narrow the list by party or template to see the others.
        </Alert>
      )}
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          {isStreaming && query !== undefined && <Loader size="xs" aria-hidden />}
          <Text size="sm" role="status">
            {statusLine(state.status.kind, count, shown.length, offset, view.search !== '')}
          </Text>
        </Group>
        <ExportButtons contracts={shown} types={types} isInterface={isInterface} />
      </Group>
      {state.status.kind === 'failed' && count === 0 ? null : state.status.kind === 'ended' &&
        shown.length === 0 ? (
        <EmptyState
          title={count === 0 ? 'No active contracts' : 'No contract matches'}
          description={
            count === 0
              ? 'None of these parties is a stakeholder of an active contract of this kind at this offset.'
              : 'No listed contract has this text in its arguments.'
          }
        />
      ) : (
        <DataTable
          label="Active contracts"
          columns={columns}
          rows={shown}
          rowKey={(contract) => contract.contractId}
          isBusy={isStreaming}
          virtualizeAbove={STREAMED_VIRTUALIZE_ABOVE}
          scrollResetKey={`${JSON.stringify(query)}:${String(generation)}:${search}`}
        />
      )}
    </Stack>
  );
}

function statusLine(
  status: string,
  count: number,
  shown: number,
  offset: number | undefined,
  isSearching: boolean,
): string {
  const contracts = `${count.toLocaleString('en')} ${count === 1 ? 'contract' : 'contracts'}`;
  const matching = isSearching ? `, ${shown.toLocaleString('en')} matching` : '';
  if (offset === undefined) return 'Reading the ledger end…';
  if (status === 'connecting' || status === 'open') {
    return `Reading active contracts at offset ${String(offset)}… ${contracts} so far${matching}`;
  }
  if (status === 'reconnecting') {
    return `Connection lost, resuming at offset ${String(offset)}… ${contracts} so far${matching}`;
  }
  if (status === 'failed') return `Stopped after ${contracts}${matching}`;
  return `${contracts} active at offset ${String(offset)}${matching}`;
}

function ExportButtons({
  contracts,
  types,
  isInterface,
}: {
  contracts: readonly ActiveContract[];
  types: ContractTypes;
  isInterface: boolean;
}) {
  const formats = [
    {
      label: 'Export CSV',
      fileName: 'active-contracts.csv',
      mimeType: 'text/csv;charset=utf-8',
      content: () => contractsCsv(contracts, types, isInterface),
    },
    {
      label: 'Export JSON',
      fileName: 'active-contracts.json',
      mimeType: 'application/json;charset=utf-8',
      content: () => contractsJson(contracts),
    },
  ];
  return (
    <Group gap="xs">
      {formats.map((format) => (
        <Button
          key={format.label}
          size="xs"
          variant="default"
          disabled={contracts.length === 0}
          onClick={() => {
            downloadFile({
              fileName: format.fileName,
              content: format.content(),
              mimeType: format.mimeType,
            });
          }}
        >
          {format.label}
        </Button>
      ))}
    </Group>
  );
}

/** One field of the row's argument (or view), read with the field's type. */
function FieldCell({
  contract,
  name,
  type,
  isInterface,
  types,
}: {
  contract: ActiveContract;
  name: string;
  type: ValueType;
  isInterface: boolean;
  types: ContractTypes;
}) {
  const source = columnsSource(contract, isInterface);
  if (!isRecord(source) || !(name in source)) return null;
  const exact = isInterface ? type : fieldType(types.argumentOf(contract.templateId), name);
  const value = readDamlValue(source[name], exact.kind === 'unknown' ? type : exact);
  return (
    <span
      className={value.kind === 'number' ? `${classes.value} ${classes.number}` : classes.value}
    >
      <DamlValue value={value} />
    </span>
  );
}

/** The template every contract is of, when there is exactly one (none for an empty list). */
function soleTemplateOf(contracts: readonly ActiveContract[]): string | undefined {
  const first = contracts[0]?.templateId;
  return first !== undefined && contracts.every((contract) => contract.templateId === first)
    ? first
    : undefined;
}

/**
 * A cell that renders again only when its row or column does: scrolling re-renders the table's
 * visible rows every frame, and their values need not be read again for that.
 */
const MemoCell = memo(function MemoCell({
  contract,
  render,
}: {
  contract: ActiveContract;
  render: (contract: ActiveContract) => ReactNode;
}) {
  return render(contract);
});

function contractColumns(
  types: ContractTypes,
  view: ContractsView,
  links: ActiveContractsLinks,
): DataTableColumn<ActiveContract>[] {
  return columnsOf(types, view, links).map((column) => ({
    ...column,
    cell: (contract) => <MemoCell contract={contract} render={column.cell} />,
  }));
}

function columnsOf(
  types: ContractTypes,
  view: ContractsView,
  links: ActiveContractsLinks,
): DataTableColumn<ActiveContract>[] {
  const isInterface = view.interface !== undefined;
  const fields = types.columns ?? [];
  const own = fields.slice(0, MAX_FIELD_COLUMNS);
  const rest = fields.slice(MAX_FIELD_COLUMNS);
  const fieldColumns: DataTableColumn<ActiveContract>[] = own.map((field, index) => ({
    key: `field:${field.name}`,
    header: field.name,
    cell: (contract) =>
      // A view the participant could not compute says why, once, where its values would be.
      index === 0 && contract.interfaceView && 'error' in contract.interfaceView ? (
        <span className={classes.value} title={contract.interfaceView.error}>
          No view: {contract.interfaceView.error}
        </span>
      ) : (
        <FieldCell
          contract={contract}
          name={field.name}
          type={field.type}
          isInterface={isInterface}
          types={types}
        />
      ),
  }));
  if (rest.length > 0) {
    fieldColumns.push({
      key: 'other-fields',
      header: 'Other fields',
      cell: (contract) => {
        const source = columnsSource(contract, isInterface);
        if (!isRecord(source)) return null;
        const others = Object.fromEntries(
          rest
            .filter((field) => field.name in source)
            .map((field) => [field.name, source[field.name]]),
        );
        const type: ValueType = { kind: 'record', fields: () => rest };
        return (
          <span className={classes.value}>
            <DamlValue value={readDamlValue(others, type)} />
          </span>
        );
      },
    });
  }
  if (fields.length === 0) {
    fieldColumns.push({
      key: 'argument',
      header: isInterface ? 'View' : 'Arguments',
      cell: (contract) => {
        const source = columnsSource(contract, isInterface);
        const type = isInterface
          ? { kind: 'unknown' as const }
          : types.argumentOf(contract.templateId);
        return (
          <span className={classes.value}>
            <DamlValue value={readDamlValue(source, type)} />
          </span>
        );
      },
    });
  }
  return [
    {
      key: 'contract',
      header: 'Contract',
      width: 170,
      cell: (contract) => (
        <PlainLink
          className={`${classes.value} ${classes.id} ${linkClasses.link}`}
          to={links.contract(contract.contractId)}
          title={contract.contractId}
        >
          {shortenIdentifier(contract.contractId)}
        </PlainLink>
      ),
    },
    ...(view.template === undefined
      ? [
          {
            key: 'template',
            header: 'Template',
            width: 150,
            cell: (contract: ActiveContract) => (
              <span className={classes.value} title={contract.templateId}>
                {parseIdentifier(contract.templateId)?.entityName ?? contract.templateId}
              </span>
            ),
          },
        ]
      : []),
    ...fieldColumns,
    {
      key: 'synchronizer',
      header: 'Synchronizer',
      width: 120,
      // The readable part of `alias::1220…`; the whole id on hover, and in the exports.
      cell: (contract) => (
        <span className={classes.value} title={contract.synchronizerId}>
          {idHint(contract.synchronizerId)}
        </span>
      ),
    },
    {
      key: 'signatories',
      header: 'Signatories',
      width: 170,
      cell: (contract) => (
        <span className={classes.value}>
          {contract.signatories.map((party, index) => (
            <Fragment key={party}>
              {index > 0 && ', '}
              <DamlValue value={{ kind: 'party', party }} />
            </Fragment>
          ))}
        </span>
      ),
    },
    {
      key: 'created',
      header: 'Created',
      width: 130,
      cell: (contract) => <RelativeTime value={contract.createdAt} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      width: 110,
      cardPlacement: 'actions',
      cell: (contract) => (
        <PlainLink
          className={`${classes.value} ${linkClasses.link}`}
          to={links.exercise(contract.contractId, contract.templateId)}
          aria-label={`Exercise… on ${shortenIdentifier(contract.contractId)}`}
        >
          Exercise…
        </PlainLink>
      ),
    },
  ];
}

import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { memo, useMemo, useState } from 'react';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { CancellableProgress } from '@/components/feedback/cancellable-progress';
import { ForbiddenState } from '@/components/feedback/page-state';
import { downloadFile } from '@/components/data-table/download-file';
import { FormActions } from '@/components/form/form-actions';
import { Identifier } from '@/components/identifier';
import { SectionCard } from '@/components/section-card';
import { accessOf, type Access } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import {
  BULK_IMPORT_LIMITS,
  countOutcomes,
  defaultRightsNotice,
  IMPORT_COLUMNS,
  nothingToRunReason,
  RIGHTS_PRESET_HELP,
  type ImportContext,
  type RowOutcome,
  type RowResult,
  type RowVerdict,
} from './bulk-import-rows';
import { namespaceOfParticipantId } from '@/lib/onboarding/onboarding-input';
import {
  BULK_IMPORT_MIME_TYPES,
  resultFile,
  resultFileName,
  templateFile,
  type BulkImportFileFormat,
} from './bulk-import-files';
import { ExternalSignatures } from './external-signatures';
import { ImportFileDropZone } from './import-file-drop-zone';
import { partyOf, RUN_CONCURRENCY, useBulkImport, type ImportRowState } from './use-bulk-import';
import { TableScroller } from '@/components/table-scroller';

/**
 * Rows per page of the plan table: enough to scan, few enough that rendering a page (Mantine's
 * table and badges) stays well inside one 50 ms task, which 100 rows did not (bench:import).
 */
const PAGE_SIZE = 50;

/**
 * Bulk import for an IdP admin (into its IdP) or a participant admin (into the default IdP):
 * the template, the file, a plan with a verdict per row, the run, and the result file.
 */
export type BulkImportProps = {
  /** Where Cancel goes before anything has run (the users list); no Cancel without it. */
  cancelHref?: string;
};

export function BulkImport({ cancelHref }: BulkImportProps = {}) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: participantId } = useSuspenseQuery(participantQueries.participantId());
  const access = useMemo(() => accessOf(caller), [caller]);
  const namespace = namespaceOfParticipantId(participantId);
  if (!access.canManageUsers) {
    return (
      <ForbiddenState
        title="You may not import users"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
      />
    );
  }
  if (namespace === undefined) {
    return (
      <Alert color="red" title="Unknown participant namespace">
        The participant id is not of the form name::namespace, so party ids cannot be planned.
      </Alert>
    );
  }
  return (
    <BulkImportFlow
      access={access}
      namespace={namespace}
      {...(cancelHref === undefined ? {} : { cancelHref })}
    />
  );
}

function BulkImportFlow({
  access,
  namespace,
  cancelHref,
}: {
  access: Access;
  namespace: string;
  cancelHref?: string;
}) {
  const identityProviderId = access.administeredIdentityProviderId ?? '';
  const context = useMemo<ImportContext>(
    () => ({ access, identityProviderId, participantNamespace: namespace }),
    [access, identityProviderId, namespace],
  );
  const importer = useBulkImport(context);
  const isBusy = importer.phase === 'checking' || importer.phase === 'running';
  const results = importer.rows.flatMap((entry) => (entry.result ? [entry.result] : []));
  const notRun = importer.rows.filter(
    (entry) => entry.result === undefined || entry.result.outcome === 'waiting',
  ).length;
  const retryable = importer.rows.filter(
    (entry) => entry.row.ok && entry.result?.outcome === 'failed',
  ).length;
  const hasRun = results.length > 0;
  const isPlanned = importer.phase === 'ready' || importer.phase === 'running';
  const cannotRunReason = isPlanned ? nothingToRunReason(importer.rows) : undefined;
  const rightsNotice = defaultRightsNotice(importer.rows.map((entry) => entry.row));

  const download = (format: BulkImportFileFormat) => {
    downloadFile({
      fileName: resultFileName(importer.fileName ?? 'import', format, new Date()),
      content: resultFile(format, resultsForFile(importer.rows)),
      mimeType: BULK_IMPORT_MIME_TYPES[format],
    });
  };

  return (
    <Stack gap="lg">
      <SectionCard title="File">
        <Stack gap="md">
          <Text size="sm">
            One row per person, into{' '}
            {identityProviderId === ''
              ? 'the default identity provider'
              : `identity provider ${identityProviderId}`}
            . Columns: {IMPORT_COLUMNS.join(', ')}. Give <Code>partyHint</Code> for a new party or{' '}
            <Code>party</Code> for an existing one of this identity provider; <Code>rights</Code> is
            a preset (
            {RIGHTS_PRESET_HELP.map((preset) => `${preset.id}: ${preset.label}`).join('; ')}) or
            rights on the row&apos;s own party such as <Code>actAs;readAs</Code>. With{' '}
            <Code>externalPublicKey</Code> (the person&apos;s Ed25519 public key, base64, hex or
            PEM) the row&apos;s party is external, <Code>partyHint::fingerprint</Code>, and waits
            for the person&apos;s signature of its topology. At most {BULK_IMPORT_LIMITS.rows} rows
            and 1 MiB.
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                downloadFile({
                  fileName: 'bulk-import-template.csv',
                  content: templateFile('csv', namespace),
                  mimeType: BULK_IMPORT_MIME_TYPES.csv,
                });
              }}
            >
              Download CSV template
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                downloadFile({
                  fileName: 'bulk-import-template.json',
                  content: templateFile('json', namespace),
                  mimeType: BULK_IMPORT_MIME_TYPES.json,
                });
              }}
            >
              Download JSON template
            </Button>
          </Group>
          <ImportFileDropZone
            fileName={importer.fileName}
            isDisabled={isBusy}
            onFile={(file) => {
              void importer.load(file);
            }}
          />
          {importer.fileProblem !== undefined && (
            <Alert color="red" title="This file cannot be imported">
              {importer.fileProblem}
            </Alert>
          )}
        </Stack>
      </SectionCard>

      {importer.rows.length > 0 && importer.phase !== 'checking' && (
        <ExternalSignatures
          rows={importer.rows}
          external={importer.external}
          isGenerating={importer.isGenerating}
          isBusy={isBusy}
          signatureFileProblem={importer.signatureFileProblem}
          onGenerate={(synchronizerId) => {
            void importer.generateTopologies(synchronizerId);
          }}
          onSignature={(row, text) => {
            void importer.setSignature(row, text);
          }}
          onSignatureFile={(file) => {
            void importer.loadSignatures(file);
          }}
        />
      )}

      {importer.rows.length > 0 && (
        <SectionCard title="Plan">
          <Stack gap="md">
            <Text size="sm" role="status">
              {planSummary(importer.rows, importer.phase === 'checking')}
            </Text>
            {rightsNotice !== undefined && (
              <Alert color="blue" variant="light" title="Default rights">
                {rightsNotice}
              </Alert>
            )}
            {importer.phase === 'checking' && (
              <CancellableProgress
                label="Checking rows"
                value={percent(importer.progress)}
                status={`Checked ${String(importer.progress.done)} of ${String(importer.progress.total)} rows against the participant`}
                onCancel={importer.cancel}
              />
            )}
            {importer.phase === 'running' && (
              <CancellableProgress
                label="Importing rows"
                value={percent(importer.progress)}
                status={`Ran ${String(importer.progress.done)} of ${String(importer.progress.total)} rows, ${String(RUN_CONCURRENCY)} at a time`}
                onCancel={importer.cancel}
              />
            )}
            {importer.phase === 'ready' && !hasRun && (
              // Nothing has run yet: the one Save/Cancel bar, Cancel back to where the import began.
              <form
                aria-label="Run the import"
                onSubmit={(event) => {
                  event.preventDefault();
                  void importer.run('pending');
                }}
              >
                <FormActions
                  submitLabel="Run import"
                  isSubmitting={false}
                  isSubmitDisabled={cannotRunReason !== undefined}
                  {...(cancelHref === undefined ? {} : { cancel: { to: cancelHref } })}
                />
                {cannotRunReason !== undefined && (
                  // A disabled button cannot be focused or hovered: the reason is plain text beside it.
                  <Text size="sm" c="dimmed" mt="xs">
                    {cannotRunReason}
                  </Text>
                )}
              </form>
            )}
            {importer.phase === 'ready' && hasRun && (
              <Group gap="sm">
                {notRun > 0 && (
                  <Button
                    onClick={() => {
                      void importer.run('pending');
                    }}
                  >
                    Resume ({notRun} not run)
                  </Button>
                )}
                {retryable > 0 && (
                  <Button
                    variant="light"
                    onClick={() => {
                      void importer.run('failed');
                    }}
                  >
                    Retry failed ({retryable})
                  </Button>
                )}
              </Group>
            )}
            {importer.wasCancelled && importer.phase === 'ready' && (
              <Alert color="yellow" title="Cancelled">
                {hasRun
                  ? 'Rows already started finished; the others did not run. Resume runs them.'
                  : 'Some rows were not checked; they are checked when the import runs.'}
              </Alert>
            )}
            {hasRun && <ResultSummary results={results} onDownload={download} isBusy={isBusy} />}
            <PlanTable rows={importer.rows} isChecking={importer.phase === 'checking'} />
          </Stack>
        </SectionCard>
      )}
    </Stack>
  );
}

function ResultSummary({
  results,
  onDownload,
  isBusy,
}: {
  results: readonly RowResult[];
  onDownload: (format: BulkImportFileFormat) => void;
  isBusy: boolean;
}) {
  const counts = countOutcomes(results);
  return (
    <Group gap="sm" justify="space-between">
      <Text size="sm">
        Results: {counts.created} created, {counts.updated} updated, {counts.skipped} skipped,{' '}
        {counts.waiting > 0 ? `${String(counts.waiting)} waiting for a signature, ` : ''}
        {counts.failed} failed.
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          disabled={isBusy}
          onClick={() => {
            onDownload('csv');
          }}
        >
          Download results (CSV)
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={isBusy}
          onClick={() => {
            onDownload('json');
          }}
        >
          Download results (JSON)
        </Button>
      </Group>
    </Group>
  );
}

type RowFilter = 'all' | 'attention';

function PlanTable({ rows, isChecking }: { rows: readonly ImportRowState[]; isChecking: boolean }) {
  const [filter, setFilter] = useState<RowFilter>('all');
  const [page, setPage] = useState(0);
  const shown = filter === 'all' ? rows : rows.filter(needsAttention);
  const pageCount = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pageCount - 1);
  const pageRows = shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Rows shown"
          size="xs"
          value={filter}
          onChange={(value) => {
            setFilter(value === 'attention' ? 'attention' : 'all');
            setPage(0);
          }}
          data={[
            { value: 'all', label: `All rows (${String(rows.length)})` },
            { value: 'attention', label: 'Needs attention' },
          ]}
        />
        <Group gap="xs">
          <Text size="sm">
            {shown.length === 0
              ? 'No rows'
              : `Rows ${String(current * PAGE_SIZE + 1)}–${String(Math.min(shown.length, (current + 1) * PAGE_SIZE))} of ${String(shown.length)}`}
          </Text>
          <Button
            size="xs"
            variant="default"
            disabled={current === 0}
            onClick={() => {
              setPage(current - 1);
            }}
          >
            Previous rows
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={current >= pageCount - 1}
            onClick={() => {
              setPage(current + 1);
            }}
          >
            Next rows
          </Button>
        </Group>
      </Group>
      {/* Narrower than the columns' minimum widths, the table scrolls sideways instead of
          squeezing ids into one-character columns. */}
      <TableScroller label="Import plan" minWidth={PLAN_TABLE_MIN_WIDTH}>
        <Table aria-label="Import plan" striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {PLAN_COLUMNS.map(({ label, minWidth }) => (
                <Table.Th key={label} style={{ minWidth }}>
                  {label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.map((entry) => (
              <PlanRow
                key={entry.row.row}
                row={entry.row}
                verdict={entry.verdict}
                result={entry.result}
                isChecking={isChecking}
              />
            ))}
          </Table.Tbody>
        </Table>
      </TableScroller>
    </Stack>
  );
}

/**
 * Memoised on the row's parts, not on the entry (updated in place): a progress update then
 * re-renders only the rows whose verdict or result changed since the last one.
 */
const PlanRow = memo(function PlanRow({
  row,
  verdict,
  result,
  isChecking,
}: ImportRowState & { isChecking: boolean }) {
  return (
    <Table.Tr>
      <Table.Td>{row.row}</Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.userId}</Table.Td>
      <Table.Td>
        <PartyCell party={partyOf({ row, verdict, result })} row={row.row} />
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        {row.ok ? row.plan.rights.map((right) => right.kind).join(', ') : (row.rights ?? '')}
      </Table.Td>
      <Table.Td>
        <VerdictBadge verdict={verdict} isChecking={isChecking} />
      </Table.Td>
      <Table.Td>{result ? <OutcomeBadge outcome={result.outcome} /> : null}</Table.Td>
      <Table.Td>
        <Text size="xs">{result?.reason ?? verdictDetails(verdict)}</Text>
      </Table.Td>
    </Table.Tr>
  );
});

/**
 * The plan's columns with the least width each needs: the badges' full words, a shortened party
 * id (`hint::1220ab…cd`) with its copy button, a user id of a dozen characters before it wraps.
 */
const PLAN_COLUMNS = [
  { label: 'Row', minWidth: 56 },
  { label: 'User id', minWidth: 140 },
  { label: 'Party', minWidth: 230 },
  { label: 'Rights', minWidth: 120 },
  { label: 'Verdict', minWidth: 130 },
  { label: 'Result', minWidth: 100 },
  { label: 'Details', minWidth: 240 },
] as const;
const PLAN_TABLE_MIN_WIDTH = PLAN_COLUMNS.reduce((sum, column) => sum + column.minWidth, 0);

/** A party id shortened in the middle, whole on hover and when copied; a hint is short already. */
function PartyCell({ party, row }: { party: string; row: number }) {
  if (party === '') return null;
  return <Identifier value={party} label={`party of row ${String(row)}`} />;
}

/**
 * Badges keep their whole word: Mantine's badge clips its label with an ellipsis when its cell is
 * narrow ("C…"), so it may not shrink below its text, and a long label wraps instead.
 */
const BADGE_STYLES = {
  root: { flexShrink: 0, minWidth: 'max-content', height: 'auto', overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip', whiteSpace: 'nowrap' },
} as const;

const VERDICT_BADGES: Record<RowVerdict['kind'], { label: string; color: string }> = {
  create: { label: 'Create', color: 'green' },
  update: { label: 'Grant missing', color: 'blue' },
  skip: { label: 'Skip', color: 'gray' },
  invalid: { label: 'Invalid', color: 'red' },
  conflict: { label: 'Blocked', color: 'orange' },
};

function VerdictBadge({
  verdict,
  isChecking,
}: {
  verdict: RowVerdict | undefined;
  isChecking: boolean;
}) {
  if (!verdict) {
    return (
      <Badge variant="outline" color="gray" styles={BADGE_STYLES}>
        {isChecking ? 'Checking…' : 'Not checked'}
      </Badge>
    );
  }
  const { label, color } = VERDICT_BADGES[verdict.kind];
  return (
    <Badge variant="light" color={color} styles={BADGE_STYLES}>
      {label}
    </Badge>
  );
}

const OUTCOME_BADGES: Record<RowOutcome, { label: string; color: string }> = {
  created: { label: 'Created', color: 'green' },
  updated: { label: 'Updated', color: 'blue' },
  skipped: { label: 'Skipped', color: 'gray' },
  waiting: { label: 'Waiting', color: 'yellow' },
  failed: { label: 'Failed', color: 'red' },
};

function OutcomeBadge({ outcome }: { outcome: RowOutcome }) {
  const { label, color } = OUTCOME_BADGES[outcome];
  return (
    <Badge variant="filled" color={color} styles={BADGE_STYLES}>
      {label}
    </Badge>
  );
}

function verdictDetails(verdict: RowVerdict | undefined): string {
  if (!verdict) return '';
  switch (verdict.kind) {
    case 'invalid':
    case 'conflict':
    case 'skip':
      return verdict.reason;
    case 'create':
    case 'update':
      return [
        ...verdict.plan.steps.map((step) => `${step.method} ${step.path}: ${step.summary}.`),
        ...verdict.notes,
      ].join(' ');
  }
}

function needsAttention({ verdict, result }: ImportRowState): boolean {
  if (result) return result.outcome === 'failed' || result.outcome === 'waiting';
  return verdict?.kind === 'invalid' || verdict?.kind === 'conflict';
}

function planSummary(rows: readonly ImportRowState[], isChecking: boolean): string {
  const counts: Record<RowVerdict['kind'] | 'unchecked', number> = {
    create: 0,
    update: 0,
    skip: 0,
    invalid: 0,
    conflict: 0,
    unchecked: 0,
  };
  for (const { verdict } of rows) counts[verdict?.kind ?? 'unchecked'] += 1;
  const parts = [
    `${String(counts.create)} to create`,
    `${String(counts.update)} to complete with missing rights`,
    `${String(counts.skip)} to skip`,
    `${String(counts.invalid)} invalid`,
    `${String(counts.conflict)} blocked`,
  ];
  if (counts.unchecked > 0) {
    parts.push(`${String(counts.unchecked)} ${isChecking ? 'being checked' : 'not checked'}`);
  }
  return `${String(rows.length)} rows: ${parts.join(', ')}.`;
}

function percent({ done, total }: { done: number; total: number }): number {
  return total === 0 ? 100 : Math.round((done / total) * 100);
}

/** Every row of the file, in order: rows that never ran say so, so the file accounts for all. */
function resultsForFile(rows: readonly ImportRowState[]): RowResult[] {
  return rows.map(
    (entry) =>
      entry.result ?? {
        row: entry.row.row,
        userId: entry.row.userId,
        party: partyOf(entry),
        outcome: 'failed',
        reason:
          entry.verdict?.kind === 'invalid' || entry.verdict?.kind === 'conflict'
            ? entry.verdict.reason
            : 'Not run: the import was cancelled before this row. Resume runs it.',
      },
  );
}

import { Alert, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { synchronizerQueries } from '@/api/synchronizers';
import { toCsv } from '@/components/data-table/csv';
import { downloadFile } from '@/components/data-table/download-file';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { FileDropZone } from '@/components/file-drop-zone';
import { Identifier } from '@/components/identifier';
import { SectionCard } from '@/components/section-card';
import { MULTI_HASH_COLUMNS, multiHashCsvRows, type MultiHashLine } from './bulk-import-rows';
import { shortenIdentifier } from '@/lib/text/format';
import { BULK_IMPORT_MIME_TYPES } from './bulk-import-files';
import { externalPlanOf, type ExternalRowState, type ImportRowState } from './use-bulk-import';
import { TableScroller } from '@/components/table-scroller';
import { buttonBusy } from '@/components/form/button-busy';

/** Rows listed with a field each; more are signed through the files (bounded markup). */
const MAX_LISTED_ROWS = 100;

export type ExternalSignaturesProps = {
  rows: readonly ImportRowState[];
  external: ReadonlyMap<number, ExternalRowState>;
  isGenerating: boolean;
  isBusy: boolean;
  signatureFileProblem: string | undefined;
  onGenerate: (synchronizerId: string) => void;
  onSignature: (row: number, text: string) => void;
  onSignatureFile: (file: File) => void;
};

/**
 * The rows whose party is external: each needs its person's signature over its topology's
 * multi-hash before it can run. Generates the topologies, lists the multi-hashes (to copy, or as
 * a CSV to hand out), and takes the signatures back, pasted per row or as a CSV (row, signature).
 */
export function ExternalSignatures({
  rows,
  external,
  isGenerating,
  isBusy,
  signatureFileProblem,
  onGenerate,
  onSignature,
  onSignatureFile,
}: ExternalSignaturesProps) {
  const synchronizers = useQuery(synchronizerQueries.connected());
  const [chosen, setChosen] = useState<string | null>(null);
  const [signatureFileName, setSignatureFileName] = useState<string | undefined>();
  const connected = synchronizers.data ?? [];
  // One synchronizer: it is the one.
  const synchronizerId = chosen ?? (connected.length === 1 ? connected[0]?.synchronizerId : null);
  const externalRows = rows.filter((entry) => externalPlanOf(entry) !== undefined);
  if (externalRows.length === 0) return null;
  const ready = externalRows.flatMap((entry) => {
    const state = external.get(entry.row.row);
    return state?.status === 'ready' ? [{ entry, state }] : [];
  });
  const signed = ready.filter(({ state }) => state.signature !== undefined).length;

  const downloadMultiHashes = () => {
    const lines: MultiHashLine[] = ready.map(({ entry, state }) => ({
      row: entry.row.row,
      userId: entry.row.userId,
      party: state.topology.generated.partyId,
      multiHashHex: state.topology.view.multiHash.hex,
      multiHashBase64: state.topology.view.multiHash.base64,
    }));
    downloadFile({
      fileName: 'external-parties-multi-hashes.csv',
      content: toCsv(MULTI_HASH_COLUMNS, multiHashCsvRows(lines)),
      mimeType: BULK_IMPORT_MIME_TYPES.csv,
    });
  };

  return (
    <SectionCard title="External parties: signatures">
      <Stack gap="md">
        <Text size="sm">
          {externalRows.length} row{externalRows.length === 1 ? '' : 's'} give a person&apos;s
          public key: their party is external, and each person must sign its topology&apos;s
          multi-hash with their key before the row can run. Rows without a valid signature wait and
          are reported as Waiting; Resume runs them once signed. {signed} of {externalRows.length}{' '}
          signed.
        </Text>
        <Group align="end">
          <Select
            label="Synchronizer"
            description="Where the external parties are hosted."
            data={connected.map((synchronizer) => ({
              value: synchronizer.synchronizerId,
              label: `${synchronizer.synchronizerAlias} (${shortenIdentifier(synchronizer.synchronizerId)})`,
            }))}
            value={synchronizerId ?? null}
            onChange={setChosen}
            allowDeselect={false}
            disabled={synchronizers.data === undefined}
            w={360}
          />
          <Button
            variant="default"
            loading={buttonBusy(isGenerating)}
            disabled={isBusy || synchronizerId === null || synchronizerId === undefined}
            onClick={() => {
              if (synchronizerId) onGenerate(synchronizerId);
            }}
          >
            Generate topologies
          </Button>
        </Group>
        {synchronizers.error && <ErrorAlert error={synchronizers.error} />}
        {ready.length > 0 && (
          <>
            <Group gap="sm">
              <Button variant="default" size="xs" onClick={downloadMultiHashes}>
                Download multi-hashes (CSV)
              </Button>
              <Text size="xs" c="dimmed">
                Columns {MULTI_HASH_COLUMNS.join(', ')}: fill in the signatures (hex or base64 of
                the multi-hash bytes) and upload the file back.
              </Text>
            </Group>
            <FileDropZone
              what="a signatures CSV (row, signature)"
              pickLabel="Choose a signatures file"
              accept=".csv,text/csv"
              fileName={signatureFileName}
              isDisabled={isBusy}
              onFile={(file) => {
                setSignatureFileName(file.name);
                onSignatureFile(file);
              }}
            />
            {signatureFileProblem !== undefined && (
              <Alert color="red" title="Signatures file">
                {signatureFileProblem}
              </Alert>
            )}
          </>
        )}
        <TableScroller label={'Multi-hashes to sign'} minWidth={800}>
          <Table aria-label="Multi-hashes to sign" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>User id</Table.Th>
                <Table.Th>Party</Table.Th>
                <Table.Th>Multi-hash</Table.Th>
                <Table.Th>Signature</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {externalRows.slice(0, MAX_LISTED_ROWS).map((entry) => (
                <ExternalRow
                  key={entry.row.row}
                  entry={entry}
                  state={external.get(entry.row.row)}
                  isBusy={isBusy}
                  onSignature={onSignature}
                />
              ))}
            </Table.Tbody>
          </Table>
        </TableScroller>
        {externalRows.length > MAX_LISTED_ROWS && (
          <Text size="sm" c="dimmed">
            {externalRows.length - MAX_LISTED_ROWS} more rows are not listed: sign them through the
            multi-hashes file and the signatures file.
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}

function ExternalRow({
  entry,
  state,
  isBusy,
  onSignature,
}: {
  entry: ImportRowState;
  state: ExternalRowState | undefined;
  isBusy: boolean;
  onSignature: (row: number, text: string) => void;
}) {
  const { row } = entry;
  const plan = externalPlanOf(entry);
  return (
    <Table.Tr>
      <Table.Td>{row.row}</Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>{row.userId}</Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>{plan?.party}</Table.Td>
      <Table.Td>
        {state === undefined && <Text size="xs">Not generated yet</Text>}
        {state?.status === 'generating' && <Text size="xs">Generating…</Text>}
        {state?.status === 'failed' && (
          <Text size="xs" c="red">
            {state.reason}
          </Text>
        )}
        {state?.status === 'ready' && (
          <Stack gap={2}>
            <Identifier
              value={state.topology.view.multiHash.hex}
              label={`multi-hash of row ${String(row.row)}`}
              isShortened={false}
            />
            {!state.topology.view.isMultiHashMatching && (
              <Badge color="red" variant="light">
                Does not match: do not sign
              </Badge>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>
        {state?.status === 'ready' && state.topology.view.isMultiHashMatching && (
          <TextInput
            aria-label={`Signature for row ${String(row.row)}`}
            placeholder="hex or base64"
            size="xs"
            disabled={isBusy}
            spellCheck={false}
            autoComplete="off"
            error={state.signatureProblem}
            description={state.signature === undefined ? undefined : 'Signed: verifies'}
            onChange={(event) => {
              onSignature(row.row, event.currentTarget.value);
            }}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );
}

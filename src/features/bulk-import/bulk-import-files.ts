import { toCsv } from '@/components/data-table/csv';
import {
  IMPORT_COLUMNS,
  RESULT_COLUMNS,
  resultCsvRows,
  resultsToJson,
  templateCsvRows,
  templateJson,
  type RowResult,
} from './bulk-import-rows';

export type BulkImportFileFormat = 'csv' | 'json';

export const BULK_IMPORT_MIME_TYPES: Record<BulkImportFileFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
};

/** The template: a header and two example rows, with this participant's namespace in party ids. */
export function templateFile(format: BulkImportFileFormat, participantNamespace: string): string {
  return format === 'csv'
    ? toCsv(IMPORT_COLUMNS, templateCsvRows(participantNamespace))
    : templateJson(participantNamespace);
}

/**
 * The result file: one line per row. CSV through `toCsv`, which gives any cell a spreadsheet
 * would run as a formula (=, +, -, @) a leading `'`: user ids and reasons come from the file and
 * the participant, not from us.
 */
export function resultFile(format: BulkImportFileFormat, results: readonly RowResult[]): string {
  return format === 'csv' ? toCsv(RESULT_COLUMNS, resultCsvRows(results)) : resultsToJson(results);
}

/** e.g. `people-results-2026-11-23T23-40-00Z.csv`, after the imported file's name. */
export function resultFileName(
  importedFileName: string,
  format: BulkImportFileFormat,
  now: Date,
): string {
  const base =
    importedFileName
      .replace(/\.(csv|json)$/i, '')
      .replace(/[^a-zA-Z0-9._-]+/g, '-')
      .slice(0, 80) || 'import';
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return `${base}-results-${stamp}.${format}`;
}

import { toCsv } from '@/components/data-table/csv';
import { downloadFile } from '@/components/data-table/download-file';
import {
  ACTIVITY_CSV_HEADER,
  activityCsvRows,
  activityJson,
  type ActivityEntry,
} from '@/lib/activity/activity-log';

export type ActivityExportFormat = 'csv' | 'json';

/** The log as CSV: quoted as RFC 4180 asks, formula-like cells defused by the CSV writer. */
export function activityCsv(entries: readonly ActivityEntry[]): string {
  return toCsv(ACTIVITY_CSV_HEADER, activityCsvRows(entries));
}

/** `<name>-<UTC time>.<format>`, without characters file systems refuse. */
export function activityFileName(
  format: ActivityExportFormat,
  now: Date,
  name: 'activity-log' | 'audit-log' = 'activity-log',
): string {
  const stamp = now
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');
  return `${name}-${stamp}.${format}`;
}

export const EXPORT_MIME_TYPES: Record<ActivityExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json',
};

/** Saves the entries as a file (a Blob behind an object URL; nothing navigates). */
export function downloadActivity(
  format: ActivityExportFormat,
  entries: readonly ActivityEntry[],
): void {
  downloadFile({
    fileName: activityFileName(format, new Date()),
    content: format === 'csv' ? activityCsv(entries) : activityJson(entries),
    mimeType: EXPORT_MIME_TYPES[format],
  });
}

import type { AuditEntry } from '@ledger-console/edge/console-api';
import { toCsv } from '@/components/data-table/csv';
import { downloadFile } from '@/components/data-table/download-file';
import {
  AUDIT_CSV_HEADER,
  auditCsvRows,
  auditJson,
  type AuditExport,
  type AuditQuery,
} from '@/lib/activity/audit-log';
import { activityFileName, EXPORT_MIME_TYPES, type ActivityExportFormat } from './activity-export';

/** The entries as CSV: quoted as RFC 4180 asks, formula-like cells defused by the CSV writer. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return toCsv(AUDIT_CSV_HEADER, auditCsvRows(entries));
}

/** Saves the filtered entries as a file (a Blob behind an object URL; nothing navigates). */
export function downloadAudit(
  format: ActivityExportFormat,
  collected: AuditExport,
  query: AuditQuery,
): void {
  const now = new Date();
  downloadFile({
    fileName: activityFileName(format, now, 'audit-log'),
    content: format === 'csv' ? auditCsv(collected.entries) : auditJson(collected, query, now),
    mimeType: EXPORT_MIME_TYPES[format],
  });
}

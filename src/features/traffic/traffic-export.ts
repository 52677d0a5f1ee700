import type { TrafficReport } from '@/api/traffic';
import { toCsv } from '@/components/data-table/csv';
import { downloadFile } from '@/components/data-table/download-file';
import {
  TRAFFIC_CSV_HEADER,
  trafficCsvRows,
  trafficJson,
  type TrafficAggregate,
} from './traffic-aggregation';

export type TrafficExportFormat = 'csv' | 'json';

/** `traffic-<window>-<UTC time of the read>.<format>`, without characters file systems refuse. */
export function trafficFileName(format: TrafficExportFormat, report: TrafficReport): string {
  const stamp = report.readAt.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
  return `traffic-${report.window}-${stamp}.${format}`;
}

/** CSV: one row per completion (formula-like cells defused by the CSV writer); JSON: everything. */
export function trafficExport(
  format: TrafficExportFormat,
  report: TrafficReport,
  aggregate: TrafficAggregate,
): string {
  return format === 'csv'
    ? toCsv(TRAFFIC_CSV_HEADER, trafficCsvRows(report.completions))
    : trafficJson(report, aggregate);
}

/** Saves the report as a file (a Blob behind an object URL; nothing navigates). */
export function downloadTraffic(
  format: TrafficExportFormat,
  report: TrafficReport,
  aggregate: TrafficAggregate,
): void {
  downloadFile({
    fileName: trafficFileName(format, report),
    content: trafficExport(format, report, aggregate),
    mimeType: format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
  });
}

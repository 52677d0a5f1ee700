import type { User } from '@/api/users';
import { toCsv } from '@/components/data-table/csv';
import { annotationsCount } from './users-filter-sort';

export type UsersExportFormat = 'csv' | 'json';

export const USERS_CSV_HEADER = [
  'id',
  'primaryParty',
  'identityProviderId',
  'isDeactivated',
  'annotationsCount',
  'annotations',
  'resourceVersion',
] as const;

/** One line per user; annotations as a JSON object, so nothing is lost in a spreadsheet. */
export function usersToCsv(users: readonly User[]): string {
  return toCsv(
    USERS_CSV_HEADER,
    users.map((user) => [
      user.id,
      user.primaryParty ?? '',
      user.identityProviderId ?? '',
      user.isDeactivated ?? false,
      annotationsCount(user),
      JSON.stringify(user.metadata?.annotations ?? {}),
      user.metadata?.resourceVersion ?? '',
    ]),
  );
}

/** The users exactly as the API returned them, as a JSON array. */
export function usersToJson(users: readonly User[]): string {
  return `${JSON.stringify(users, null, 2)}\n`;
}

/** e.g. `users-2025-03-01T14-03-27Z.csv`: sortable, and without characters file systems refuse. */
export function usersExportFileName(format: UsersExportFormat, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return `users-${stamp}.${format}`;
}

export const USERS_EXPORT_MIME_TYPES: Record<UsersExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
};

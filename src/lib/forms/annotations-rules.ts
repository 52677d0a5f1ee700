import { z } from 'zod';
import {
  annotationKeyProblem as keyRuleProblem,
  annotationsByteSize as entriesByteSize,
  MAX_ANNOTATIONS_BYTES,
  MAX_KEY_NAME_LENGTH,
  MAX_KEY_PREFIX_LENGTH,
} from '@ledger-console/participant/annotations';

/**
 * The participant's rules for resource annotations (the participant package's, ADR 011), worded
 * for the forms, so they reject what the server would, with the same limits.
 */

export { MAX_ANNOTATIONS_BYTES } from '@ledger-console/participant/annotations';

/** One key/value row of the annotations editor. */
export type AnnotationRow = { key: string; value: string };

/** Why the server would reject `key`, in the form's words, or undefined when it is valid. */
export function annotationKeyProblem(key: string): string | undefined {
  if (key === '') return 'Key is required';
  const problem = keyRuleProblem(key);
  switch (problem?.kind) {
    case undefined:
      return undefined;
    case 'many-slashes':
      return 'At most one "/" (between prefix and name)';
    case 'prefix-too-long':
      return `The prefix before "/" is longer than ${String(MAX_KEY_PREFIX_LENGTH)} characters`;
    case 'prefix-syntax':
      return 'The prefix before "/" must be a DNS name, e.g. example.com';
    case 'name-too-long':
      return `The name is longer than ${String(MAX_KEY_NAME_LENGTH)} characters`;
    case 'name-syntax':
      return 'The name must start and end with a letter or digit; inside, also . - _ are allowed';
  }
}

/** What the server counts against the limit: UTF-8 bytes of keys and non-empty values. */
export function annotationsByteSize(rows: readonly AnnotationRow[]): number {
  return entriesByteSize(rows.map((row) => [row.key, row.value] as const));
}

/** Rows of the annotations editor: valid keys, each once, a value each, 256 KiB at most. */
export const annotationRowsSchema = z
  .array(z.object({ key: z.string(), value: z.string() }))
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      const problem = annotationKeyProblem(row.key);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [index, 'key'] });
      else if (seen.has(row.key)) {
        ctx.addIssue({ code: 'custom', message: 'This key is already used', path: [index, 'key'] });
      }
      seen.add(row.key);
      // An empty value means "delete this key" to the server; removing the row says that here.
      if (row.value === '') {
        ctx.addIssue({ code: 'custom', message: 'Value is required', path: [index, 'value'] });
      }
    });
    const size = annotationsByteSize(rows);
    if (size > MAX_ANNOTATIONS_BYTES) {
      ctx.addIssue({
        code: 'custom',
        message: `Annotations take ${String(size)} bytes; the limit is 256 KiB (${String(MAX_ANNOTATIONS_BYTES)} bytes)`,
      });
    }
  });

export function toAnnotationRows(annotations: Readonly<Record<string, string>> | undefined) {
  return Object.entries(annotations ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]): AnnotationRow => ({ key, value }));
}

// Object.fromEntries defines own properties, so no key (not even `__proto__`) can reach a prototype.
export function toAnnotationsRecord(rows: readonly AnnotationRow[]): Record<string, string> {
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/**
 * The update that turns `before` into `rows` under the server's merge semantics: new and changed
 * keys with their values, removed keys with `""` (which deletes them). Empty when nothing changed.
 * Maps, not `key in object`: a key such as `constructor` must not be found on Object.prototype.
 */
export function annotationsPatch(
  before: Readonly<Record<string, string>> | undefined,
  rows: readonly AnnotationRow[],
): Record<string, string> {
  const previous = new Map(Object.entries(before ?? {}));
  const after = new Map(rows.map((row) => [row.key, row.value]));
  const patch: [string, string][] = [];
  for (const [key, value] of after) {
    if (previous.get(key) !== value) patch.push([key, value]);
  }
  for (const key of previous.keys()) {
    if (!after.has(key)) patch.push([key, '']);
  }
  return Object.fromEntries(patch);
}

/**
 * The annotation row a server message names ("Key name segment 'x' …", "… for key: 'x'"), and
 * whether the message is about its key or its value.
 */
export function annotationFieldInCause(
  cause: string,
  rows: readonly AnnotationRow[],
): { index: number; part: 'key' | 'value' } | undefined {
  const valueKey = /for key: '([^']*)'/.exec(cause)?.[1];
  if (valueKey !== undefined) {
    const index = rows.findIndex((row) => row.key === valueKey);
    return index < 0 ? undefined : { index, part: 'value' };
  }
  const keyMatch = /Key '([^']*)'|Key (?:name|prefix) segment '([^']*)'/.exec(cause);
  if (!keyMatch) return undefined;
  const [, wholeKey, segment] = keyMatch;
  const index = rows.findIndex((row) =>
    wholeKey !== undefined ? row.key === wholeKey : row.key.split('/').includes(segment ?? ''),
  );
  return index < 0 ? undefined : { index, part: 'key' };
}

import type { ErrorCode } from '../errors/error-codes';
import { SandboxError, invalidArgument, invalidField } from '../errors/sandbox-error';
import type { LedgerState } from '../ledger-state';
import { decodePageToken, encodePageToken } from '../store/page-token';
import {
  annotationsProblem,
  annotationsSize,
  MAX_ANNOTATIONS_BYTES,
  mergeAnnotations,
} from '../validation/annotations';
import { ledgerStringProblem } from '../validation/identifiers';

/** '' is the default IdP; anything else must be a LedgerString naming an existing config. */
export function checkIdentityProviderId(state: LedgerState, id: string) {
  if (id === '') return;
  const problem = ledgerStringProblem(id);
  if (problem) throw invalidField('identity_provider_id', problem);
  if (!state.idps.get(id)) {
    // The id is printed through the Scala case class's toString, hence `Id(…)` (§2.2).
    throw invalidArgument(`Provided identity_provider_id Id(${id}) has not been found.`);
  }
}

/** Syntax-only variant, for the validation step that runs before existence checks. */
export function checkIdentityProviderIdSyntax(id: string) {
  if (id === '') return;
  const problem = ledgerStringProblem(id);
  if (problem) throw invalidField('identity_provider_id', problem);
}

export function checkIdentityProviderExists(state: LedgerState, id: string) {
  if (id !== '' && !state.idps.get(id)) {
    throw invalidArgument(`Provided identity_provider_id Id(${id}) has not been found.`);
  }
}

export function checkAnnotations(
  annotations: Record<string, string>,
  fieldName: string,
  allowEmptyValues: boolean,
) {
  const problem = annotationsProblem(annotations, { allowEmptyValues, fieldName });
  if (problem) throw invalidArgument(problem);
}

/** A non-empty resource version must parse as a long; empty means "no concurrency check". */
export function parseResourceVersion(raw: string, fieldName: string): number | undefined {
  if (raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalidField(fieldName, 'Invalid resource version number');
  return Number(raw);
}

/** FieldValidator.validatePageSize: absent means the default; 1 up to the maximum is allowed. */
export function validatePageSize(
  requested: number | null | undefined,
  { defaultSize, maxSize }: { defaultSize: number; maxSize: number },
) {
  if (requested === null || requested === undefined) return defaultSize;
  if (requested <= 0) {
    throw invalidArgument(`Requested page size must be positive, but got ${String(requested)}`);
  }
  if (requested > maxSize) {
    throw invalidArgument(
      `Requested page size must not exceed ${String(maxSize)}, but got ${String(requested)}`,
    );
  }
  return requested;
}

/**
 * The id a list resumes after: '' for the first page. A token that is not one of ours, or that
 * holds an id `isValidId` refuses, is INVALID_ARGUMENT (§2.6, §5.2).
 */
export function pageTokenAfter(token: string, isValidId: (id: string) => boolean): string {
  if (token === '') return '';
  const decoded = decodePageToken(token);
  if (decoded === undefined || !isValidId(decoded)) throw invalidArgument('Invalid page token');
  return decoded;
}

/** A full page may have more behind it: its last id is the next token; a short page ends the list. */
export function nextPageToken<T>(page: readonly T[], limit: number, idOf: (item: T) => string) {
  const last = page.at(-1);
  return page.length === limit && last !== undefined ? encodePageToken(idOf(last)) : '';
}

/** The party or user record an update names, as its errors list it in `resources`. */
export type UpdatedRecord = readonly [kind: 'PARTY' | 'USER', id: string];

/** Annotations merged as an update asks, refused with `code` past the shared size limit. */
export function mergeAnnotationsWithinLimit(
  current: Record<string, string>,
  update: Record<string, string>,
  code: ErrorCode,
  [kind, id]: UpdatedRecord,
): Record<string, string> {
  const merged = mergeAnnotations(current, update);
  if (annotationsSize(merged) > MAX_ANNOTATIONS_BYTES) {
    throw new SandboxError(
      code,
      `Maximum annotations size for ${kind.toLowerCase()} '${id}' has been exceeded`,
      { resources: [[kind, id]] },
    );
  }
  return merged;
}

/** An update that names a resource version fails with `code` when the record has moved on. */
export function checkResourceVersion(
  expected: number | undefined,
  actual: number,
  code: ErrorCode,
  [kind, id]: UpdatedRecord,
) {
  if (expected !== undefined && expected !== actual) {
    const noun = kind.toLowerCase();
    throw new SandboxError(
      code,
      `Update operation for ${noun} '${id}' failed due to a concurrent update to the same ${noun}`,
      { resources: [[kind, id]] },
    );
  }
}

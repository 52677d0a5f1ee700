import {
  firstDisallowedChar,
  isValidIdString,
  MAX_PARTY_HINT_LENGTH,
  PARTY_STRING,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
} from '@ledger-console/participant/identifiers';
import type { Path } from 'react-hook-form';
import { z } from 'zod';
import type { AllocatePartyRequest, PartyDetails } from '@/api/parties';
import type { ApiError } from '@/lib/errors/api-error';
import {
  annotationFieldInCause,
  annotationRowsSchema,
  annotationsPatch,
  toAnnotationRows,
  toAnnotationsRecord,
  type AnnotationRow,
} from '@/lib/forms/annotations-rules';

// ── party id hint ──────────────────────────────────────────────────────────────

/** The longest hint the participant accepts (Canton's UniqueIdentifier, §5.1). */
export { MAX_PARTY_HINT_LENGTH } from '@ledger-console/participant/identifiers';

/**
 * Why the participant would refuse `hint` as a party id hint, or undefined when it is fine. Empty
 * is fine: the participant then names the party `party-<uuid>`. Otherwise it must be a Daml party
 * string (ASCII letters, digits, `:`, `-`, `_` and space), without `::`, at most 185 characters.
 */
export function partyHintProblem(hint: string): string | undefined {
  const char = firstDisallowedChar(PARTY_STRING, hint);
  if (char !== undefined) {
    return `"${char}" is not allowed: use ASCII letters, digits, ":", "-", "_" and space`;
  }
  if (hint.includes('::')) {
    return 'A hint must not contain "::": the participant adds "::" and its namespace itself';
  }
  if (hint.length > MAX_PARTY_HINT_LENGTH) {
    return `At most ${String(MAX_PARTY_HINT_LENGTH)} characters (this has ${String(hint.length)})`;
  }
  return undefined;
}

/** `''` grants nobody; anything else must be a valid user id (the server checks it exists). */
function grantToUserProblem(userId: string): string | undefined {
  if (userId === '' || isValidIdString(USER_ID_STRING, userId)) return undefined;
  return userId.length > USER_ID_STRING.maxLength
    ? `A user id has at most ${String(USER_ID_STRING.maxLength)} characters`
    : `Not a user id: use ASCII letters, digits and ${USER_ID_SYMBOLS}`;
}

// ── allocate ───────────────────────────────────────────────────────────────────

/**
 * The allocate form. A synchronizer must be chosen only when the participant is connected to
 * several: with one, the participant uses it.
 */
export function allocatePartySchema({
  isSynchronizerRequired,
}: {
  isSynchronizerRequired: boolean;
}) {
  return z.object({
    partyIdHint: z.string().superRefine((hint, ctx) => {
      const problem = partyHintProblem(hint);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    identityProviderId: z.string(),
    synchronizerId: z
      .string()
      .refine((id) => !isSynchronizerRequired || id !== '', 'Choose a synchronizer'),
    userId: z.string().superRefine((userId, ctx) => {
      const problem = grantToUserProblem(userId);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    annotations: annotationRowsSchema,
  });
}

export type AllocatePartyValues = z.infer<ReturnType<typeof allocatePartySchema>>;

/** An empty form; an IdP admin's parties always go to its own IdP. */
export function emptyAllocatePartyValues(identityProviderId = ''): AllocatePartyValues {
  return {
    partyIdHint: '',
    identityProviderId,
    synchronizerId: '',
    userId: '',
    annotations: [],
  };
}

export function toAllocatePartyRequest(values: AllocatePartyValues): AllocatePartyRequest {
  return {
    partyIdHint: values.partyIdHint,
    identityProviderId: values.identityProviderId,
    synchronizerId: values.synchronizerId,
    userId: values.userId,
    localMetadata: { annotations: toAnnotationsRecord(values.annotations) },
  };
}

/**
 * The allocate form's field that a server error concerns. The participant reports most problems
 * as INVALID_ARGUMENT, so the cause decides: a duplicate ("Party already exists") or malformed
 * hint, an unknown user or IdP, an unknown synchronizer, an annotation.
 */
export function allocatePartyErrorField(
  error: ApiError,
  values: AllocatePartyValues,
): Path<AllocatePartyValues> | undefined {
  const cause = error.body.cause;
  const fieldName = error.body.context?.field_name;
  if (error.code === 'USER_NOT_FOUND' || cause.includes('Invalid user id')) return 'userId';
  if (
    /Party already exists|Invalid party ID/.test(cause) ||
    (values.partyIdHint !== '' && cause.includes(`Daml-LF Party "${values.partyIdHint}"`))
  ) {
    return 'partyIdHint';
  }
  if (
    fieldName === 'identity_provider_id' ||
    /Provided identity_provider_id .* not been found/.test(cause)
  ) {
    return 'identityProviderId';
  }
  if (/synchronizer/i.test(cause)) return 'synchronizerId';
  return annotationsField(cause, values.annotations);
}

// ── edit annotations ───────────────────────────────────────────────────────────

export const partyAnnotationsSchema = z.object({ annotations: annotationRowsSchema });

export type PartyAnnotationsValues = z.infer<typeof partyAnnotationsSchema>;

export function toPartyAnnotationsValues(party: PartyDetails): PartyAnnotationsValues {
  return { annotations: toAnnotationRows(party.localMetadata?.annotations) };
}

/**
 * The merge patch that turns the loaded annotations into the form's (removed keys as `""`), or
 * undefined when nothing changed.
 */
export function toPartyAnnotationsPatch(
  party: PartyDetails,
  values: PartyAnnotationsValues,
): Record<string, string> | undefined {
  const patch = annotationsPatch(party.localMetadata?.annotations, values.annotations);
  return Object.keys(patch).length === 0 ? undefined : patch;
}

export function partyAnnotationsErrorField(
  error: ApiError,
  values: PartyAnnotationsValues,
): Path<PartyAnnotationsValues> | undefined {
  if (error.code === 'MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED') return 'annotations';
  return annotationsField(error.body.cause, values.annotations);
}

// ── shared ─────────────────────────────────────────────────────────────────────

function annotationsField(
  cause: string,
  rows: readonly AnnotationRow[],
): `annotations.${number}.${'key' | 'value'}` | 'annotations' | undefined {
  if (/annotations from field .* larger than the limit/.test(cause)) return 'annotations';
  const field = annotationFieldInCause(cause, rows);
  return field ? `annotations.${field.index}.${field.part}` : undefined;
}

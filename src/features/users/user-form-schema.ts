import { USER_ID_STRING } from '@ledger-console/participant/identifiers';
import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { userIdProblem } from '@/lib/forms/user-id-rules';
import {
  toWireRight,
  type CreateUserRequest,
  type IdentityProviderMove,
  type UpdateUserRequest,
  type User,
} from '@/api/users';
import type { ApiError } from '@/lib/errors/api-error';
import {
  annotationFieldInCause,
  annotationRowsSchema,
  annotationsPatch,
  toAnnotationRows,
  toAnnotationsRecord,
  type AnnotationRow,
} from '@/lib/forms/annotations-rules';
import {
  emptyRightsValues,
  partiesInCause,
  partyIdProblem,
  partyRowInCause,
  rightsValuesSchema,
  toUserRightList,
} from './rights-form-schema';

// ── user id ────────────────────────────────────────────────────────────────────

export { USER_ID_SYMBOLS } from '@ledger-console/participant/identifiers';
export const MAX_USER_ID_LENGTH = USER_ID_STRING.maxLength;

export { userIdProblem };

const userIdSchema = z.string().superRefine((id, ctx) => {
  const problem = userIdProblem(id);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** `''` is "no primary party"; anything else must be a valid party string. */
const primaryPartySchema = z.string().superRefine((party, ctx) => {
  const problem = party === '' ? undefined : partyIdProblem(party);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

// ── create ─────────────────────────────────────────────────────────────────────

export const createUserSchema = z.object({
  userId: userIdSchema,
  primaryParty: primaryPartySchema,
  identityProviderId: z.string(),
  isDeactivated: z.boolean(),
  annotations: annotationRowsSchema,
  rights: rightsValuesSchema,
});

export type CreateUserValues = z.infer<typeof createUserSchema>;

/** An empty form; an IdP admin's users always go to its own IdP. */
export function emptyCreateUserValues(identityProviderId = ''): CreateUserValues {
  return {
    userId: '',
    primaryParty: '',
    identityProviderId,
    isDeactivated: false,
    annotations: [],
    rights: emptyRightsValues,
  };
}

/** One request creates the user and grants its rights. */
export function toCreateUserRequest(values: CreateUserValues): CreateUserRequest {
  return {
    user: {
      id: values.userId,
      primaryParty: values.primaryParty,
      isDeactivated: values.isDeactivated,
      identityProviderId: values.identityProviderId,
      metadata: { annotations: toAnnotationsRecord(values.annotations) },
    },
    rights: toUserRightList(values.rights).map(toWireRight),
  };
}

/**
 * The create form's field that a server error concerns, when its code, context or cause names one
 * (USER_ALREADY_EXISTS, INVALID_FIELD, the party or annotation key of an INVALID_ARGUMENT).
 */
export function createUserErrorField(
  error: ApiError,
  values: CreateUserValues,
): Path<CreateUserValues> | undefined {
  const fieldName = error.body.context?.field_name;
  if (error.code === 'USER_ALREADY_EXISTS') return 'userId';
  if (fieldName === 'id' || fieldName === 'user_id') return 'userId';
  if (fieldName === 'identity_provider_id') return 'identityProviderId';
  const party = partyFieldInCause(error.body.cause, values.primaryParty, values.rights);
  if (party) return party;
  if (/Provided identity_provider_id .* not been found/.test(error.body.cause)) {
    return 'identityProviderId';
  }
  return annotationsField(error.body.cause, values.annotations);
}

// ── edit profile ───────────────────────────────────────────────────────────────

export const userProfileSchema = z.object({
  primaryParty: primaryPartySchema,
  isDeactivated: z.boolean(),
  annotations: annotationRowsSchema,
});

export type UserProfileValues = z.infer<typeof userProfileSchema>;

export function toUserProfileValues(user: User): UserProfileValues {
  return {
    primaryParty: user.primaryParty ?? '',
    isDeactivated: user.isDeactivated ?? false,
    annotations: toAnnotationRows(user.metadata?.annotations),
  };
}

/**
 * A PATCH that changes exactly what the form changed: the update mask names only those fields,
 * annotations are sent as a merge patch (removed keys as `""`), and the loaded resourceVersion
 * makes the server refuse it if someone else changed the user meanwhile. Undefined when nothing
 * changed.
 */
export function toUpdateUserRequest(
  user: User,
  values: UserProfileValues,
): UpdateUserRequest | undefined {
  const paths: string[] = [];
  if (values.primaryParty !== (user.primaryParty ?? '')) paths.push('primary_party');
  if (values.isDeactivated !== (user.isDeactivated ?? false)) paths.push('is_deactivated');
  const annotations = annotationsPatch(user.metadata?.annotations, values.annotations);
  if (Object.keys(annotations).length > 0) paths.push('metadata.annotations');
  if (paths.length === 0) return undefined;
  return {
    user: {
      id: user.id,
      primaryParty: values.primaryParty,
      isDeactivated: values.isDeactivated,
      identityProviderId: user.identityProviderId ?? '',
      metadata: { resourceVersion: user.metadata?.resourceVersion ?? '', annotations },
    },
    updateMask: { paths, unknownFields: { fields: {} } },
  };
}

export function userProfileErrorField(
  error: ApiError,
  values: UserProfileValues,
): Path<UserProfileValues> | undefined {
  if (error.code === 'MAX_USER_ANNOTATIONS_SIZE_EXCEEDED') return 'annotations';
  if (partiesInCause(error.body.cause).includes(values.primaryParty)) return 'primaryParty';
  return annotationsField(error.body.cause, values.annotations);
}

// ── shared ─────────────────────────────────────────────────────────────────────

function partyFieldInCause(
  cause: string,
  primaryParty: string,
  rights: CreateUserValues['rights'],
): Path<CreateUserValues> | undefined {
  // The server checks the primary party before the rights' parties.
  if (primaryParty !== '' && partiesInCause(cause).includes(primaryParty)) return 'primaryParty';
  const row = partyRowInCause(cause, rights);
  return row === undefined ? undefined : `rights.partyRights.${row}.party`;
}

function annotationsField(
  cause: string,
  rows: readonly AnnotationRow[],
): `annotations.${number}.${'key' | 'value'}` | 'annotations' | undefined {
  if (/annotations from field .* larger than the limit/.test(cause)) return 'annotations';
  const field = annotationFieldInCause(cause, rows);
  return field ? `annotations.${field.index}.${field.part}` : undefined;
}

// ── move to another IdP ────────────────────────────────────────────────────────

export const identityProviderMoveSchema = z
  .object({ sourceIdentityProviderId: z.string(), targetIdentityProviderId: z.string() })
  .refine((move) => move.targetIdentityProviderId !== move.sourceIdentityProviderId, {
    message: 'Choose an identity provider other than the current one',
    path: ['targetIdentityProviderId'],
  });

export type IdentityProviderMoveValues = z.infer<typeof identityProviderMoveSchema>;

export function toIdentityProviderMove(
  userId: string,
  values: IdentityProviderMoveValues,
): IdentityProviderMove {
  return { userId, ...values };
}

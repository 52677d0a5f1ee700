import { z } from 'zod';
import type { AssignRequest, UnassignRequest } from '@/api/reassignment';
import { isValidIdString, USER_ID_STRING } from '@ledger-console/participant/identifiers';

/**
 * The "Move to synchronizer…" form: where to, as which stakeholder, and (when the session has no
 * user behind it, as on a participant without auth) as which user. Pure: schema and mappers.
 */

/** Canton's default administrator user: the participant always has it. */
export const DEFAULT_USER_ID = 'participant_admin';

const MAX_USER_ID_LENGTH = 128;

export function moveContractSchema({ isUserIdRequired }: { isUserIdRequired: boolean }) {
  return z.object({
    target: z.string().min(1, 'Choose the synchronizer to move it to'),
    submitter: z.string().min(1, 'Choose the stakeholder who moves it'),
    userId: z
      .string()
      .trim()
      .max(MAX_USER_ID_LENGTH, `At most ${String(MAX_USER_ID_LENGTH)} characters`)
      .refine((userId) => !isUserIdRequired || userId !== '', 'Required without a signed-in user')
      .refine(
        (userId) => userId === '' || isValidIdString(USER_ID_STRING, userId),
        "Not a valid user id: letters, digits and @^$.!`-#+'~_|:() only",
      ),
  });
}

export type MoveContractValues = z.infer<ReturnType<typeof moveContractSchema>>;

/** The first stakeholder the caller may act as, so a single choice needs no click. */
export function emptyMoveContractValues(
  submitters: readonly string[],
  targets: readonly string[],
  isUserIdRequired: boolean,
): MoveContractValues {
  return {
    target: targets.length === 1 ? (targets[0] ?? '') : '',
    submitter: submitters[0] ?? '',
    userId: isUserIdRequired ? DEFAULT_USER_ID : '',
  };
}

const submission = (values: MoveContractValues) => ({
  submitter: values.submitter,
  ...(values.userId.trim() === '' ? {} : { userId: values.userId.trim() }),
});

/** Step 1 of the move: unassign from where the contract is now. */
export function toUnassignRequest(
  contractId: string,
  source: string,
  values: MoveContractValues,
): UnassignRequest {
  return { contractId, source, target: values.target, ...submission(values) };
}

/** Step 2 (or completing a move someone began): assign where the unassignment pointed. */
export function toAssignRequest(
  inFlight: { reassignmentId: string; source: string; target: string },
  values: MoveContractValues,
): AssignRequest {
  const { reassignmentId, source, target } = inFlight;
  return { reassignmentId, source, target, ...submission(values) };
}

/**
 * The parties who may move the contract: its stakeholders the caller may act as (`any` for a
 * caller who may act as anyone), in the contract's order, signatories first.
 */
export function submittersFor(
  stakeholders: readonly string[],
  actAs: 'any' | readonly string[],
): string[] {
  const unique = [...new Set(stakeholders)];
  return actAs === 'any' ? unique : unique.filter((party) => actAs.includes(party));
}

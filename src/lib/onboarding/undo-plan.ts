import {
  userPath,
  type AllocateExternalPartyStep,
  type AllocatePartyStep,
  type CreateUserStep,
  type DeleteUserStep,
  type PlanStep,
} from './plan-steps';

export type UndoPlan = {
  /** What to run, in order (at most the deletion of the user this run created). */
  steps: DeleteUserStep[];
  /** What stays whatever is undone, plainly. */
  remains: string[];
};

/**
 * How to undo the steps that completed before a failure: delete the user if this run created it
 * (which also removes its rights and primary party). A user that existed before is not touched.
 * A party allocated by the run stays: parties cannot be deleted.
 */
export function undoPlan(done: readonly PlanStep[]): UndoPlan {
  const created = done.find((step): step is CreateUserStep => step.kind === 'create-user');
  const allocated = done.find(
    (step): step is AllocatePartyStep | AllocateExternalPartyStep =>
      step.kind === 'allocate-party' || step.kind === 'allocate-external-party',
  );
  const steps: DeleteUserStep[] = created
    ? [
        {
          kind: 'delete-user',
          method: 'DELETE',
          path: userPath(created.userId),
          summary: `Delete user ${created.userId}, created by this run (its rights go with it)`,
          userId: created.userId,
          identityProviderId: created.identityProviderId,
        },
      ]
    : [];
  const remains: string[] = [];
  if (allocated?.kind === 'allocate-external-party') {
    remains.push(
      `External party ${allocated.expectedParty} was allocated and remains: parties cannot be deleted in Canton. Its key stays with the person; onboarding again with the same hint and key reuses the party.`,
    );
  } else if (allocated) {
    remains.push(
      `Party ${allocated.expectedParty} was allocated and remains: parties cannot be deleted. Onboarding again with the same hint reuses it.`,
    );
  } else {
    remains.push('No party was created by this run.');
  }
  const userId = done[0]?.userId;
  if (!created && userId !== undefined) {
    const changed = done.filter(
      (step) => step.kind !== 'allocate-party' && step.kind !== 'allocate-external-party',
    );
    if (changed.length > 0) {
      remains.push(
        `User ${userId} existed before this run and is kept, with what this run changed: ${changed.map((step) => step.summary).join('; ')}.`,
      );
    }
  }
  if (created && !allocated) {
    remains.push(`Once user ${created.userId} is deleted, nothing of this run remains.`);
  }
  return { steps, remains };
}

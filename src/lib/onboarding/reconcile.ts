import { rightKey } from '@/lib/access/access-rights';
import { describeRight } from '@/lib/access/right-names';
import type { ExistingState } from './existing-state';
import { grantStep, idpName, type OnboardingPlan, type PlanStep } from './plan-steps';

/**
 * The plan adjusted to what exists, so running it twice changes nothing the second time: an
 * existing user is not created again, an existing party not allocated again, a primary party
 * already set not patched, and only the missing rights are granted. A party known but not of this
 * IdP, or a user whose primary party is another, is a conflict, never overridden.
 */
export function reconcile(plan: OnboardingPlan, existing: ExistingState): OnboardingPlan {
  const reused: string[] = [];
  const conflicts: string[] = [];
  const blockers: string[] = [];
  const userExists = existing.user !== undefined;
  if (existing.userInOtherIdentityProvider === true) {
    blockers.push(
      `The participant refuses to show user ${plan.userId} to ${idpName(plan.identityProviderId)}: the id is taken in another identity provider. Ask the person's provider for their subject there, or its admin to move the user.`,
    );
  }
  const held = new Set((existing.userRights ?? []).map(rightKey));

  if (existing.user) {
    reused.push(`User ${plan.userId} exists already: it is kept, not created again.`);
    if (
      plan.displayName !== undefined &&
      existing.user.displayName !== undefined &&
      existing.user.displayName !== plan.displayName
    ) {
      conflicts.push(
        `User ${plan.userId} already has the display name "${existing.user.displayName}"; it is left as it is.`,
      );
    }
  }

  if (existing.party) {
    if (existing.party.isLocal && existing.party.identityProviderId === plan.identityProviderId) {
      if (plan.allocatesParty) {
        reused.push(`Party ${plan.party} exists already in this identity provider: it is reused.`);
      }
    } else {
      blockers.push(
        plan.allocatesParty
          ? `Party ${plan.party} exists already but is not a party of ${idpName(plan.identityProviderId)} on this participant: choose another hint.`
          : `Party ${plan.party} is not a party of ${idpName(plan.identityProviderId)} on this participant: choose one of its parties.`,
      );
    }
  } else if (!plan.allocatesParty) {
    blockers.push(`Party ${plan.party} is not known to this participant.`);
  }

  const primary = existing.user?.primaryParty ?? '';
  const setsPrimary = primary === '';
  if (primary === plan.party) {
    reused.push(`${plan.party} is already the primary party of ${plan.userId}.`);
  } else if (primary !== '') {
    conflicts.push(
      `User ${plan.userId} has another primary party (${primary}); it is left as it is. Change it on the user's page if that is intended.`,
    );
  }

  const steps: PlanStep[] = [];
  let grantedByAllocation: string | undefined;
  for (const step of plan.steps) {
    if (step.kind === 'create-user' && !userExists) steps.push(step);
    if (
      (step.kind === 'allocate-party' || step.kind === 'allocate-external-party') &&
      existing.party === undefined
    ) {
      steps.push(step);
      if (step.userId !== undefined)
        grantedByAllocation = rightKey({ kind: 'CanActAs', party: plan.party });
    }
    if (step.kind === 'set-primary-party' && setsPrimary) steps.push(step);
  }
  const missing = plan.rights.filter(
    (right) => !held.has(rightKey(right)) && rightKey(right) !== grantedByAllocation,
  );
  const alreadyHeld = plan.rights.filter((right) => held.has(rightKey(right)));
  if (alreadyHeld.length > 0) {
    reused.push(`${plan.userId} already holds ${alreadyHeld.map(describeRight).join(', ')}.`);
  }
  if (missing.length > 0) steps.push(grantStep(plan.userId, plan.identityProviderId, missing));

  return {
    ...plan,
    steps,
    reused: [...plan.reused, ...reused],
    conflicts: [...plan.conflicts, ...conflicts],
    blockers: [...plan.blockers, ...blockers],
  };
}

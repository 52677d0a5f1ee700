import type { QueryClient } from '@tanstack/react-query';
import { partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { userQueries } from '@/api/users';
import type { DeleteUserStep, OnboardingPlan, PlanStep } from '@/lib/onboarding/plan-steps';
import { waitingStatuses, withStepStatus, type StepStatus } from '@/lib/onboarding/run-progress';
import { undoPlan, type UndoPlan } from '@/lib/onboarding/undo-plan';
import { runOnboardingStep } from './onboarding-step';

/** One undo step: done, or the participant's refusal. */
export type UndoneStep =
  { step: DeleteUserStep; ok: true } | { step: DeleteUserStep; ok: false; error: unknown };

export type RunFailure = {
  /** The step that failed, and why (the participant's error, or the engine's own check). */
  step: PlanStep;
  error: unknown;
  /** What undoing the steps done before it takes, and what remains whatever is undone. */
  undo: UndoPlan;
  undone: UndoneStep[];
};

export type RunState = {
  plan: OnboardingPlan;
  statuses: readonly StepStatus[];
  failure?: RunFailure;
};

export type RunOutcome =
  { ok: true; done: PlanStep[] } | { ok: false; done: PlanStep[]; failure: RunFailure };

export type RunOptions = {
  /** A user created (and kept) deactivated, as an import row may ask. */
  isDeactivated?: boolean;
  /** Told before and after each step, and once more with the failure once undone. */
  onChange?: (state: RunState) => void;
};

/**
 * Runs a plan's steps one after the other, in the planner's order, each through the API's
 * mutation (so the activity log records it). On a failure it stops, runs the planner's undo
 * (deleting the user this run created) and reports what was undone and what remains. The same
 * run for one person and for each row of a file; how many plans run at once, and cancelling
 * those not started, is the caller's: a plan once started runs to its end or its undo.
 */
export async function runOnboardingPlan(
  queryClient: QueryClient,
  plan: OnboardingPlan,
  { isDeactivated = false, onChange }: RunOptions = {},
): Promise<RunOutcome> {
  let statuses = waitingStatuses(plan.steps.length);
  const report = (failure?: RunFailure) => {
    onChange?.({ plan, statuses, ...(failure ? { failure } : {}) });
  };
  const done: PlanStep[] = [];
  for (const [index, step] of plan.steps.entries()) {
    statuses = withStepStatus(statuses, index, 'running');
    report();
    try {
      const outcome = await runOnboardingStep(queryClient, step, isDeactivated);
      if (step.kind === 'allocate-party' && outcome.party !== step.expectedParty) {
        // Allocated all the same: the report must name the party that really exists now.
        done.push({ ...step, expectedParty: outcome.party ?? step.expectedParty });
        throw new Error(
          `The participant gave the party the id ${outcome.party ?? '(none)'}, not the planned ${step.expectedParty}; the run stopped there.`,
        );
      }
      done.push(step);
      statuses = withStepStatus(statuses, index, 'done');
      report();
    } catch (error) {
      statuses = withStepStatus(statuses, index, 'failed');
      const undo = undoPlan(done);
      const undone: UndoneStep[] = [];
      for (const undoStep of undo.steps) {
        try {
          await runOnboardingStep(queryClient, undoStep);
          undone.push({ step: undoStep, ok: true });
        } catch (undoError) {
          undone.push({ step: undoStep, ok: false, error: undoError });
        }
      }
      const failure: RunFailure = { step, error, undo, undone };
      report(failure);
      return { ok: false, done, failure };
    }
  }
  return { ok: true, done };
}

/**
 * Refetches what runs change: users, parties, and the caller (whose own rights a run may have
 * changed). Once after a run, or after a file's runs, since the steps' mutations skip theirs.
 */
export function refreshAfterOnboarding(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [userQueries.all(), partyQueries.all(), sessionQueries.all()].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

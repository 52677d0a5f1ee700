import { describeError } from '@/lib/errors/api-error';
import {
  type DeleteUserStep,
  type OnboardingPlan,
  type PlanStep,
} from '@/lib/onboarding/plan-steps';
import { undoPlan, type UndoPlan } from '@/lib/onboarding/undo-plan';
import type { QueryClient } from '@tanstack/react-query';
import { runOnboardingStep } from '@/api/onboarding';

export type StepStatus = 'waiting' | 'running' | 'done' | 'failed' | 'not run';

export type RunFailure = {
  step: PlanStep;
  message: string;
  undo: UndoPlan;
  /** Per undo step: done, or why it failed. */
  undone: { step: DeleteUserStep; error?: string }[];
};

export type RunState = { plan: OnboardingPlan; statuses: StepStatus[]; failure?: RunFailure };

/**
 * Runs a plan's calls one after the other, reporting each step's status through `onChange`. On a
 * failure it stops, undoes what it can (deletes the user it created) and says precisely what
 * remains. Resolves to whether every call succeeded.
 */
export async function runPlan(
  queryClient: QueryClient,
  plan: OnboardingPlan,
  onChange: (state: RunState) => void,
): Promise<boolean> {
  let statuses: StepStatus[] = plan.steps.map(() => 'waiting');
  const report = (failure?: RunFailure) => {
    onChange({ plan, statuses, ...(failure ? { failure } : {}) });
  };
  const done: PlanStep[] = [];
  for (const [index, step] of plan.steps.entries()) {
    statuses = statuses.map((old, i) => (i === index ? 'running' : old));
    report();
    try {
      const outcome = await runOnboardingStep(queryClient, step);
      if (step.kind === 'allocate-party' && outcome.party !== step.expectedParty) {
        // Allocated all the same: the report must name the party that really exists now.
        done.push({ ...step, expectedParty: outcome.party ?? step.expectedParty });
        throw new Error(
          `The participant gave the party the id ${outcome.party ?? '(none)'}, not the planned ${step.expectedParty}; the run stopped there.`,
        );
      }
      done.push(step);
      statuses = statuses.map((old, i) => (i === index ? 'done' : old));
      report();
    } catch (error) {
      statuses = statuses.map((old, i) => (i === index ? 'failed' : i > index ? 'not run' : old));
      const undo = undoPlan(done);
      const undone: RunFailure['undone'] = [];
      for (const undoStep of undo.steps) {
        try {
          await runOnboardingStep(queryClient, undoStep);
          undone.push({ step: undoStep });
        } catch (undoError) {
          undone.push({ step: undoStep, error: describeError(undoError).message });
        }
      }
      report({ step, message: describeError(error).message, undo, undone });
      return false;
    }
  }
  return true;
}

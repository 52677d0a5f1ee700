import type { QueryClient } from '@tanstack/react-query';
import { readExistingState, type KnownUsers } from '@/api/onboarding/read-existing-state';
import { runOnboardingPlan } from '@/api/onboarding/run-onboarding-plan';
import { describeError, isApiError } from '@/lib/errors/api-error';
import type { OnboardingPlan, PlanStep } from '@/lib/onboarding/plan-steps';
import type { LookupOutcome } from './bulk-import-rows';

/**
 * One row through the onboarding engine (src/api/onboarding/): what exists for its plan, and its
 * run, each told in a sentence of the result file rather than thrown.
 */

/**
 * What exists of a plan's user and party. A refusal to read them (403) or any other failure is a
 * reason, not a crash: the row is then a conflict and the others go on.
 */
export async function lookUpRow(
  plan: OnboardingPlan,
  knownUsers?: KnownUsers,
): Promise<LookupOutcome> {
  try {
    const existing = await readExistingState(plan, knownUsers ? { knownUsers } : {});
    return { ok: true, existing };
  } catch (error) {
    if (isApiError(error) && error.status === 403) {
      return {
        ok: false,
        reason: `User ${plan.userId} exists outside your identity provider, or you may not read it (${describeError(error).title}).`,
      };
    }
    return { ok: false, reason: `Could not check what exists: ${errorText(error)}` };
  }
}

export type RowRunOutcome =
  { ok: true; done: PlanStep[] } | { ok: false; reason: string; done: PlanStep[] };

/**
 * Runs the row's plan. When a step fails the engine undoes what the row created; the reason says
 * which step failed, why, what was undone and what remains.
 */
export async function runRowPlan(
  queryClient: QueryClient,
  plan: OnboardingPlan,
  isDeactivated: boolean,
): Promise<RowRunOutcome> {
  const outcome = await runOnboardingPlan(queryClient, plan, { isDeactivated });
  if (outcome.ok) return outcome;
  const { step, error, undo, undone } = outcome.failure;
  const undoneText = undone.map((entry) =>
    entry.ok
      ? `Undone: ${entry.step.summary}.`
      : `Could not undo (${entry.step.summary}): ${errorText(entry.error)}. Delete user ${entry.step.userId} by hand.`,
  );
  return {
    ok: false,
    reason: [`${step.summary} failed: ${errorText(error)}.`, ...undoneText, ...undo.remains].join(
      ' ',
    ),
    done: outcome.done,
  };
}

/** The participant's code and cause, shortened: a result file cell, not a log. */
function errorText(error: unknown): string {
  const { title, message, code } = describeError(error);
  const text = `${code ? `${code}: ` : ''}${message || title}`;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

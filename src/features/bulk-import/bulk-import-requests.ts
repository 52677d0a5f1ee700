import type { QueryClient } from '@tanstack/react-query';
import { runOnboardingStep } from '@/api/onboarding';
import { getParty, partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import {
  getUser,
  listUserRights,
  listUsers,
  MAX_USERS_PAGE_SIZE,
  type User,
  toUserRights,
  userQueries,
} from '@/api/users';
import { ApiError, describeError } from '@/lib/errors/api-error';
import type { LookupOutcome } from './bulk-import-rows';
import { DISPLAY_NAME_ANNOTATION } from '@/lib/onboarding/onboarding-input';
import { type OnboardingPlan, type PlanStep } from '@/lib/onboarding/plan-steps';
import { undoPlan } from '@/lib/onboarding/undo-plan';

/**
 * The calls behind one row: reading what exists for its plan, and running the plan's steps in
 * the planner's order through the API's mutations (so the activity log records each call), with
 * the planner's undo when a step fails.
 */

/** At most this many pages of users are listed up front; beyond that each row asks alone. */
const MAX_LISTED_USER_PAGES = 10;

/**
 * The users of the caller's IdP (an IdP admin lists its own IdP's, a participant admin the
 * default IdP's, which is where each imports), by id; undefined when there are more than
 * {@link MAX_LISTED_USER_PAGES} pages or the listing fails. Listing once saves a lookup per row
 * for the many rows whose user does not exist yet.
 */
export async function listUsersOfCallerIdp(): Promise<ReadonlyMap<string, User> | undefined> {
  const users = new Map<string, User>();
  let pageToken = '';
  try {
    for (let page = 0; page < MAX_LISTED_USER_PAGES; page += 1) {
      const answer = await listUsers({ pageSize: MAX_USERS_PAGE_SIZE, pageToken });
      for (const user of answer.users ?? []) users.set(user.id, user);
      pageToken = answer.nextPageToken ?? '';
      if (pageToken === '') return users;
    }
  } catch {
    // Each row then looks its user up alone, and says so if that fails too.
    return undefined;
  }
  return undefined;
}

/**
 * What exists of a plan's user and party; a user of another IdP (403) is a reason, not a crash.
 * With `knownUsers` (the complete list of the IdP's users) a user missing from it is taken as
 * not existing in this IdP; should it exist in another, creating it fails at run time, as the
 * first step, so nothing is left behind.
 */
export async function lookUpRow(
  plan: OnboardingPlan,
  knownUsers?: ReadonlyMap<string, User>,
): Promise<LookupOutcome> {
  const ref = { userId: plan.userId, identityProviderId: plan.identityProviderId };
  try {
    const [user, party] = await Promise.all([
      knownUsers
        ? Promise.resolve(knownUsers.get(plan.userId))
        : getUser(ref).catch((error: unknown) => {
            if (error instanceof ApiError && error.status === 404) return undefined;
            throw error;
          }),
      getParty({ party: plan.party, identityProviderId: plan.identityProviderId }),
    ]);
    const rights = user ? toUserRights(await listUserRights(ref)) : [];
    const displayName = user?.metadata?.annotations?.[DISPLAY_NAME_ANNOTATION];
    return {
      ok: true,
      existing: {
        ...(user
          ? {
              user: {
                primaryParty: user.primaryParty ?? '',
                ...(displayName === undefined ? {} : { displayName }),
              },
              userRights: rights,
            }
          : {}),
        ...(party
          ? {
              party: {
                isLocal: party.isLocal ?? false,
                identityProviderId: party.identityProviderId ?? '',
              },
            }
          : {}),
      },
      ...(user ? { isDeactivated: user.isDeactivated ?? false } : {}),
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return {
        ok: false,
        reason: `User ${plan.userId} exists outside your identity provider, or you may not read it (${describeError(error).title}).`,
      };
    }
    return { ok: false, reason: `Could not check what exists: ${errorText(error)}` };
  }
}

export function invalidateAfterRun(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [userQueries.all(), partyQueries.all(), sessionQueries.all()].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

export type RowRunOutcome =
  { ok: true; done: PlanStep[] } | { ok: false; reason: string; done: PlanStep[] };

/**
 * Runs the plan's steps in order. When one fails, the planner's undo runs (deleting the user this
 * row created), and the reason says which step failed, why, and what remains.
 */
export async function runRowPlan(
  queryClient: QueryClient,
  plan: OnboardingPlan,
  isDeactivated: boolean,
): Promise<RowRunOutcome> {
  const done: PlanStep[] = [];
  for (const step of plan.steps) {
    try {
      await runOnboardingStep(queryClient, step, isDeactivated);
      done.push(step);
    } catch (error) {
      const undo = undoPlan(done);
      const undone: string[] = [];
      for (const undoStep of undo.steps) {
        try {
          await runOnboardingStep(queryClient, undoStep);
          undone.push(`Undone: ${undoStep.summary}.`);
        } catch (undoError) {
          undone.push(
            `Could not undo (${undoStep.summary}): ${errorText(undoError)}. Delete user ${undoStep.userId} by hand.`,
          );
        }
      }
      return {
        ok: false,
        reason: [`${step.summary} failed: ${errorText(error)}.`, ...undone, ...undo.remains].join(
          ' ',
        ),
        done,
      };
    }
  }
  return { ok: true, done };
}

/** The participant's code and cause, shortened: a result file cell, not a log. */
function errorText(error: unknown): string {
  const { title, message, code } = describeError(error);
  const text = `${code ? `${code}: ` : ''}${message || title}`;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

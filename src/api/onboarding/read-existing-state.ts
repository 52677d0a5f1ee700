import { getParty } from '@/api/parties';
import {
  getUser,
  listUserRights,
  listUsers,
  MAX_USERS_PAGE_SIZE,
  toUserRights,
  type User,
} from '@/api/users';
import { ApiError } from '@/lib/errors/api-error';
import { existingStateOf, type ExistingState } from '@/lib/onboarding/existing-state';
import type { OnboardingPlan } from '@/lib/onboarding/plan-steps';

/** At most this many pages of users are listed up front; beyond that each plan asks alone. */
const MAX_LISTED_USER_PAGES = 10;

/** The users of an IdP, by id, as {@link listUsersOfCallerIdp} lists them. */
export type KnownUsers = ReadonlyMap<string, User>;

export type ReadExistingStateOptions = {
  /**
   * The complete list of the IdP's users: a user missing from it is taken as not existing in
   * this IdP (should it exist in another, creating it fails at run time, as the first step, so
   * nothing is left behind).
   */
  knownUsers?: KnownUsers;
};

/**
 * What the participant already has of the plan's user and party, read right before planning or
 * running, for `reconcile`. A user of another IdP answers 403: reported, so the plan is blocked
 * rather than failing at the first call. Any other refusal is thrown.
 */
export async function readExistingState(
  plan: OnboardingPlan,
  { knownUsers }: ReadExistingStateOptions = {},
): Promise<ExistingState> {
  const ref = { userId: plan.userId, identityProviderId: plan.identityProviderId };
  const [lookup, party] = await Promise.all([
    knownUsers
      ? Promise.resolve({ user: knownUsers.get(plan.userId), elsewhere: false })
      : getUser(ref).then(
          (found) => ({ user: found, elsewhere: false }),
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 404) {
              return { user: undefined, elsewhere: false };
            }
            // The caller may manage users here (checked before planning), so a refusal means
            // the user belongs to another IdP (§2.4).
            if (error instanceof ApiError && error.status === 403) {
              return { user: undefined, elsewhere: true };
            }
            throw error;
          },
        ),
    getParty({ party: plan.party, identityProviderId: plan.identityProviderId }),
  ]);
  return existingStateOf({
    user: lookup.user,
    userInOtherIdentityProvider: lookup.elsewhere,
    userRights: lookup.user ? toUserRights(await listUserRights(ref)) : [],
    party,
  });
}

/**
 * The users of the caller's IdP (an IdP admin lists its own IdP's, a participant admin the
 * default IdP's, which is where each onboards), by id; undefined when there are more than
 * {@link MAX_LISTED_USER_PAGES} pages or the listing fails. Listing once saves a lookup per plan
 * for the many plans of a file whose user does not exist yet.
 */
export async function listUsersOfCallerIdp(): Promise<KnownUsers | undefined> {
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
    // Each plan then looks its user up alone, and says so if that fails too.
    return undefined;
  }
  return undefined;
}

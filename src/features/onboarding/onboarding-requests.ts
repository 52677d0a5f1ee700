import { getParty } from '@/api/parties';
import { getUser, listUserRights, toUserRights } from '@/api/users';
import { ApiError } from '@/lib/errors/api-error';
import { type ExistingState } from '@/lib/onboarding/existing-state';
import { DISPLAY_NAME_ANNOTATION } from '@/lib/onboarding/onboarding-input';
import { type OnboardingPlan } from '@/lib/onboarding/plan-steps';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * What the participant already has of the plan's user and party, read right before planning or
 * running, for {@link reconcile}. A user of another IdP answers 403: reported, so the plan is
 * blocked rather than failing at the first call.
 */
export async function readExistingState(plan: OnboardingPlan): Promise<ExistingState> {
  const ref = { userId: plan.userId, identityProviderId: plan.identityProviderId };
  const [lookup, party] = await Promise.all([
    getUser(ref).then(
      (found) => ({ user: found, elsewhere: false }),
      (error: unknown) => {
        if (isNotFound(error)) return { user: undefined, elsewhere: false };
        // The caller may manage users here (checked before planning), so a refusal means the
        // user belongs to another IdP (§2.4).
        if (error instanceof ApiError && error.status === 403) {
          return { user: undefined, elsewhere: true };
        }
        throw error;
      },
    ),
    getParty({ party: plan.party, identityProviderId: plan.identityProviderId }),
  ]);
  const { user } = lookup;
  const userInOtherIdentityProvider = lookup.elsewhere;
  const rights = user ? toUserRights(await listUserRights(ref)) : [];
  const displayName = user?.metadata?.annotations?.[DISPLAY_NAME_ANNOTATION];
  return {
    ...(userInOtherIdentityProvider ? { userInOtherIdentityProvider } : {}),
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
  };
}

import { allocateParty, getParty, type AllocatePartyRequest } from '@/api/parties';
import {
  createUser,
  deleteUser,
  getUser,
  grantUserRights,
  listUserRights,
  toUserRights,
  toWireRight,
  updateUser,
  type CreateUserRequest,
  type RightsChange,
  type UpdateUserRequest,
} from '@/api/users';
import { ApiError } from '@/lib/api-error';
import {
  DISPLAY_NAME_ANNOTATION,
  type DeleteUserStep,
  type ExistingState,
  type OnboardingPlan,
  type PlanStep,
} from '@/lib/onboarding-plan';

/**
 * The exact requests behind the planner's steps: what the plan view shows is what is sent, since
 * both come from here.
 */

export type StepRequest =
  | { kind: 'create-user'; body: CreateUserRequest }
  | { kind: 'allocate-party'; body: AllocatePartyRequest }
  | { kind: 'set-primary-party'; body: UpdateUserRequest }
  | { kind: 'grant-rights'; body: RightsChange & { rights: ReturnType<typeof toWireRight>[] } }
  | { kind: 'delete-user'; body: undefined };

export function stepRequest(step: PlanStep | DeleteUserStep): StepRequest {
  switch (step.kind) {
    case 'create-user':
      return {
        kind: step.kind,
        body: {
          user: {
            id: step.userId,
            primaryParty: '',
            isDeactivated: false,
            identityProviderId: step.identityProviderId,
            metadata: { resourceVersion: '', annotations: step.annotations },
          },
          rights: [],
        },
      };
    case 'allocate-party':
      return {
        kind: step.kind,
        body: {
          partyIdHint: step.partyIdHint,
          identityProviderId: step.identityProviderId,
          ...(step.userId === undefined ? {} : { userId: step.userId }),
        },
      };
    case 'set-primary-party':
      return {
        kind: step.kind,
        body: {
          user: {
            id: step.userId,
            primaryParty: step.party,
            isDeactivated: false,
            identityProviderId: step.identityProviderId,
            // Empty: no concurrency check, and the mask leaves annotations as they are.
            metadata: { resourceVersion: '', annotations: {} },
          },
          updateMask: { paths: ['primary_party'], unknownFields: { fields: {} } },
        },
      };
    case 'grant-rights':
      return {
        kind: step.kind,
        body: {
          userId: step.userId,
          identityProviderId: step.identityProviderId,
          rights: step.rights.map(toWireRight),
        },
      };
    case 'delete-user':
      return { kind: step.kind, body: undefined };
  }
}

/** What a completed step produced that later steps or the report need. */
export type StepOutcome = { party?: string };

/** Sends one step's request; throws the API's error when the participant refuses it. */
export async function runStep(step: PlanStep | DeleteUserStep): Promise<StepOutcome> {
  if (step.kind === 'delete-user') {
    await deleteUser({ userId: step.userId, identityProviderId: step.identityProviderId });
    return {};
  }
  const request = stepRequest(step);
  switch (request.kind) {
    case 'create-user':
      await createUser(request.body);
      return {};
    case 'allocate-party': {
      const details = await allocateParty(request.body);
      return { party: details.party };
    }
    case 'set-primary-party':
      await updateUser(request.body);
      return {};
    case 'grant-rights':
      await grantUserRights(request.body);
      return {};
    case 'delete-user':
      return {};
  }
}

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

import { MutationObserver, type MutationOptions, type QueryClient } from '@tanstack/react-query';
import type {
  AllocateExternalPartyStep,
  AllocatePartyStep,
  DeleteUserStep,
  PlanStep,
} from '@/lib/onboarding/plan-steps';
import { externalPartyMutations, type AllocateExternalPartyRequest } from '@/api/external-parties';
import { partyMutations, type AllocatePartyRequest } from '@/api/parties';
import {
  toWireRight,
  userMutations,
  type CreateUserRequest,
  type RightsChange,
  type UpdateUserRequest,
  type UserRef,
} from '@/api/users';

/**
 * The exact requests behind the onboarding planner's steps (src/lib/onboarding/plan-steps.ts), for
 * one person or a file of them: what the plan view shows is what is sent, since both come from here.
 */
export type StepRequest =
  | { kind: 'create-user'; body: CreateUserRequest }
  | { kind: 'allocate-party'; body: AllocatePartyRequest }
  | { kind: 'allocate-external-party'; body: AllocateExternalPartyRequest }
  | { kind: 'set-primary-party'; body: UpdateUserRequest }
  | { kind: 'grant-rights'; body: RightsChange & { rights: ReturnType<typeof toWireRight>[] } }
  | { kind: 'delete-user'; body: UserRef };

/** `isDeactivated`: a user created (and kept) deactivated, as an import row may ask. */
export function stepRequest(step: PlanStep | DeleteUserStep, isDeactivated = false): StepRequest {
  switch (step.kind) {
    case 'create-user':
      return {
        kind: step.kind,
        body: {
          user: {
            id: step.userId,
            primaryParty: '',
            isDeactivated,
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
          ...allocatedFor(step),
        },
      };
    case 'allocate-external-party':
      // Unsigned, the body is what would be sent once the signature is in; it is never sent so.
      return {
        kind: step.kind,
        body: {
          synchronizer: step.signed?.synchronizerId ?? '',
          onboardingTransactions: (step.signed?.topologyTransactions ?? []).map((transaction) => ({
            transaction,
          })),
          multiHashSignatures: [...(step.signed?.multiHashSignatures ?? [])],
          ...allocatedFor(step),
        },
      };
    case 'set-primary-party':
      return {
        kind: step.kind,
        body: {
          user: {
            id: step.userId,
            primaryParty: step.party,
            isDeactivated,
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
      return {
        kind: step.kind,
        body: { userId: step.userId, identityProviderId: step.identityProviderId },
      };
  }
}

/**
 * Where an allocation puts the party, and for whom: with a `userId` the participant also grants
 * that user CanActAs on it, so the field is left out when the plan does not want that.
 */
function allocatedFor(step: AllocatePartyStep | AllocateExternalPartyStep) {
  return {
    identityProviderId: step.identityProviderId,
    ...(step.userId === undefined ? {} : { userId: step.userId }),
  };
}

/** What a completed step produced that later steps or the report need. */
export type StepOutcome = { party?: string };

/**
 * Sends one step's request through the API's mutation (so the activity log records it, like any
 * admin change made here); throws the participant's error when it refuses.
 */
export async function runOnboardingStep(
  queryClient: QueryClient,
  step: PlanStep | DeleteUserStep,
  isDeactivated = false,
): Promise<StepOutcome> {
  const request = stepRequest(step, isDeactivated);
  switch (request.kind) {
    case 'create-user':
      await mutate(queryClient, userMutations.create(), request.body);
      return {};
    case 'allocate-party': {
      const details = await mutate(queryClient, partyMutations.allocate(), request.body);
      return { party: details.party };
    }
    case 'allocate-external-party': {
      if (step.kind !== 'allocate-external-party' || step.signed === undefined) {
        throw new Error(
          'The external party’s topology is not signed yet: the person’s signature is needed first.',
        );
      }
      const allocated = await mutate(queryClient, externalPartyMutations.allocate(), request.body);
      return { party: allocated.partyId };
    }
    case 'set-primary-party':
      await mutate(queryClient, userMutations.update(), request.body);
      return {};
    case 'grant-rights':
      await mutate(queryClient, userMutations.grantRights(), request.body);
      return {};
    case 'delete-user':
      await mutate(queryClient, userMutations.delete(), request.body);
      return {};
  }
}

/**
 * A mutation of the API's factory, run outside React. Its own invalidations are dropped: a run
 * makes many calls, and refetching the lists (and the caller) after each would slow it for
 * nothing; the caller refreshes once at the end.
 */
async function mutate<TData, TVariables>(
  queryClient: QueryClient,
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<TData> {
  const observer = new MutationObserver<TData, Error, TVariables>(queryClient, {
    ...options,
    meta: { ...options.meta, invalidates: [], errorDisplay: 'inline' },
  });
  try {
    return await observer.mutate(variables);
  } finally {
    observer.reset();
  }
}

import type { UserRight } from '@/lib/access/access-rights';
import { describeRight } from '@/lib/access/right-names';
import type { ExternalPartySigned, OnboardingProblem } from './onboarding-input';

/**
 * The steps of an onboarding plan, each one call with its method, path and a plain summary (what
 * the plan view shows and the runner sends), the plan that orders them, and the builders the
 * planner, `reconcile` and `undoPlan` share so a step reads the same wherever made.
 */

type StepBase = { method: 'POST' | 'PATCH' | 'DELETE'; path: string; summary: string };

export type CreateUserStep = StepBase & {
  kind: 'create-user';
  method: 'POST';
  userId: string;
  identityProviderId: string;
  annotations: Record<string, string>;
};

export type AllocatePartyStep = StepBase & {
  kind: 'allocate-party';
  method: 'POST';
  partyIdHint: string;
  identityProviderId: string;
  /** Set when the person needs CanActAs on it: allocation then grants it to this user (§5.1). */
  userId: string | undefined;
  /** `<hint>::<namespace>`: the id the participant will give it. */
  expectedParty: string;
};

export type AllocateExternalPartyStep = StepBase & {
  kind: 'allocate-external-party';
  method: 'POST';
  partyIdHint: string;
  identityProviderId: string;
  /** Set when the person needs CanActAs on it: allocation then grants it to this user. */
  userId: string | undefined;
  /** `<hint>::<key fingerprint>`. */
  expectedParty: string;
  /** Undefined until the person's signature is in: such a step cannot run yet. */
  signed: ExternalPartySigned | undefined;
};

export type SetPrimaryPartyStep = StepBase & {
  kind: 'set-primary-party';
  method: 'PATCH';
  userId: string;
  identityProviderId: string;
  party: string;
};

export type GrantRightsStep = StepBase & {
  kind: 'grant-rights';
  method: 'POST';
  userId: string;
  identityProviderId: string;
  rights: UserRight[];
};

export type DeleteUserStep = StepBase & {
  kind: 'delete-user';
  method: 'DELETE';
  userId: string;
  identityProviderId: string;
};

export type PlanStep =
  | CreateUserStep
  | AllocatePartyStep
  | AllocateExternalPartyStep
  | SetPrimaryPartyStep
  | GrantRightsStep;

export type OnboardingPlan = {
  userId: string;
  identityProviderId: string;
  displayName: string | undefined;
  /** The exact party id the person ends up with. */
  party: string;
  /** Whether this plan allocates the party (false: an existing party is used). */
  allocatesParty: boolean;
  /** Every right the person should hold when the plan has run. */
  rights: UserRight[];
  /** What runs, in this order. */
  steps: PlanStep[];
  /** What already exists and is reused, for the reviewer (after `reconcile`). */
  reused: string[];
  /** Differences the plan will not override silently (after `reconcile`). */
  conflicts: string[];
  /** Why the plan cannot run as it is (after `reconcile`); empty when it can. */
  blockers: string[];
};

export type PlanResult =
  { ok: true; plan: OnboardingPlan } | { ok: false; problems: OnboardingProblem[] };
export function userPath(userId: string, suffix = ''): string {
  return `/v2/users/${encodeURIComponent(userId)}${suffix}`;
}

export function externalStep(
  fields: Omit<AllocateExternalPartyStep, 'kind' | 'method' | 'path' | 'summary'>,
): AllocateExternalPartyStep {
  const { expectedParty: party, identityProviderId, userId, signed } = fields;
  const where =
    signed === undefined
      ? 'once the person has signed its topology'
      : `on ${signed.synchronizerId}`;
  return {
    ...fields,
    kind: 'allocate-external-party',
    method: 'POST',
    path: '/v2/parties/external/allocate',
    summary:
      userId === undefined
        ? `Allocate external party ${party} ${where} in ${idpName(identityProviderId)}, signed by the person's key (not for the user: that would grant Act as, which the chosen rights leave out)`
        : `Allocate external party ${party} ${where} in ${idpName(identityProviderId)} for user ${userId}, signed by the person's key, which also grants it Act as ${party}`,
  };
}

export function grantStep(
  userId: string,
  identityProviderId: string,
  rights: UserRight[],
): GrantRightsStep {
  return {
    kind: 'grant-rights',
    method: 'POST',
    path: userPath(userId, '/rights'),
    summary: `Grant ${rights.map(describeRight).join(', ')} to ${userId}`,
    userId,
    identityProviderId,
    rights,
  };
}

export function idpName(identityProviderId: string): string {
  return identityProviderId === ''
    ? 'the default identity provider'
    : `identity provider ${identityProviderId}`;
}

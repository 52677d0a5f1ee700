import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accessOf } from '@/lib/access/access-rights';
import { planOnboarding } from '@/lib/onboarding/onboarding-plan';
import type { OnboardingPlan } from '@/lib/onboarding/plan-steps';
import { MemoryStorage } from '@/testing/memory-storage';
import { createSandbox, routeFetchToSandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { listUsersOfCallerIdp, readExistingState } from './read-existing-state';

beforeEach(() => {
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});

function planFor(
  namespace: string,
  { identityProviderId = '', subject = 'dana' } = {},
): OnboardingPlan {
  const result = planOnboarding({
    subject,
    identityProviderId,
    party: { kind: 'new', hint: subject },
    rights: { kind: 'preset', preset: 'acts-as-own' },
    access: accessOf({
      kind: 'user',
      userId: 'admin',
      identityProviderId,
      rights: [
        identityProviderId === ''
          ? { kind: 'ParticipantAdmin' }
          : { kind: 'IdentityProviderAdmin' },
      ],
    }),
    participantNamespace: namespace,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

describe('reading what exists of a plan', () => {
  it('finds nothing on a fresh participant', async () => {
    const { sandbox } = routeFetchToSandbox();

    expect(await readExistingState(planFor(sandbox.state.namespace))).toEqual({});
  });

  it('reads the user (primary party, display name, deactivation), its rights and the party', async () => {
    const { sandbox } = routeFetchToSandbox();
    const steps = sandboxSteps(sandbox);
    const party = await steps.allocateParty('dana');
    await steps.createUser('dana', {
      primaryParty: party,
      isDeactivated: true,
      annotations: { 'ledger-console/display-name': 'Dana Doe' },
      rights: [{ kind: 'CanReadAs', party }],
    });

    expect(await readExistingState(planFor(sandbox.state.namespace))).toEqual({
      user: { primaryParty: party, displayName: 'Dana Doe', isDeactivated: true },
      userRights: [{ kind: 'CanReadAs', party }],
      party: { isLocal: true, identityProviderId: '' },
    });
  });

  it('takes a user missing from the known users as absent, without asking for it', async () => {
    const asked: string[] = [];
    const { sandbox } = routeFetchToSandbox({
      intercept: (request, sandboxFetch) => {
        if (request.method === 'GET') asked.push(new URL(request.url).pathname);
        return sandboxFetch(request);
      },
    });
    await sandboxSteps(sandbox).createUser('dana');

    const existing = await readExistingState(planFor(sandbox.state.namespace), {
      knownUsers: new Map(),
    });

    expect(existing).toEqual({});
    expect(asked.some((path) => path.startsWith('/v2/users'))).toBe(false);
  });

  it('tells a user of another identity provider apart, so the plan is blocked', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'read-existing-state-test' });
    routeFetchToSandbox({ sandbox });
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox, {
      identityProviderId: 'acme',
    });
    await sandboxSteps(sandbox, adminToken).createUser('ivan');

    const existing = await readExistingState(
      planFor(sandbox.state.namespace, { identityProviderId: 'acme', subject: 'ivan' }),
    );

    expect(existing).toEqual({ userInOtherIdentityProvider: true });
  });
});

describe('listing the caller’s users up front', () => {
  it('lists the users by id', async () => {
    const { sandbox } = routeFetchToSandbox();
    await sandboxSteps(sandbox).createUser('dana');

    const users = await listUsersOfCallerIdp();

    expect(users?.get('dana')).toMatchObject({ id: 'dana', isDeactivated: false });
    expect(users?.has('participant_admin')).toBe(true);
  });

  it('gives up when the listing fails, so each plan asks alone', async () => {
    routeFetchToSandbox({
      intercept: () => Promise.resolve(Response.json({ code: 'UNAVAILABLE' }, { status: 503 })),
    });

    expect(await listUsersOfCallerIdp()).toBeUndefined();
  });
});

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { accessOf } from '@/lib/access/access-rights';
import { ApiError } from '@/lib/errors/api-error';
import { type RightsPresetId } from '@/lib/onboarding/onboarding-input';
import { planOnboarding } from '@/lib/onboarding/onboarding-plan';
import type { OnboardingPlan } from '@/lib/onboarding/plan-steps';
import { reconcile } from '@/lib/onboarding/reconcile';
import type { StepStatus } from '@/lib/onboarding/run-progress';
import { routeFetchToSandbox, type NetworkIntercept } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { readExistingState } from './read-existing-state';
import { runOnboardingPlan } from './run-onboarding-plan';

// A sandbox without auth: the console calls it as a participant admin, into the default IdP.
const participantAdmin = accessOf({
  kind: 'user',
  userId: 'participant_admin',
  identityProviderId: '',
  rights: [{ kind: 'ParticipantAdmin' }],
});

function planFor(
  namespace: string,
  { subject = 'dana', preset = 'reads-own' }: { subject?: string; preset?: RightsPresetId } = {},
): OnboardingPlan {
  const result = planOnboarding({
    subject,
    displayName: 'Dana Doe',
    identityProviderId: '',
    party: { kind: 'new', hint: subject },
    rights: { kind: 'preset', preset },
    access: participantAdmin,
    participantNamespace: namespace,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

/** Refuses the first request that `matches`, as a busy participant would. */
function refuseOnce(matches: (method: string, path: string) => boolean): NetworkIntercept {
  let refused = false;
  return (request, sandboxFetch) => {
    if (!refused && matches(request.method, new URL(request.url).pathname)) {
      refused = true;
      return Promise.resolve(
        Response.json(
          { code: 'UNAVAILABLE', cause: 'The participant is busy', grpcCodeValue: 14 },
          { status: 503 },
        ),
      );
    }
    return sandboxFetch(request);
  };
}

describe('running an onboarding plan', () => {
  it('runs every step in the planner’s order, telling each status as it goes', async () => {
    const { sandbox } = routeFetchToSandbox();
    const plan = planFor(sandbox.state.namespace);
    const party = plan.party;
    const seen: StepStatus[][] = [];

    const outcome = await runOnboardingPlan(new QueryClient(), plan, {
      onChange: ({ statuses }) => seen.push([...statuses]),
    });

    expect(outcome).toEqual({ ok: true, done: plan.steps });
    expect(plan.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'allocate-party',
      'set-primary-party',
      'grant-rights',
    ]);
    expect(seen[0]).toEqual(['running', 'waiting', 'waiting', 'waiting']);
    expect(seen[1]).toEqual(['done', 'waiting', 'waiting', 'waiting']);
    expect(seen.at(-1)).toEqual(['done', 'done', 'done', 'done']);
    expect(sandbox.state.users.get('dana')).toMatchObject({
      primaryParty: party,
      isDeactivated: false,
      annotations: { 'ledger-console/display-name': 'Dana Doe' },
    });
    expect(sandbox.state.users.rights('dana')).toEqual([{ kind: 'CanReadAs', party }]);
  });

  it('creates the user deactivated when asked, as an import row may', async () => {
    const { sandbox } = routeFetchToSandbox();

    const outcome = await runOnboardingPlan(new QueryClient(), planFor(sandbox.state.namespace), {
      isDeactivated: true,
    });

    expect(outcome.ok).toBe(true);
    expect(sandbox.state.users.get('dana')).toMatchObject({ isDeactivated: true });
  });

  it('stops at a failure mid-way, deletes the user it created and names the party that remains', async () => {
    const { sandbox } = routeFetchToSandbox({
      intercept: refuseOnce((method, path) => method === 'PATCH' && path === '/v2/users/dana'),
    });
    const usersBefore = sandbox.state.users.page('', '', 1000).map((user) => user.id);
    const plan = planFor(sandbox.state.namespace);
    const states: { statuses: readonly StepStatus[]; failed: boolean }[] = [];

    const outcome = await runOnboardingPlan(new QueryClient(), plan, {
      onChange: ({ statuses, failure }) => states.push({ statuses, failed: failure !== undefined }),
    });

    if (outcome.ok) throw new Error('the run should have failed');
    const { failure } = outcome;
    expect(failure.step.kind).toBe('set-primary-party');
    expect(failure.error).toBeInstanceOf(ApiError);
    expect((failure.error as ApiError).status).toBe(503);
    expect(outcome.done.map((step) => step.kind)).toEqual(['create-user', 'allocate-party']);
    expect(failure.undone).toEqual([
      {
        step: expect.objectContaining({ kind: 'delete-user', userId: 'dana' }) as unknown,
        ok: true,
      },
    ]);
    expect(failure.undo.remains).toEqual([
      `Party ${plan.party} was allocated and remains: parties cannot be deleted. Onboarding again with the same hint reuses it.`,
    ]);
    // Told once more, with the failure, after the undo: the later steps never ran.
    expect(states.at(-1)).toEqual({
      statuses: ['done', 'done', 'failed', 'not run'],
      failed: true,
    });
    // The participant is as it was but for the party, which cannot be deleted.
    expect(sandbox.state.users.page('', '', 1000).map((user) => user.id)).toEqual(usersBefore);
    expect(sandbox.state.parties.get(plan.party)).toBeDefined();
  });

  it('keeps a user that existed before the run: a failure deletes nothing', async () => {
    const { sandbox } = routeFetchToSandbox({
      intercept: refuseOnce(
        (method, path) => method === 'POST' && path === '/v2/users/dana/rights',
      ),
    });
    const steps = sandboxSteps(sandbox);
    const party = await steps.allocateParty('dana');
    await steps.createUser('dana', { primaryParty: party });
    const planned = planFor(sandbox.state.namespace);
    const plan = reconcile(planned, await readExistingState(planned));
    expect(plan.steps.map((step) => step.kind)).toEqual(['grant-rights']);

    const outcome = await runOnboardingPlan(new QueryClient(), plan);

    if (outcome.ok) throw new Error('the run should have failed');
    expect(outcome.failure.undo.steps).toEqual([]);
    expect(outcome.failure.undone).toEqual([]);
    expect(sandbox.state.users.get('dana')).toMatchObject({ primaryParty: party });
    expect(sandbox.state.users.rights('dana')).toEqual([]);
  });

  it('reports an undo the participant refuses, and leaves that user for the admin', async () => {
    let refusals = 0;
    const { sandbox } = routeFetchToSandbox({
      intercept: (request, sandboxFetch) => {
        const path = new URL(request.url).pathname;
        const refused =
          (request.method === 'POST' && path === '/v2/parties') ||
          (request.method === 'DELETE' && path === '/v2/users/dana');
        if (!refused) return sandboxFetch(request);
        refusals += 1;
        return Promise.resolve(
          Response.json(
            { code: 'UNAVAILABLE', cause: 'The participant is busy', grpcCodeValue: 14 },
            { status: 503 },
          ),
        );
      },
    });

    const outcome = await runOnboardingPlan(new QueryClient(), planFor(sandbox.state.namespace));

    if (outcome.ok) throw new Error('the run should have failed');
    expect(refusals).toBe(2);
    expect(outcome.failure.step.kind).toBe('allocate-party');
    expect(outcome.failure.undone).toEqual([
      {
        step: expect.objectContaining({ kind: 'delete-user' }) as unknown,
        ok: false,
        error: expect.any(ApiError) as unknown,
      },
    ]);
    expect(outcome.failure.undo.remains).toContain('No party was created by this run.');
    expect(sandbox.state.users.get('dana')).toBeDefined();
  });

  it('stops when the participant gives the party another id than planned, naming the real one', async () => {
    const { sandbox } = routeFetchToSandbox({
      // A participant that does not keep the hint: the party gets another id.
      intercept: async (request, sandboxFetch) => {
        if (request.method !== 'POST' || new URL(request.url).pathname !== '/v2/parties') {
          return sandboxFetch(request);
        }
        const body = (await request.json()) as Record<string, unknown>;
        const renamed = { ...body, partyIdHint: `${String(body.partyIdHint)}-2` };
        return sandboxFetch(
          new Request(request.url, {
            method: 'POST',
            headers: request.headers,
            body: JSON.stringify(renamed),
          }),
        );
      },
    });
    const plan = planFor(sandbox.state.namespace, { preset: 'acts-as-own' });
    const real = `dana-2::${sandbox.state.namespace}`;

    const outcome = await runOnboardingPlan(new QueryClient(), plan);

    if (outcome.ok) throw new Error('the run should have failed');
    expect(outcome.failure.step.kind).toBe('allocate-party');
    expect(String(outcome.failure.error)).toContain(
      `gave the party the id ${real}, not the planned ${plan.party}`,
    );
    expect(outcome.done.at(-1)).toMatchObject({ kind: 'allocate-party', expectedParty: real });
    expect(outcome.failure.undo.remains[0]).toContain(`Party ${real} was allocated and remains`);
    expect(sandbox.state.users.get('dana')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { createSandbox, routeFetchToSandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { submitIouAs } from '@/testing/seed-traffic-load';
import { DEFAULT_TRAFFIC_LIMITS, readTrafficReport, type TrafficLimits } from './traffic';

const ADMIN = { kind: 'unidentified' } as const;

/** `count` Iou creates by each of `users` (created first), each acting as its own new party. */
async function seed(users: readonly string[], count: number) {
  const sandbox = createSandbox({ trafficCost: true });
  routeFetchToSandbox({ sandbox });
  const steps = sandboxSteps(sandbox);
  const costs: number[] = [];
  for (const user of users) {
    await steps.createUser(user);
    const party = await steps.allocateFreshParty(user);
    for (let i = 0; i < count; i++) {
      costs.push((await submitIouAs(sandbox, { token: '', party, userId: user })) ?? 0);
    }
  }
  return costs;
}

const read = (limits: Partial<TrafficLimits> = {}) =>
  readTrafficReport({
    window: 'all',
    scope: { kind: 'any-party' },
    caller: ADMIN,
    canListUsers: true,
    limits: { ...DEFAULT_TRAFFIC_LIMITS, ...limits },
  });

describe('readTrafficReport', () => {
  it('reads every user’s completions with their costs and root actions, in offset order', async () => {
    const costs = await seed(['ann', 'ben'], 3);
    const report = await read();
    expect(report.userIds).toEqual(['ann', 'ben', 'participant_admin']);
    expect(report.completions.map((completion) => completion.userId)).toEqual([
      ...Array<string>(3).fill('ann'),
      ...Array<string>(3).fill('ben'),
    ]);
    expect(report.completions.map((completion) => completion.paidTrafficCost)).toEqual(costs);
    expect(report.completions[0]?.actions).toEqual([
      { templateId: expect.stringMatching(/:Demo\.Iou:Iou$/) as unknown, choice: 'Create' },
    ]);
    expect(report.capped).toEqual({
      users: false,
      parties: false,
      completions: false,
      join: false,
    });
  });

  it('pages through completions and updates a page at a time', async () => {
    await seed(['ann'], 7);
    const report = await read({ pageSize: 2 });
    expect(report.completions).toHaveLength(7);
    expect(report.completions.every((completion) => completion.actions !== null)).toBe(true);
    expect(report.capped.join).toBe(false);
  });

  it('says which bound it reached: completions (keeping the window’s first), users, join pages', async () => {
    const costs = await seed(['ann', 'ben'], 4);
    const capped = await read({ completions: 5 });
    expect(capped.capped.completions).toBe(true);
    expect(capped.completions.map((completion) => completion.paidTrafficCost)).toEqual(
      costs.slice(0, 5),
    );
    const fewUsers = await read({ users: 1 });
    expect(fewUsers.userIds).toEqual(['ann']);
    expect(fewUsers.capped.users).toBe(true);
    const shortJoin = await read({ pageSize: 2, joinPages: 1 });
    expect(shortJoin.capped.join).toBe(true);
    expect(
      shortJoin.completions.filter((completion) => completion.actions === null),
    ).not.toHaveLength(0);
  });

  it('reads only the caller’s own completions for a user without ReadAsAnyParty', async () => {
    await seed(['ann', 'ben'], 1);
    const report = await readTrafficReport({
      window: 'day',
      scope: { kind: 'any-party' },
      caller: { kind: 'user', userId: 'ben', identityProviderId: '', rights: [] },
      canListUsers: true,
    });
    expect(report.userIds).toEqual(['ben']);
    expect(report.completions.map((completion) => completion.userId)).toEqual(['ben']);
  });
});

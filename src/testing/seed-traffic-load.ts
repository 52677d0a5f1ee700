import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';
import { seedUsers } from './seed-users';
import {
  createIou,
  openAccount,
  splitIou,
  transferIou,
  type Command,
} from '../../sandbox/src/scenarios/demo-commands';
import { createdContractIds } from '../../sandbox/src/scenarios/ledger-steps';

/** One command of the generated load, with what the cost model says it costs. */
export type PricedCommand = { user: string; template: string; choice: string; cost: number };

/**
 * Submits `commands` as `party` for `user`, first asking prepare what the same command costs
 * (the model's estimate of its confirmation request, what the submission then pays; the command
 * ids are of one length, since the id is part of what is measured).
 */
async function submitMeasured(
  sandbox: Sandbox,
  expected: PricedCommand[],
  {
    user,
    party,
    command,
    template,
    choice,
  }: {
    user: string;
    party: string;
    command: Command;
    template: string;
    choice: string;
  },
) {
  const steps = sandboxSteps(sandbox);
  const prepared = await steps.client.request<{
    costEstimation: { confirmationRequestTrafficCostEstimation: number };
  }>('POST', '/v2/interactive-submission/prepare', {
    body: {
      commands: [command],
      commandId: `load-${crypto.randomUUID()}`,
      actAs: [party],
      userId: user,
    },
  });
  expected.push({
    user,
    template,
    choice,
    cost: prepared.costEstimation.confirmationRequestTrafficCostEstimation,
  });
  return steps.submit([command], {
    actAs: [party],
    userId: user,
    commandId: `load-${crypto.randomUUID()}`,
  });
}

/** 30 commands by two users: Iou creates and splits, Account creates, Iou creates and transfers. */
export async function seedTrafficLoad(sandbox: Sandbox) {
  const steps = sandboxSteps(sandbox);
  const [alice, bob] = await Promise.all([
    steps.allocateFreshParty('alice'),
    steps.allocateFreshParty('bob'),
  ]);
  const [aliceUser = ''] = seedUsers(sandbox, 1, { prefix: 'alice' });
  const [bobUser = ''] = seedUsers(sandbox, 1, { prefix: 'bob' });
  const expected: PricedCommand[] = [];
  /** Submits `count` commands of one kind as one user; the contracts they create, in order. */
  const run = async (
    count: number,
    as: { user: string; party: string },
    kind: { template: string; choice: string; command: (i: number) => Command },
  ) => {
    const created: string[] = [];
    for (let i = 0; i < count; i++) {
      const transaction = await submitMeasured(sandbox, expected, {
        ...as,
        ...kind,
        command: kind.command(i),
      });
      created.push(...createdContractIds(transaction));
    }
    return created;
  };
  const asAlice = { user: aliceUser, party: alice };
  const asBob = { user: bobUser, party: bob };
  const aliceIous = await run(10, asAlice, {
    template: 'Iou',
    choice: 'Create',
    command: () => createIou({ issuer: alice, owner: alice, currency: 'USD', amount: '100.0' }),
  });
  await run(5, asAlice, {
    template: 'Iou',
    choice: 'Iou_Split',
    command: (i) => splitIou(aliceIous[i] ?? '', '10.0'),
  });
  await run(5, asBob, {
    template: 'Account',
    choice: 'Create',
    command: (i) => openAccount({ bank: bob, owner: bob, number: `ACC-${String(i)}` }),
  });
  const bobIous = await run(5, asBob, {
    template: 'Iou',
    choice: 'Create',
    command: () => createIou({ issuer: bob, owner: bob, currency: 'EUR', amount: '5.0' }),
  });
  await run(5, asBob, {
    template: 'Iou',
    choice: 'Iou_Transfer',
    command: (i) => transferIou(bobIous[i] ?? '', alice),
  });
  return { aliceUser, bobUser, expected };
}

/** One Iou created by a new party as the admin user: a command on a participant without cost. */
export async function seedOneCommand(sandbox: Sandbox): Promise<void> {
  const steps = sandboxSteps(sandbox);
  const party = await steps.allocateFreshParty('carol');
  await steps.submit([createIou({ issuer: party, owner: party, currency: 'USD', amount: '1.0' })], {
    actAs: [party],
  });
}

/** An Iou created by `party` for `userId`, signed with `token` (jwt mode); its paid cost. */
export async function submitIouAs(
  sandbox: Sandbox,
  { token, party, userId }: { token: string; party: string; userId: string },
): Promise<number | null> {
  const transaction = await sandboxSteps(sandbox, token).submit(
    [createIou({ issuer: party, owner: party, currency: 'USD', amount: '1.0' })],
    { actAs: [party], userId },
  );
  return transaction.paidTrafficCost ?? null;
}

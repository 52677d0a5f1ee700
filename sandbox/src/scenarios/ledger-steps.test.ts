import { describe, expect, it } from 'vitest';
import { createSandbox } from '../create-sandbox';
import { TEST_SECRET } from '../testing/tokens';
import { createFanout } from './demo-commands';
import { createLedgerClient, LedgerRequestError } from './ledger-client';
import { ledgerSteps } from './ledger-steps';

const inProcess = (sandbox = createSandbox(), token?: string) =>
  ledgerSteps(
    createLedgerClient({
      transport: (request) => sandbox.fetch(request),
      ...(token === undefined ? {} : { token }),
    }),
  );

describe('ledgerSteps', () => {
  it('issues an Iou and splits it: the split archives it and creates 30 and 70', async () => {
    const { issuer, owner, iouId, create, split, splitIds } = await inProcess().iouSplit();
    expect(issuer).toMatch(/^bank-[0-9a-f]{8}::/);
    expect(owner).toMatch(/^owner-[0-9a-f]{8}::/);
    expect(create.events[0]?.CreatedEvent?.contractId).toBe(iouId);
    expect(split.events.map((event) => Object.keys(event)[0])).toEqual([
      'ExercisedEvent',
      'CreatedEvent',
      'CreatedEvent',
    ]);
    expect(split.events[0]?.ExercisedEvent?.contractId).toBe(iouId);
    expect(splitIds.every((id) => id !== '')).toBe(true);
  });

  it('runs a Fanout of known size in one transaction', async () => {
    const transaction = await inProcess().fanout({ width: 3, depth: 1 });
    // The create, the exercise and three children.
    expect(transaction.events).toHaveLength(5);
  });

  it('throws the status and body of a refused request', async () => {
    const steps = inProcess();
    await steps.createUser('twice');
    const error = await steps.createUser('twice').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerRequestError);
    expect(error).toMatchObject({ method: 'POST', path: '/v2/users', status: 409 });
    expect((error as LedgerRequestError).body).toContain('USER_ALREADY_EXISTS');
  });

  it('sends the client token, and a per-submission one instead when given', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    await expect(inProcess(sandbox).ledgerEnd()).rejects.toMatchObject({ status: 401 });
    const admin = await inProcess(sandbox).mintToken('participant_admin');
    const steps = inProcess(sandbox, admin);
    const party = await steps.allocateFreshParty('holder');
    await steps.createUser('holder-user', { rights: [{ kind: 'CanActAs', party }] });
    const token = await steps.mintToken('holder-user');
    const { updateId } = await steps.submitAndWait([createFanout(party, 'x')], {
      actAs: [party],
      userId: 'holder-user',
      token,
    });
    expect(updateId).toMatch(/^1220/);
  });
});

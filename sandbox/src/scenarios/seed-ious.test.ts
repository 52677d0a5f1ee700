import { describe, expect, it } from 'vitest';
import { createSandbox } from '../create-sandbox';
import { createLedgerClient } from './ledger-client';
import { ledgerSteps } from './ledger-steps';
import { seedActiveIous } from './seed-ious';

type ActiveContract = {
  contractEntry: {
    JsActiveContract: {
      createdEvent: { templateId: string; createArgument: Record<string, unknown> };
    };
  };
};

const inProcess = () => {
  const sandbox = createSandbox();
  return ledgerSteps(createLedgerClient({ transport: (request) => sandbox.fetch(request) }));
};

const activeIous = (steps: ReturnType<typeof inProcess>, party: string, offset: number) =>
  steps.client.request<ActiveContract[]>('POST', '/v2/state/active-contracts', {
    body: {
      activeAtOffset: offset,
      eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false },
    },
  });

describe('seedActiveIous', () => {
  it('puts N active Ious for the owner on the ledger, batchSize per transaction', async () => {
    const steps = inProcess();
    const [issuer, owner] = await Promise.all([
      steps.allocateFreshParty('bank'),
      steps.allocateFreshParty('holder'),
    ]);
    const before = await steps.ledgerEnd();
    const seeded = await seedActiveIous(steps, {
      owner,
      issuer,
      count: 25,
      batchSize: 10,
      amount: '5.0',
    });
    expect(seeded.updateIds).toHaveLength(3);
    expect(seeded.ledgerEnd).toBe(before + 3);
    const contracts = await activeIous(steps, owner, seeded.ledgerEnd);
    // Only the Ious: the issuance that made them was consumed in the same transaction.
    expect(contracts).toHaveLength(25);
    for (const { contractEntry } of contracts) {
      const { templateId, createArgument } = contractEntry.JsActiveContract.createdEvent;
      expect(templateId).toMatch(/:Demo\.Iou:Iou$/);
      expect(createArgument).toMatchObject({ issuer, owner, amount: '5.0000000000' });
    }
  });

  it('refuses a batch above the demo choice limit before submitting anything', async () => {
    const steps = inProcess();
    const owner = await steps.allocateFreshParty('holder');
    await expect(seedActiveIous(steps, { owner, count: 1, batchSize: 50_001 })).rejects.toThrow(
      RangeError,
    );
    expect(await steps.ledgerEnd()).toBe(1);
  });

  it('is refused by the ledger when the submitter is not the issuer', async () => {
    const steps = inProcess();
    const [issuer, owner] = await Promise.all([
      steps.allocateFreshParty('bank'),
      steps.allocateFreshParty('holder'),
    ]);
    // The issuance names the bank as signatory, so only the bank may create it.
    await expect(
      steps.submitAndWait(
        [
          {
            CreateCommand: {
              templateId: '#sandbox-demo:Demo.Iou:IouIssuance',
              createArguments: { issuer, owner, currency: 'USD', amount: '1.0', count: '3' },
            },
          },
        ],
        { actAs: [owner] },
      ),
    ).rejects.toMatchObject({ status: 400 });
  });
});

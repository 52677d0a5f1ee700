import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { decodePreparedTransaction } from '@canton-network/core-tx-visualizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardExternalParty } from '../scenarios/external-party';
import { createLedgerClient } from '../scenarios/ledger-client';
import { createTestSandbox, expectError, type TestSandbox } from '../testing/test-client';
import { IOU } from '../testing/ledger-history';

// Interactive submission on a participant connected to two synchronizers: the prepared
// transaction names the synchronizer routing chose, and execution commits there.

let t: TestSandbox;
let party = '';
let fingerprint = '';
const { privateKey } = generateKeyPairSync('ed25519');
let [syncA, syncB] = ['', ''];

beforeAll(async () => {
  t = createTestSandbox({ synchronizers: ['A', 'B'] });
  [syncA = '', syncB = ''] = t.state.synchronizerIds;
  const client = createLedgerClient({ transport: (request) => t.sandbox.fetch(request) });
  // The same key hosts the party on both synchronizers, as a wallet onboarding twice would.
  for (const synchronizerId of [syncA, syncB]) {
    ({ partyId: party, fingerprint } = await onboardExternalParty(client, 'wallet', privateKey, {
      synchronizerId,
    }));
  }
});
afterAll(() => {
  t.close();
});

async function prepare(command: unknown, synchronizerId = '') {
  const response = await t.post('/v2/interactive-submission/prepare', {
    commands: [command],
    commandId: `c-${randomUUID()}`,
    actAs: [party],
    userId: 'participant_admin',
    synchronizerId,
  });
  return response;
}

async function executeAndWait(prepared: {
  preparedTransaction: string;
  preparedTransactionHash: string;
}) {
  return t.post('/v2/interactive-submission/executeAndWaitForTransaction', {
    preparedTransaction: prepared.preparedTransaction,
    partySignatures: {
      signatures: [
        {
          party,
          signatures: [
            {
              format: 'SIGNATURE_FORMAT_CONCAT',
              signature: sign(
                null,
                Buffer.from(prepared.preparedTransactionHash, 'base64'),
                privateKey,
              ).toString('base64'),
              signedBy: fingerprint,
              signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
            },
          ],
        },
      ],
    },
    submissionId: randomUUID(),
    userId: 'participant_admin',
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    deduplicationPeriod: { Empty: {} },
  });
}

const createIou = {
  CreateCommand: {
    templateId: IOU,
    createArguments: { issuer: '', owner: '', currency: 'USD', amount: '5', observers: [] },
  },
};
const iouOf = (owner: string) => ({
  CreateCommand: {
    ...createIou.CreateCommand,
    createArguments: { ...createIou.CreateCommand.createArguments, issuer: owner, owner },
  },
});

describe('interactive submission across two synchronizers', () => {
  it('names the prescribed synchronizer in the prepared transaction and commits there', async () => {
    const prepared = await prepare(iouOf(party), syncB);
    expect(prepared.status, prepared.text).toBe(200);
    const decoded = decodePreparedTransaction(prepared.json.preparedTransaction);
    expect(decoded.metadata?.synchronizerId).toBe(syncB);
    const executed = await executeAndWait(prepared.json);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.json.transaction.synchronizerId).toBe(syncB);
  });

  it('routes an exercise to where its input is assigned, and refuses to move it for the party', async () => {
    const created = await executeAndWait((await prepare(iouOf(party), syncA)).json);
    expect(created.status, created.text).toBe(200);
    const contractId = created.json.transaction.events[0].CreatedEvent.contractId as string;
    const split = {
      ExerciseCommand: {
        templateId: IOU,
        contractId,
        choice: 'Iou_Split',
        choiceArgument: { splitAmount: '1' },
      },
    };
    // Prescribing the other synchronizer would need the input reassigned first: nobody may do
    // that on an external party's behalf.
    expectError(await prepare(split, syncB), 400, 'NO_SYNCHRONIZER_FOR_SUBMISSION');
    const routed = await prepare(split);
    expect(routed.status, routed.text).toBe(200);
    expect(
      decodePreparedTransaction(routed.json.preparedTransaction).metadata?.synchronizerId,
    ).toBe(syncA);
    const executed = await executeAndWait(routed.json);
    expect(executed.status, executed.text).toBe(200);
    expect(executed.json.transaction.synchronizerId).toBe(syncA);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRMATION_REQUEST_OVERHEAD_BYTES,
  READ_VS_WRITE_SCALING_FACTOR,
} from '../ledger/interactive/cost-estimation';
import { onboardExternalParty, signHash, type ExternalParty } from '../testing/external-party';
import { create, exercise, iou } from '../testing/json-commands';
import { IOU } from '../testing/ledger-history';
import { checkSchema } from '../testing/spec-conformance';
import { createTestSandbox, type TestSandbox } from '../testing/test-client';

/**
 * `--traffic-cost`: the paid cost on completions and transactions, and prepare's estimate, from
 * one model (cost-estimation.ts), so the two agree for the same command.
 */

type CostEstimation = {
  confirmationRequestTrafficCostEstimation: number;
  confirmationResponseTrafficCostEstimation: number;
  totalTrafficCostEstimation: number;
};

let t: TestSandbox;
let alice = '';
let bob = '';
let ext: ExternalParty;
let commandNumber = 0;
/** Command ids of one length: the command id is part of what is measured. */
const nextCommandId = (prefix: string) => `${prefix}-${String(1000 + ++commandNumber)}`;

async function allocate(sandbox: TestSandbox, hint: string) {
  const response = await sandbox.post('/v2/parties', { partyIdHint: hint });
  expect(response.status, response.text).toBe(200);
  return response.json.partyDetails.party as string;
}

async function estimate(sandbox: TestSandbox, commands: unknown[], actAs: string[]) {
  const response = await sandbox.post('/v2/interactive-submission/prepare', {
    commands,
    commandId: nextCommandId('prep'),
    actAs,
    userId: 'participant_admin',
  });
  expect(response.status, response.text).toBe(200);
  return response.json as {
    preparedTransaction: string;
    preparedTransactionHash: string;
    costEstimation?: CostEstimation;
  };
}

const flatFormat = (party: string) => ({
  eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: true },
  transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
});

async function submit(sandbox: TestSandbox, commands: unknown[], actAs: string[]) {
  const response = await sandbox.post('/v2/commands/submit-and-wait-for-transaction', {
    commands: { commands, commandId: nextCommandId('subm'), actAs, userId: 'participant_admin' },
    transactionFormat: flatFormat(actAs[0] ?? ''),
  });
  expect(response.status, response.text).toBe(200);
  return response.json.transaction as {
    updateId: string;
    offset: number;
    paidTrafficCost: number | null;
    events: { CreatedEvent?: { contractId: string } }[];
  };
}

async function completionAt(sandbox: TestSandbox, offset: number, party: string) {
  const response = await sandbox.post('/v2/commands/completions?stream_idle_timeout_ms=10', {
    userId: 'participant_admin',
    parties: [party],
    beginExclusive: offset - 1,
  });
  expect(response.status, response.text).toBe(200);
  // The wire shape with a cost in it, as the OpenAPI document declares it.
  expect(checkSchema('CompletionStreamResponse', response.json[0])).toEqual([]);
  return response.json[0].completionResponse.Completion.value as {
    offset: number;
    paidTrafficCost: number | null;
  };
}

beforeAll(async () => {
  t = createTestSandbox({ trafficCost: true });
  alice = await allocate(t, 'alice');
  bob = await allocate(t, 'bob');
  ext = await onboardExternalParty(t, 'ext');
});

afterAll(() => {
  t.close();
});

describe('with --traffic-cost', () => {
  it('estimates on prepare: request bytes and signatures × (1 + 2 recipients × 2%), a fixed response', async () => {
    const prepared = await estimate(t, [create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const bytes = BigInt(Buffer.from(prepared.preparedTransaction, 'base64').length);
    // One Ed25519 signature (64 bytes): the external party's threshold of its keys.
    const size = bytes + 64n + CONFIRMATION_REQUEST_OVERHEAD_BYTES;
    const request = Number(size + (size * 2n * READ_VS_WRITE_SCALING_FACTOR) / 10_000n);
    expect(prepared.costEstimation).toMatchObject({
      confirmationRequestTrafficCostEstimation: request,
      confirmationResponseTrafficCostEstimation: 522,
      totalTrafficCostEstimation: request + 522,
    });
    const disabled = await t.post('/v2/interactive-submission/prepare', {
      commands: [create(IOU, iou(ext.party, ext.party))],
      commandId: nextCommandId('prep'),
      actAs: [ext.party],
      estimateTrafficCost: { disabled: true },
    });
    expect(disabled.json.costEstimation).toBeUndefined();
  });

  it('charges a submission what prepare estimates for its confirmation request', async () => {
    const createIou = [create(IOU, iou(alice, alice, '100', [bob]))];
    const estimated = await estimate(t, createIou, [alice]);
    const created = await submit(t, createIou, [alice]);
    expect(created.paidTrafficCost).toBe(
      estimated.costEstimation?.confirmationRequestTrafficCostEstimation,
    );
    // An exercise that creates a contract: measured with the new contract's unsuffixed id.
    const cid = created.events[0]?.CreatedEvent?.contractId ?? '';
    const transfer = [exercise(IOU, cid, 'Iou_Transfer', { newOwner: bob })];
    const transferEstimate = await estimate(t, transfer, [alice]);
    const transferred = await submit(t, transfer, [alice]);
    expect(transferred.paidTrafficCost).toBe(
      transferEstimate.costEstimation?.confirmationRequestTrafficCostEstimation,
    );
    expect(transferred.paidTrafficCost).toBeGreaterThan(created.paidTrafficCost ?? 0);
  });

  it('reports the paid cost on the completion and on the transaction for the submitting party only', async () => {
    const { updateId, offset, paidTrafficCost } = await submit(
      t,
      [create(IOU, iou(alice, alice, '7', [bob]))],
      [alice],
    );
    expect(paidTrafficCost).toBeGreaterThan(1024);
    expect((await completionAt(t, offset, alice)).paidTrafficCost).toBe(paidTrafficCost);
    const byId = async (party: string, shape: string) => {
      const response = await t.post('/v2/updates/update-by-id', {
        updateId,
        updateFormat: {
          includeTransactions: { ...flatFormat(party), transactionShape: shape },
        },
      });
      expect(response.status, response.text).toBe(200);
      return response.json.update.Transaction.value.paidTrafficCost as number | null;
    };
    expect(await byId(alice, 'TRANSACTION_SHAPE_ACS_DELTA')).toBe(paidTrafficCost);
    expect(await byId(alice, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')).toBe(paidTrafficCost);
    // Bob is only an observer: a query for a non-submitting party gets no cost.
    expect(await byId(bob, 'TRANSACTION_SHAPE_ACS_DELTA')).toBeNull();
    const listed = await t.post('/v2/updates?stream_idle_timeout_ms=10', {
      beginExclusive: offset - 1,
      endInclusive: offset,
      updateFormat: { includeTransactions: flatFormat(alice) },
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json[0].update.Transaction.value.paidTrafficCost).toBe(paidTrafficCost);
    const legacy = await t.post('/v2/updates/transaction-by-offset', {
      offset,
      requestingParties: [alice],
    });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.json.transaction.paidTrafficCost).toBe(paidTrafficCost);
    expect(checkSchema('JsTransaction', legacy.json.transaction)).toEqual([]);
  });

  it('charges an externally signed transaction for its prepared bytes and the signatures sent', async () => {
    const prepared = await estimate(t, [create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const response = await t.post('/v2/interactive-submission/executeAndWait', {
      preparedTransaction: prepared.preparedTransaction,
      partySignatures: {
        signatures: [
          { party: ext.party, signatures: [signHash(ext, prepared.preparedTransactionHash)] },
        ],
      },
      submissionId: randomUUID(),
      userId: 'participant_admin',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      deduplicationPeriod: { Empty: {} },
    });
    expect(response.status, response.text).toBe(200);
    const completion = await completionAt(t, response.json.completionOffset as number, ext.party);
    expect(completion.paidTrafficCost).toBe(
      prepared.costEstimation?.confirmationRequestTrafficCostEstimation,
    );
  });
});

describe('without --traffic-cost', () => {
  it('reports no cost anywhere, like a participant without traffic control', async () => {
    const plain = createTestSandbox();
    try {
      const party = await allocate(plain, 'carol');
      const prepared = await estimate(plain, [create(IOU, iou(party, party))], [party]);
      expect(prepared.costEstimation).toBeUndefined();
      const transaction = await submit(plain, [create(IOU, iou(party, party))], [party]);
      expect(transaction.paidTrafficCost).toBeNull();
      expect((await completionAt(plain, transaction.offset, party)).paidTrafficCost).toBeNull();
    } finally {
      plain.close();
    }
  });
});

import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import {
  decodePreparedTransaction,
  hashPreparedTransaction,
} from '@canton-network/core-tx-visualizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareTrees } from '@/lib/transaction-tree/compare-trees';
import { describeNode, getNode } from '@/lib/transaction-tree/model';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import {
  decodePreparedSubmission,
  PREPARED_TRANSACTION_LIMITS,
  PreparedTransactionError,
  protoValueToJson,
  type PrepareAnswer,
} from './prepared-transaction-adapter';
import { ledgerEffectsFormat } from './commands';
import { type WireTransaction } from './transaction-tree-adapter';
import { fromLedgerEffectsTransaction } from './transaction-tree-builder';

const IOU = '#sandbox-demo:Demo.Iou:Iou';
const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';

let sandbox: Sandbox;
let alice = '';
let bob = '';
let counter = 0;

const iou = (amount: string) => ({
  issuer: alice,
  owner: alice,
  currency: 'USD',
  amount,
  observers: [bob],
});

async function prepare(command: unknown, actAs = [alice]): Promise<PrepareAnswer> {
  return sandboxSteps(sandbox).client.request<PrepareAnswer>(
    'POST',
    '/v2/interactive-submission/prepare',
    {
      body: {
        commands: [command],
        commandId: `adapter-${String(++counter)}`,
        actAs,
        userId: 'participant_admin',
      },
    },
  );
}

/** Submits as alice; the committed transaction in the LEDGER_EFFECTS shape. */
async function submit(command: unknown): Promise<WireTransaction> {
  const { transaction } = await sandboxSteps(sandbox).client.request<{
    transaction: WireTransaction;
  }>('POST', '/v2/commands/submit-and-wait-for-transaction', {
    body: {
      commands: {
        commands: [command],
        commandId: `adapter-${String(++counter)}`,
        actAs: [alice],
        userId: 'participant_admin',
      },
      transactionFormat: ledgerEffectsFormat([alice]),
    },
  });
  return transaction;
}

async function createIou(amount: string): Promise<string> {
  const [event] = (
    await submit({ CreateCommand: { templateId: IOU, createArguments: iou(amount) } })
  ).events;
  if (!event || !('CreatedEvent' in event)) throw new Error('no Iou created');
  return event.CreatedEvent.contractId;
}

/** The answer with its transaction re-encoded after `change`; its hash left as prepared. */
function changed(answer: PrepareAnswer, change: (tx: PreparedTransaction) => void): PrepareAnswer {
  const decoded = decodePreparedTransaction(answer.preparedTransaction);
  change(decoded);
  return {
    ...answer,
    preparedTransaction: Buffer.from(PreparedTransaction.toBinary(decoded)).toString('base64'),
  };
}

beforeAll(async () => {
  sandbox = createSandbox();
  [alice = '', bob = ''] = await Promise.all([
    sandboxSteps(sandbox).allocateParty('alice'),
    sandboxSteps(sandbox).allocateParty('bob'),
  ]);
});

describe('decodePreparedSubmission', () => {
  it('reads a prepared create as the tree a committed create gives, with a matching hash', async () => {
    const answer = await prepare({
      CreateCommand: { templateId: IOU, createArguments: iou('12.5') },
    });
    const preview = decodePreparedSubmission(answer);

    const [root] = preview.tree.roots;
    const node = getNode(preview.tree, root ?? -1);
    expect(node).toMatchObject({
      kind: 'created',
      nodeId: 0,
      templateId: expect.stringMatching(/^[0-9a-f]{64}:Demo\.Iou:Iou$/) as unknown,
      packageName: 'sandbox-demo',
      createArgument: { ...iou('12.5'), amount: expect.stringMatching(/^12\.5/) as unknown },
      signatories: [alice],
      observers: [bob],
    });
    expect(preview.hidden).toEqual([]);
    expect(preview.inputContracts).toEqual([]);
    expect(preview.metadata).toMatchObject({
      actAs: [alice],
      commandId: `adapter-${String(counter)}`,
    });
    expect(preview.metadata.synchronizerId).not.toBe('');

    // The hash, recomputed here, is the participant's and the Canton team's reference.
    expect(preview.hash).toMatchObject({
      scheme: 'HASHING_SCHEME_VERSION_V2',
      base64: answer.preparedTransactionHash,
      computed: answer.preparedTransactionHash,
      isMatching: true,
    });
    expect(preview.hash.hex).toBe(
      Buffer.from(answer.preparedTransactionHash, 'base64').toString('hex'),
    );
    expect(await hashPreparedTransaction(answer.preparedTransaction)).toBe(preview.hash.computed);
    expect(preview.byteLength).toBe(Buffer.from(answer.preparedTransaction, 'base64').length);
  });

  it('reads an exercise with its children, fetches aside, and its input contracts', async () => {
    const cid = await createIou('100');
    const other = await createIou('5');
    const answer = await prepare({
      ExerciseCommand: {
        templateId: IOU,
        contractId: cid,
        choice: 'Iou_Merge',
        choiceArgument: { otherCid: other },
      },
    });
    const { tree, hidden, inputContracts } = decodePreparedSubmission(answer);
    // Iou_Merge fetches the other Iou (node 1), archives it (2) and creates the sum (3).
    expect(tree.order.map((id) => describeNode(getNode(tree, id)))).toEqual([
      'Exercise Iou_Merge on Iou',
      'Exercise Archive on Iou',
      'Create Iou',
    ]);
    expect(tree.order).toEqual([0, 2, 3]);
    const merge = getNode(tree, 0);
    expect(merge).toMatchObject({
      kind: 'exercised',
      contractId: cid,
      choiceArgument: { otherCid: other },
      actingParties: [alice],
      consuming: true,
      lastDescendantNodeId: 3,
      children: [2, 3],
    });
    expect(hidden).toEqual([
      {
        kind: 'fetch',
        nodeId: 1,
        contractId: other,
        templateId: expect.stringMatching(/:Demo\.Iou:Iou$/) as unknown,
        actingParties: [alice],
      },
    ]);
    expect(inputContracts.map((input) => input.contractId).sort()).toEqual([cid, other].sort());
    const input = inputContracts.find((entry) => entry.contractId === cid);
    expect(input).toMatchObject({ signatories: [alice], observers: [bob] });
    expect(input?.createArgument).toMatchObject({ owner: alice, currency: 'USD' });
    expect(input?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('gives the tree the same command makes when submitted, but for the new contract ids', async () => {
    const cid = await createIou('100');
    const split = {
      ExerciseCommand: {
        templateId: IOU,
        contractId: cid,
        choice: 'Iou_Split',
        choiceArgument: { splitAmount: '30.0' },
      },
    };
    const preview = decodePreparedSubmission(await prepare(split));
    const committed = fromLedgerEffectsTransaction(await submit(split));
    const comparison = compareTrees(preview.tree, committed);
    // Prepared and submitted separately, the two new contracts got unrelated ids, which the
    // exercise's result names; everything else is the same.
    expect(comparison.differences.map((d) => [d.preparedNodeId, d.what])).toEqual([
      [1, 'the contract id differs'],
      [2, 'the contract id differs'],
      [0, 'the exercise result differs'],
    ]);
    expect(comparison.comparedCount).toBe(3);
  });

  it('reads a 1,000-node Fanout', async () => {
    const answer = await prepare({
      CreateAndExerciseCommand: {
        templateId: FANOUT,
        createArguments: { owner: alice, label: 'root' },
        choice: 'Fanout_Run',
        choiceArgument: { width: '9', depth: '3' },
      },
    });
    const { tree, hash } = decodePreparedSubmission(answer);
    expect(tree.nodes.size).toBeGreaterThan(800);
    expect(tree.maxDepth).toBe(3);
    expect(hash.isMatching).toBe(true);
  });

  it('marks a hash that is not the one of the bytes as not matching', async () => {
    const answer = await prepare({ CreateCommand: { templateId: IOU, createArguments: iou('1') } });
    const tampered = changed(answer, (tx) => {
      if (tx.metadata) tx.metadata.preparationTime += 1n;
    });
    const { hash } = decodePreparedSubmission(tampered);
    expect(hash.isMatching).toBe(false);
    expect(hash.computed).not.toBe(answer.preparedTransactionHash);
    expect(hash.base64).toBe(answer.preparedTransactionHash);
  });

  it('cannot recompute a scheme other than V2 and says so', async () => {
    const answer = await prepare({ CreateCommand: { templateId: IOU, createArguments: iou('1') } });
    const { hash } = decodePreparedSubmission({
      ...answer,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3',
    });
    expect(hash).toMatchObject({ computed: null, isMatching: false });
    expect(hash.problem).toMatch(/V2 only; this one is V3/);
  });

  it('leaves out what a rollback undid, and counts it', async () => {
    const cid = await createIou('100');
    const answer = await prepare({
      ExerciseCommand: {
        templateId: IOU,
        contractId: cid,
        choice: 'Iou_Split',
        choiceArgument: { splitAmount: '30.0' },
      },
    });
    // The second create wrapped in a rollback node, as `try … catch` leaves it.
    const rolledBack = changed(answer, (tx) => {
      const transaction = tx.transaction;
      const root = transaction?.nodes.find((node) => node.nodeId === '0');
      if (!transaction || root?.versionedNode.oneofKind !== 'v1') return;
      const kind = root.versionedNode.v1.nodeType;
      if (kind.oneofKind !== 'exercise') return;
      kind.exercise.children = ['1', '3'];
      transaction.nodes.push({
        nodeId: '3',
        versionedNode: {
          oneofKind: 'v1',
          v1: { nodeType: { oneofKind: 'rollback', rollback: { children: ['4'] } } },
        },
      });
      const second = transaction.nodes.find((node) => node.nodeId === '2');
      if (second) second.nodeId = '4';
    });
    const { tree, hidden } = decodePreparedSubmission(rolledBack);
    expect(tree.order).toEqual([0, 1]);
    expect(getNode(tree, 0)).toMatchObject({ lastDescendantNodeId: 4 });
    expect(hidden).toEqual([{ kind: 'rollback', nodeId: 3, descendantCount: 1 }]);
  });

  it('refuses malformed bytes, bad base64 and structures that are not trees, clearly', async () => {
    const answer = await prepare({ CreateCommand: { templateId: IOU, createArguments: iou('1') } });
    const refusal = (input: PrepareAnswer) => {
      try {
        decodePreparedSubmission(input);
        return 'decoded';
      } catch (error) {
        return error instanceof PreparedTransactionError ? error.message : error;
      }
    };
    expect(refusal({ ...answer, preparedTransaction: 'not base64!' })).toBe(
      'The prepared transaction is not valid base64.',
    );
    // Truncated protobuf.
    const bytes = Buffer.from(answer.preparedTransaction, 'base64');
    expect(
      refusal({
        ...answer,
        preparedTransaction: bytes.subarray(0, bytes.length - 7).toString('base64'),
      }),
    ).toMatch(/^The prepared transaction's bytes are malformed: /);
    expect(
      refusal({
        ...answer,
        preparedTransaction: Buffer.from([0xff, 0xff, 0xff]).toString('base64'),
      }),
    ).toMatch(/^The prepared transaction's bytes are malformed: /);
    // A root that is not there; a node reached twice.
    expect(refusal(changed(answer, (tx) => tx.transaction?.roots.splice(0, 1, '7')))).toBe(
      'The transaction refers to node 7, which it does not hold.',
    );
    expect(refusal(changed(answer, (tx) => tx.transaction?.roots.push('0')))).toBe(
      'Node 0 appears twice in the tree.',
    );
    expect(
      refusal({
        ...answer,
        preparedTransaction: 'A'.repeat(PREPARED_TRANSACTION_LIMITS.maxBase64Length + 4),
      }),
    ).toMatch(/more than the \d+ this console decodes\.$/);
  });

  it('refuses values nested beyond Daml-LF’s limit', () => {
    let value = { sum: { oneofKind: 'unit', unit: {} } } as Parameters<typeof protoValueToJson>[0];
    for (let i = 0; i <= PREPARED_TRANSACTION_LIMITS.maxValueDepth; i++) {
      value = { sum: { oneofKind: 'list', list: { elements: value ? [value] : [] } } };
    }
    expect(() => protoValueToJson(value)).toThrow(PreparedTransactionError);
  });

  it('prints values as the JSON API does', () => {
    const json = protoValueToJson({
      sum: {
        oneofKind: 'record',
        record: {
          fields: [
            {
              label: 'when',
              value: { sum: { oneofKind: 'timestamp', timestamp: '1700000000123456' } },
            },
            { label: 'day', value: { sum: { oneofKind: 'date', date: 19_000 } } },
            { label: 'none', value: { sum: { oneofKind: 'optional', optional: {} } } },
            {
              label: 'someNone',
              value: {
                sum: {
                  oneofKind: 'optional',
                  optional: { value: { sum: { oneofKind: 'optional', optional: {} } } },
                },
              },
            },
            {
              label: 'tag',
              value: {
                sum: {
                  oneofKind: 'variant',
                  variant: {
                    constructor: 'Left',
                    value: { sum: { oneofKind: 'int64', int64: '5' } },
                  },
                },
              },
            },
            { label: 'color', value: { sum: { oneofKind: 'enum', enum: { constructor: 'Red' } } } },
            {
              label: 'map',
              value: {
                sum: {
                  oneofKind: 'textMap',
                  textMap: {
                    entries: [
                      { key: '__proto__', value: { sum: { oneofKind: 'bool', bool: true } } },
                    ],
                  },
                },
              },
            },
          ],
        },
      },
    });
    expect(json).toEqual({
      when: '2023-11-14T22:13:20.123456Z',
      day: '2022-01-08',
      none: null,
      someNone: [],
      tag: { tag: 'Left', value: '5' },
      color: 'Red',
      map: Object.fromEntries([['__proto__', true]]),
    });
    expect(Object.getPrototypeOf((json as { map: object }).map)).toBe(Object.prototype);
  });
});

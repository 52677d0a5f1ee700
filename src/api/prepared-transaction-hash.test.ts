import { PreparedTransaction, type Value } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import {
  everyNode,
  everyValue,
  exerciseOf,
  id,
  int64,
  node,
  type NodeType,
  unit,
} from '@ledger-console/participant/testing/prepared-transactions';
import { PreparedTransactionError } from './prepared-transaction-error';
import {
  preparedTransactionHashV2,
  preparedTransactionHashV2Base64,
} from './prepared-transaction-hash';
import { PREPARED_TRANSACTION_LIMITS } from './prepared-transaction-limits';

// The Canton team's hasher is the oracle: ours must give its bytes for every branch.
const reference = (prepared: PreparedTransaction) => hashPreparedTransaction(prepared, 'base64');

const nodeOf = (prepared: PreparedTransaction, nodeId: string): NodeType => {
  const found = prepared.transaction?.nodes.find((entry) => entry.nodeId === nodeId);
  if (found?.versionedNode.oneofKind !== 'v1') throw new Error(`no node ${nodeId}`);
  return found.versionedNode.v1.nodeType;
};

const exerciseIn = (prepared: PreparedTransaction) => {
  const root = nodeOf(prepared, '0');
  if (root.oneofKind !== 'exercise') throw new Error('node 0 is no exercise');
  return root.exercise;
};

/** A value nested `levels` deep in lists, built without recursion. */
function nested(levels: number): Value {
  let value: Value = unit;
  for (let i = 0; i < levels; i++) {
    value = { sum: { oneofKind: 'list', list: { elements: [value] } } };
  }
  return value;
}

/** Exercises, each the only child of the one before, `levels` deep, a create at the bottom. */
function chain(levels: number): PreparedTransaction {
  const prepared = everyNode();
  const transaction = prepared.transaction;
  if (!transaction) throw new Error('no transaction');
  transaction.roots = ['0'];
  transaction.nodes = [];
  transaction.nodeSeeds = [];
  for (let i = 0; i <= levels; i++) {
    const exercise = exerciseOf(i < levels ? [String(i + 1)] : [], unit);
    transaction.nodes.push(node(String(i), { oneofKind: 'exercise', exercise }));
    transaction.nodeSeeds.push({ nodeId: i, seed: new Uint8Array(32).fill(i & 0xff) });
  }
  return prepared;
}

describe('preparedTransactionHashV2, against the Canton team’s hasher', () => {
  // Each changes one branch of the encoding; every one must still give the reference's bytes.
  const variants: [string, (prepared: PreparedTransaction) => void][] = [
    ['every node and value kind', () => undefined],
    [
      'no ledger time bounds',
      (prepared) => {
        if (!prepared.metadata) return;
        delete prepared.metadata.minLedgerEffectiveTime;
        delete prepared.metadata.maxLedgerEffectiveTime;
      },
    ],
    [
      'only a lower ledger time bound',
      (prepared) => {
        if (prepared.metadata) delete prepared.metadata.maxLedgerEffectiveTime;
      },
    ],
    [
      'no interface, no exercise result',
      (prepared) => {
        const exercise = exerciseIn(prepared);
        delete exercise.interfaceId;
        delete exercise.exerciseResult;
        const fetch = nodeOf(prepared, '2');
        if (fetch.oneofKind === 'fetch') delete fetch.fetch.interfaceId;
      },
    ],
    [
      'an exercise result of every value kind, consuming',
      (prepared) => {
        const exercise = exerciseIn(prepared);
        exercise.exerciseResult = everyValue();
        exercise.consuming = true;
      },
    ],
    [
      'no input contracts, no submitter info, another mediator group',
      (prepared) => {
        if (!prepared.metadata) return;
        prepared.metadata.inputContracts = [];
        delete prepared.metadata.submitterInfo;
        prepared.metadata.mediatorGroup = 7;
      },
    ],
    [
      'a create without a seed, and a seed named twice (the first counts)',
      (prepared) => {
        const transaction = prepared.transaction;
        if (!transaction) return;
        transaction.nodeSeeds = transaction.nodeSeeds.filter((seed) => seed.nodeId !== 1);
        transaction.nodeSeeds.push({ nodeId: 0, seed: new Uint8Array(32).fill(9) });
      },
    ],
    [
      'a node referred to twice',
      (prepared) => {
        exerciseIn(prepared).children.push('1');
      },
    ],
    [
      'dotted names in identifiers',
      (prepared) => {
        const exercise = exerciseIn(prepared);
        exercise.templateId = id('Kinds.Deep.Module', 'Outer.Inner');
      },
    ],
  ];

  it.each(variants)('gives the reference bytes for %s', async (_, change) => {
    const prepared = everyNode();
    change(prepared);
    const ours = preparedTransactionHashV2Base64(prepared);
    expect(ours).toBe(await reference(prepared));
    expect(preparedTransactionHashV2(prepared)).toHaveLength(32);
    // Through the wire form too, which is how the Preview gets it.
    const decoded = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(prepared));
    expect(preparedTransactionHashV2Base64(decoded)).toBe(ours);
  });

  it('tells the variants apart', () => {
    const hashes = variants.map(([, change]) => {
      const prepared = everyNode();
      change(prepared);
      return preparedTransactionHashV2Base64(prepared);
    });
    // So each variant above tests a branch that counts.
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('hashes a tree as deep as the decoder allows, as the reference does', async () => {
    const prepared = chain(PREPARED_TRANSACTION_LIMITS.maxTreeDepth);
    expect(preparedTransactionHashV2Base64(prepared)).toBe(await reference(prepared));
  });

  it('encodes an Int64 beyond 2^53 exactly, where the reference rounds it', async () => {
    const exact = (n: string) => {
      const prepared = everyNode();
      exerciseIn(prepared).exerciseResult = int64(n);
      return prepared;
    };
    const big = exact('9007199254740993');
    const rounded = exact('9007199254740992');
    expect(await reference(big)).toBe(await reference(rounded));
    expect(preparedTransactionHashV2Base64(big)).not.toBe(preparedTransactionHashV2Base64(rounded));
    expect(preparedTransactionHashV2Base64(rounded)).toBe(await reference(rounded));
  });
});

describe('preparedTransactionHashV2 on hostile transactions', () => {
  const refusal = (prepared: PreparedTransaction) => {
    try {
      preparedTransactionHashV2(prepared);
      return 'hashed';
    } catch (error) {
      return error instanceof PreparedTransactionError ? error.message : error;
    }
  };

  it('refuses values nested beyond Daml-LF’s limit, however deep, without overflowing', () => {
    const { maxValueDepth } = PREPARED_TRANSACTION_LIMITS;
    for (const levels of [maxValueDepth + 1, 200_000]) {
      const prepared = everyNode();
      exerciseIn(prepared).chosenValue = nested(levels);
      expect(refusal(prepared)).toBe(`A value nests deeper than ${String(maxValueDepth)} levels.`);
    }
    // At the limit it hashes, as the reference does.
    const prepared = everyNode();
    exerciseIn(prepared).chosenValue = nested(maxValueDepth);
    expect(refusal(prepared)).toBe('hashed');
    // An input contract's argument is bounded too (the decoder reads those after the hash).
    const input = everyNode();
    const contract = input.metadata?.inputContracts[0]?.contract;
    if (contract?.oneofKind === 'v1') contract.v1.argument = nested(200_000);
    expect(refusal(input)).toMatch(/^A value nests deeper than/);
  });

  it('refuses trees nested too deep, cycles of node ids and missing nodes', () => {
    const { maxTreeDepth } = PREPARED_TRANSACTION_LIMITS;
    expect(refusal(chain(maxTreeDepth + 1))).toBe(
      `The transaction nests deeper than ${String(maxTreeDepth)} levels.`,
    );
    expect(refusal(chain(20_000))).toMatch(/^The transaction nests deeper than/);
    const cycle = everyNode();
    exerciseIn(cycle).children = ['0'];
    expect(refusal(cycle)).toMatch(/^The transaction nests deeper than/);
    const missing = everyNode();
    exerciseIn(missing).children = ['9'];
    expect(refusal(missing)).toBe('The transaction refers to node 9, which it does not hold.');
    const unseeded = everyNode();
    if (unseeded.transaction) unseeded.transaction.nodeSeeds = [];
    expect(refusal(unseeded)).toBe('Exercise node 0 has no seed.');
    const noTransaction = everyNode();
    delete noTransaction.transaction;
    expect(refusal(noTransaction)).toBe('The prepared transaction has no transaction.');
  });
});

describe('preparedTransactionHashV2 on the sandbox’s prepared transactions', () => {
  const IOU = '#sandbox-demo:Demo.Iou:Iou';
  const ISSUANCE = '#sandbox-demo:Demo.Iou:IouIssuance';
  const HOLDING = '#sandbox-demo:Demo.Holding:Holding';
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

  type Answer = { preparedTransaction: string; preparedTransactionHash: string };
  const request = <T>(path: string, body: unknown) =>
    sandboxSteps(sandbox).client.request<T>('POST', path, { body });
  const prepare = (command: unknown) =>
    request<Answer>('/v2/interactive-submission/prepare', {
      commands: [command],
      commandId: `hash-${String(++counter)}`,
      actAs: [alice],
      userId: 'participant_admin',
    });

  async function createIou(amount: string): Promise<string> {
    const { transaction } = await request<{
      transaction: { events: { CreatedEvent?: { contractId: string } }[] };
    }>('/v2/commands/submit-and-wait-for-transaction', {
      commands: {
        commands: [{ CreateCommand: { templateId: IOU, createArguments: iou(amount) } }],
        commandId: `hash-${String(++counter)}`,
        actAs: [alice],
        userId: 'participant_admin',
      },
    });
    return transaction.events[0]?.CreatedEvent?.contractId ?? '';
  }

  /** Ours, the participant's and the reference's hash of one prepared transaction. */
  async function hashes(answer: Answer) {
    const prepared = PreparedTransaction.fromBinary(
      Buffer.from(answer.preparedTransaction, 'base64'),
    );
    return {
      ours: preparedTransactionHashV2Base64(prepared),
      participant: answer.preparedTransactionHash,
      reference: await hashPreparedTransaction(answer.preparedTransaction),
      prepared,
    };
  }

  beforeAll(async () => {
    sandbox = createSandbox();
    [alice = '', bob = ''] = await Promise.all([
      sandboxSteps(sandbox).allocateParty('alice'),
      sandboxSteps(sandbox).allocateParty('bob'),
    ]);
  });

  it('gives the participant’s and the reference’s hash for each kind of command', async () => {
    const [merged, other, split, held] = await Promise.all(['100', '5', '40', '7'].map(createIou));
    const commands = {
      create: { CreateCommand: { templateId: IOU, createArguments: iou('12.5') } },
      // A fetch node, two input contracts.
      merge: {
        ExerciseCommand: {
          templateId: IOU,
          contractId: merged,
          choice: 'Iou_Merge',
          choiceArgument: { otherCid: other },
        },
      },
      // An exercise result that is a record of contract ids.
      split: {
        ExerciseCommand: {
          templateId: IOU,
          contractId: split,
          choice: 'Iou_Split',
          choiceArgument: { splitAmount: '30.0' },
        },
      },
      // An exercise through an interface: its interface id is hashed.
      interface: {
        ExerciseCommand: {
          templateId: HOLDING,
          contractId: held,
          choice: 'Holding_Transfer',
          choiceArgument: { newOwner: bob },
        },
      },
      // An Int64 result, the Int64 argument that makes it.
      issue: {
        CreateAndExerciseCommand: {
          templateId: ISSUANCE,
          createArguments: {
            issuer: alice,
            owner: alice,
            currency: 'USD',
            amount: '1',
            count: '3',
          },
          choice: 'IouIssuance_Issue',
          choiceArgument: {},
        },
      },
    };
    const kinds = new Set<string>();
    for (const [name, command] of Object.entries(commands)) {
      const {
        ours,
        participant,
        reference: theirs,
        prepared,
      } = await hashes(await prepare(command));
      expect({ name, ours }).toEqual({ name, ours: participant });
      expect({ name, ours }).toEqual({ name, ours: theirs });
      for (const entry of prepared.transaction?.nodes ?? []) {
        if (entry.versionedNode.oneofKind === 'v1') {
          const { nodeType } = entry.versionedNode.v1;
          kinds.add(nodeType.oneofKind ?? 'none');
          if (nodeType.oneofKind === 'exercise' && nodeType.exercise.interfaceId) {
            kinds.add('interface');
          }
        }
      }
      if ((prepared.metadata?.inputContracts.length ?? 0) > 0) kinds.add('input contracts');
    }
    // What the commands were chosen for is in what was hashed.
    expect([...kinds].sort()).toEqual(
      ['create', 'exercise', 'fetch', 'input contracts', 'interface'].sort(),
    );
  });

  it('gives the participant’s hash for a Fanout of hundreds of nodes', async () => {
    const {
      ours,
      participant,
      reference: theirs,
      prepared,
    } = await hashes(
      await prepare({
        CreateAndExerciseCommand: {
          templateId: FANOUT,
          createArguments: { owner: alice, label: 'root' },
          choice: 'Fanout_Run',
          choiceArgument: { width: '6', depth: '3' },
        },
      }),
    );
    expect(prepared.transaction?.nodes.length).toBeGreaterThan(100);
    expect(ours).toBe(participant);
    expect(ours).toBe(theirs);
  });

  it('gives the participant’s hash for an Int64 beyond 2^53, which the reference rounds', async () => {
    const {
      ours,
      participant,
      reference: theirs,
    } = await hashes(
      await prepare({
        CreateCommand: {
          templateId: ISSUANCE,
          createArguments: {
            issuer: alice,
            owner: alice,
            currency: 'USD',
            amount: '1',
            count: '9007199254740993',
          },
        },
      }),
    );
    expect(ours).toBe(participant);
    expect(theirs).not.toBe(participant);
  });
});

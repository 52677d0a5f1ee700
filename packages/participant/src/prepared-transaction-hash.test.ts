import { createHash } from 'node:crypto';
import type { PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { sha256 } from '@noble/hashes/sha2';
import { describe, expect, it } from 'vitest';
import {
  preparedTransactionHashV2,
  V2HashError,
  type V2HashOptions,
  type V2HashProblem,
} from './prepared-transaction-hash';
import { cid, party } from './testing/prepared-transactions';

// The console's and the sandbox's adapters have their own tests (the Canton team's hasher and the
// participant's hash as oracles, their messages); these are of the options both choose from.

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const AS_RECEIVED: V2HashOptions = {
  sha256,
  sortSets: false,
  cantonDecoding: false,
  maxTreeDepth: 1_000,
  maxValueDepth: 100,
};
const AS_CANTON: V2HashOptions = {
  sha256: (bytes) => createHash('sha256').update(bytes).digest(),
  sortSets: true,
  cantonDecoding: true,
  maxTreeDepth: 999,
  maxValueDepth: 1_000,
};

const PACKAGE = 'a'.repeat(64);
const templateId = { packageId: PACKAGE, moduleName: 'Demo.Iou', entityName: 'Iou' };
const [alice, bob, carol] = [party('alice'), party('bob'), party('carol')];
const argument = (label: string): Value => ({
  sum: {
    oneofKind: 'record',
    record: { fields: [{ label, value: { sum: { oneofKind: 'party', party: alice } } }] },
  },
});
const inputContract = (contractId: string) => ({
  contract: {
    oneofKind: 'v1' as const,
    v1: {
      lfVersion: '2.1',
      contractId,
      packageName: 'demo',
      templateId,
      argument: argument('owner'),
      signatories: [carol, alice],
      stakeholders: [carol, bob, alice],
    },
  },
  createdAt: 1_690_000_000_000_000n,
  eventBlob: new Uint8Array(),
});

/** An exercise whose one child is a create, every set of parties out of order, one named twice. */
function unsorted(): PreparedTransaction {
  return {
    transaction: {
      version: '2.1',
      roots: ['0'],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'exercise',
                exercise: {
                  lfVersion: '2.1',
                  contractId: cid('2'),
                  packageName: 'demo',
                  templateId,
                  signatories: [carol, alice],
                  stakeholders: [carol, bob, alice, bob],
                  actingParties: [bob, alice],
                  choiceId: 'Iou_Split',
                  chosenValue: argument('splitAmount'),
                  consuming: true,
                  children: ['1'],
                  choiceObservers: [carol, bob],
                },
              },
            },
          },
        },
        {
          nodeId: '1',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'create',
                create: {
                  lfVersion: '2.1',
                  contractId: cid('3'),
                  packageName: 'demo',
                  templateId,
                  argument: argument('owner'),
                  signatories: [bob, alice],
                  stakeholders: [carol, alice],
                },
              },
            },
          },
        },
      ],
      nodeSeeds: [0, 1].map((nodeId) => ({ nodeId, seed: new Uint8Array(32).fill(nodeId + 1) })),
    },
    metadata: {
      submitterInfo: { actAs: [bob, alice, bob], commandId: 'unsorted' },
      synchronizerId: `local::1220${'d'.repeat(64)}`,
      mediatorGroup: 0,
      transactionUuid: '5b3f8a3e-4a51-4a02-9f8e-6b1d2c3e4f50',
      preparationTime: 1_700_000_000_000_000n,
      inputContracts: [inputContract(cid('9')), inputContract(cid('2'))],
      globalKeyMapping: [],
    },
  };
}

/** The same transaction with each set sorted and distinct, as a participant decodes it. */
function sortedCopy(prepared: PreparedTransaction): PreparedTransaction {
  const copy = structuredClone(prepared);
  const sortSet = (parties: string[]) => [...new Set(parties)].sort();
  for (const { versionedNode } of copy.transaction?.nodes ?? []) {
    if (versionedNode.oneofKind !== 'v1') continue;
    const { nodeType } = versionedNode.v1;
    if (nodeType.oneofKind === 'exercise') {
      const exercise = nodeType.exercise;
      exercise.signatories = sortSet(exercise.signatories);
      exercise.stakeholders = sortSet(exercise.stakeholders);
      exercise.actingParties = sortSet(exercise.actingParties);
      exercise.choiceObservers = sortSet(exercise.choiceObservers);
    } else if (nodeType.oneofKind === 'create') {
      nodeType.create.signatories = sortSet(nodeType.create.signatories);
      nodeType.create.stakeholders = sortSet(nodeType.create.stakeholders);
    }
  }
  const metadata = copy.metadata;
  if (metadata?.submitterInfo) metadata.submitterInfo.actAs = sortSet(metadata.submitterInfo.actAs);
  for (const input of metadata?.inputContracts ?? []) {
    if (input.contract.oneofKind !== 'v1') continue;
    input.contract.v1.signatories = sortSet(input.contract.v1.signatories);
    input.contract.v1.stakeholders = sortSet(input.contract.v1.stakeholders);
  }
  metadata?.inputContracts.sort((a, b) => {
    const [x, y] = [a, b].map((input) =>
      input.contract.oneofKind === 'v1' ? input.contract.v1.contractId : '',
    );
    return (x ?? '') < (y ?? '') ? -1 : 1;
  });
  return copy;
}

const problemOf = (prepared: PreparedTransaction, options: V2HashOptions): V2HashProblem => {
  try {
    preparedTransactionHashV2(prepared, options);
  } catch (error) {
    if (error instanceof V2HashError) return error.problem;
    throw error;
  }
  throw new Error('hashed');
};

describe('preparedTransactionHashV2: sortSets', () => {
  it('hashes the sets as received when off, as the Canton team’s hasher does', async () => {
    const prepared = unsorted();
    const ours = preparedTransactionHashV2(prepared, { ...AS_RECEIVED, sortSets: false });
    expect(base64(ours)).toBe(await hashPreparedTransaction(prepared, 'base64'));
    // The order counts: the sorted transaction is another hash.
    const sorted = preparedTransactionHashV2(sortedCopy(prepared), AS_RECEIVED);
    expect(hex(ours)).not.toBe(hex(sorted));
  });

  it('hashes the sets sorted and distinct when on, whatever the order received', async () => {
    const prepared = unsorted();
    const sortedSets = { ...AS_RECEIVED, sortSets: true };
    const ours = preparedTransactionHashV2(prepared, sortedSets);
    const sorted = sortedCopy(prepared);
    // As the as-received hash of the sorted transaction, so as the oracle's of it.
    expect(hex(ours)).toBe(hex(preparedTransactionHashV2(sorted, AS_RECEIVED)));
    expect(base64(ours)).toBe(await hashPreparedTransaction(sorted, 'base64'));
    expect(hex(ours)).toBe(hex(preparedTransactionHashV2(sorted, sortedSets)));
    expect(hex(ours)).not.toBe(hex(preparedTransactionHashV2(prepared, AS_RECEIVED)));
  });
});

describe('preparedTransactionHashV2: the other options', () => {
  it('hashes with the SHA-256 it is given, Node’s and noble’s alike', () => {
    const prepared = sortedCopy(unsorted());
    let calls = 0;
    const counted = (bytes: Uint8Array) => {
      calls++;
      return createHash('sha256').update(bytes).digest();
    };
    const node = preparedTransactionHashV2(prepared, { ...AS_RECEIVED, sha256: counted });
    expect(hex(node)).toBe(hex(preparedTransactionHashV2(prepared, AS_RECEIVED)));
    // Two nodes, two input contracts, the transaction, the metadata and the whole.
    expect(calls).toBe(7);
    const other = (bytes: Uint8Array) =>
      createHash('sha512').update(bytes).digest().subarray(0, 32);
    expect(hex(preparedTransactionHashV2(prepared, { ...AS_RECEIVED, sha256: other }))).not.toBe(
      hex(node),
    );
  });

  it('reads the message as a participant decodes it with cantonDecoding, else as the package', async () => {
    const upperCase = sortedCopy(unsorted());
    const root = upperCase.transaction?.nodes[0]?.versionedNode;
    if (root?.oneofKind !== 'v1' || root.v1.nodeType.oneofKind !== 'exercise') throw new Error();
    root.v1.nodeType.exercise.contractId = cid('A');
    expect(problemOf(upperCase, AS_CANTON)).toEqual({ kind: 'not-hex', text: cid('A') });
    expect(base64(preparedTransactionHashV2(upperCase, AS_RECEIVED))).toBe(
      await hashPreparedTransaction(upperCase, 'base64'),
    );

    const emptyLabel = sortedCopy(unsorted());
    const canton = { ...AS_RECEIVED, cantonDecoding: true };
    const before = hex(preparedTransactionHashV2(emptyLabel, canton));
    const input = emptyLabel.metadata?.inputContracts[0]?.contract;
    if (input?.oneofKind !== 'v1' || input.v1.argument?.sum.oneofKind !== 'record') {
      throw new Error('no record');
    }
    const [first] = input.v1.argument.sum.record.fields;
    if (first) first.label = '';
    // A participant hashes an empty label as none, the package as present: both change the hash
    // from "owner", but not to the same bytes.
    const cantonEmpty = hex(preparedTransactionHashV2(emptyLabel, canton));
    const packageEmpty = preparedTransactionHashV2(emptyLabel, AS_RECEIVED);
    expect(cantonEmpty).not.toBe(before);
    expect(cantonEmpty).not.toBe(hex(packageEmpty));
    expect(base64(packageEmpty)).toBe(await hashPreparedTransaction(emptyLabel, 'base64'));

    const twice = sortedCopy(unsorted());
    twice.transaction?.roots.push('1');
    expect(problemOf(twice, AS_CANTON)).toEqual({ kind: 'node-repeated', nodeId: '1' });
    expect(base64(preparedTransactionHashV2(twice, AS_RECEIVED))).toBe(
      await hashPreparedTransaction(twice, 'base64'),
    );

    const duplicateId = sortedCopy(unsorted());
    const created = duplicateId.transaction?.nodes[1];
    if (created) duplicateId.transaction?.nodes.push(structuredClone(created));
    expect(problemOf(duplicateId, AS_CANTON)).toEqual({ kind: 'node-id-not-unique', nodeId: '1' });

    const unseeded = sortedCopy(unsorted());
    if (unseeded.transaction) unseeded.transaction.nodeSeeds.pop();
    expect(problemOf(unseeded, AS_CANTON)).toEqual({
      kind: 'no-seed',
      nodeId: '1',
      node: 'create',
    });
    expect(base64(preparedTransactionHashV2(unseeded, AS_RECEIVED))).toBe(
      await hashPreparedTransaction(unseeded, 'base64'),
    );
  });

  it('refuses a tree or a value nested beyond the limits it is given', () => {
    const prepared = sortedCopy(unsorted());
    // The create is at depth 1.
    expect(problemOf(prepared, { ...AS_RECEIVED, maxTreeDepth: 0 })).toEqual({
      kind: 'tree-too-deep',
      limit: 0,
    });
    expect(preparedTransactionHashV2(prepared, { ...AS_RECEIVED, maxTreeDepth: 1 })).toHaveLength(
      32,
    );
    // A record of a party: the party is at depth 1.
    expect(problemOf(prepared, { ...AS_RECEIVED, maxValueDepth: 0 })).toEqual({
      kind: 'value-too-deep',
      limit: 0,
    });
    expect(preparedTransactionHashV2(prepared, { ...AS_RECEIVED, maxValueDepth: 1 })).toHaveLength(
      32,
    );
  });

  it('writes the hashing details only when given a trace, the hash unchanged', () => {
    const prepared = unsorted();
    const trace: string[] = [];
    const traced = preparedTransactionHashV2(prepared, AS_CANTON, trace);
    expect(hex(traced)).toBe(hex(preparedTransactionHashV2(prepared, AS_CANTON)));
    expect(trace).toContain(`  # Exercise Iou_Split on ${cid('2')}`);
    expect(trace).toContain(`    # Create ${cid('3')}`);
    // The sets as hashed: sorted and distinct.
    const stakeholders = trace.filter(
      (line) => line.startsWith('  ') && line.endsWith('" stakeholder'),
    );
    expect(stakeholders.slice(0, 3).map((line) => line.split('"')[1])).toEqual([alice, bob, carol]);
    expect(trace.at(-2)).toMatch(/^[0-9a-f]{64} - transaction hash$/);
    expect(trace.at(-1)).toMatch(/^[0-9a-f]{64} - metadata hash$/);
  });
});

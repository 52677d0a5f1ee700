import { randomBytes } from 'node:crypto';
import {
  PreparedTransaction,
  type DamlTransaction_Node,
  type Value,
} from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { describe, expect, it } from 'vitest';
import { HashingError, preparedTransactionHashV2 } from './v2-hash';

const PACKAGE = 'a'.repeat(64);
const id = (moduleName: string, entityName: string) => ({
  packageId: PACKAGE,
  moduleName,
  entityName,
});
const cid = (byte: string) => `00${byte.repeat(64)}`;
const party = (name: string) => `${name}::1220${'e'.repeat(64)}`;
const field = (label: string, value: Value) => ({ label, value });

/** Every kind of Daml value the protobuf has, nested, including the ones the demo never uses. */
const everyValue: Value = {
  sum: {
    oneofKind: 'record',
    record: {
      recordId: id('Kinds.All', 'Everything'),
      fields: [
        field('unit', { sum: { oneofKind: 'unit', unit: {} } }),
        field('bool', { sum: { oneofKind: 'bool', bool: true } }),
        field('int64', { sum: { oneofKind: 'int64', int64: '-42' } }),
        field('numeric', { sum: { oneofKind: 'numeric', numeric: '3.1400000000' } }),
        field('timestamp', { sum: { oneofKind: 'timestamp', timestamp: '1700000000123456' } }),
        field('date', { sum: { oneofKind: 'date', date: 19_700 } }),
        field('party', { sum: { oneofKind: 'party', party: party('alice') } }),
        field('text', { sum: { oneofKind: 'text', text: 'Grüße, 世界' } }),
        field('contractId', { sum: { oneofKind: 'contractId', contractId: cid('1') } }),
        field('none', { sum: { oneofKind: 'optional', optional: {} } }),
        field('someNone', {
          sum: {
            oneofKind: 'optional',
            optional: { value: { sum: { oneofKind: 'optional', optional: {} } } },
          },
        }),
        field('list', {
          sum: {
            oneofKind: 'list',
            list: {
              elements: [
                { sum: { oneofKind: 'text', text: 'a' } },
                { sum: { oneofKind: 'text', text: 'b' } },
              ],
            },
          },
        }),
        field('textMap', {
          sum: {
            oneofKind: 'textMap',
            textMap: {
              entries: [
                { key: 'k1', value: { sum: { oneofKind: 'int64', int64: '1' } } },
                { key: 'k2', value: { sum: { oneofKind: 'int64', int64: '2' } } },
              ],
            },
          },
        }),
        field('genMap', {
          sum: {
            oneofKind: 'genMap',
            genMap: {
              entries: [
                {
                  key: { sum: { oneofKind: 'party', party: party('bob') } },
                  value: { sum: { oneofKind: 'bool', bool: false } },
                },
              ],
            },
          },
        }),
        field('variant', {
          sum: {
            oneofKind: 'variant',
            variant: {
              variantId: id('Kinds.All', 'Shape'),
              constructor: 'Circle',
              value: { sum: { oneofKind: 'numeric', numeric: '1.0' } },
            },
          },
        }),
        field('enum', {
          sum: {
            oneofKind: 'enum',
            enum: { enumId: id('Kinds.All', 'Colour'), constructor: 'Red' },
          },
        }),
        field('anonymous', {
          sum: {
            oneofKind: 'record',
            record: { fields: [field('x', { sum: { oneofKind: 'unit', unit: {} } })] },
          },
        }),
      ],
    },
  },
};

const node = (nodeId: string, nodeType: DamlTransaction_Node['versionedNode']) => ({
  nodeId,
  versionedNode: nodeType,
});
const v1 = (
  nodeType: Extract<DamlTransaction_Node['versionedNode'], { oneofKind: 'v1' }>['v1']['nodeType'],
): DamlTransaction_Node['versionedNode'] => ({ oneofKind: 'v1', v1: { nodeType } });

const createOf = (contractId: string, argument: Value) => ({
  lfVersion: '2.1',
  contractId,
  packageName: 'kinds',
  templateId: id('Kinds.All', 'Everything'),
  argument,
  signatories: [party('alice')],
  stakeholders: [party('alice'), party('bob')],
});

/**
 * A transaction with every node kind: an exercise through an interface whose children are a
 * create, a fetch through an interface and a rollback around another create; time bounds, a max
 * record time and two input contracts in the metadata.
 */
function everyNode(): PreparedTransaction {
  return {
    transaction: {
      version: '2.1',
      roots: ['0'],
      nodes: [
        node(
          '0',
          v1({
            oneofKind: 'exercise',
            exercise: {
              lfVersion: '2.1',
              contractId: cid('2'),
              packageName: 'kinds',
              templateId: id('Kinds.All', 'Everything'),
              signatories: [party('alice')],
              stakeholders: [party('alice'), party('bob')],
              actingParties: [party('bob')],
              interfaceId: id('Kinds.Iface', 'Touchable'),
              choiceId: 'Touch',
              chosenValue: everyValue,
              consuming: false,
              children: ['1', '2', '3'],
              exerciseResult: { sum: { oneofKind: 'unit', unit: {} } },
              choiceObservers: [party('carol')],
            },
          }),
        ),
        node('1', v1({ oneofKind: 'create', create: createOf(cid('3'), everyValue) })),
        node(
          '2',
          v1({
            oneofKind: 'fetch',
            fetch: {
              lfVersion: '2.1',
              contractId: cid('4'),
              packageName: 'kinds',
              templateId: id('Kinds.All', 'Everything'),
              signatories: [party('alice')],
              stakeholders: [party('alice')],
              actingParties: [party('alice')],
              interfaceId: id('Kinds.Iface', 'Touchable'),
            },
          }),
        ),
        node('3', v1({ oneofKind: 'rollback', rollback: { children: ['4'] } })),
        node('4', v1({ oneofKind: 'create', create: createOf(cid('5'), everyValue) })),
      ],
      nodeSeeds: [0, 1, 4].map((nodeId) => ({ nodeId, seed: Buffer.alloc(32, nodeId + 1) })),
    },
    metadata: {
      submitterInfo: { actAs: [party('alice'), party('bob')], commandId: 'every-node' },
      synchronizerId: `local::1220${'d'.repeat(64)}`,
      mediatorGroup: 0,
      transactionUuid: '5b3f8a3e-4a51-4a02-9f8e-6b1d2c3e4f50',
      preparationTime: 1_700_000_000_000_000n,
      minLedgerEffectiveTime: 1_699_999_999_000_000n,
      maxLedgerEffectiveTime: 1_700_000_001_000_000n,
      maxRecordTime: 1_700_000_100_000_000n,
      inputContracts: [cid('2'), cid('4')].map((contractId) => ({
        contract: { oneofKind: 'v1' as const, v1: createOf(contractId, everyValue) },
        createdAt: 1_690_000_000_000_000n,
        eventBlob: new Uint8Array([1, 2, 3]),
      })),
      globalKeyMapping: [],
    },
  };
}

describe('hashing scheme V2', () => {
  it('hashes every node and value kind as the reference hasher does', async () => {
    const prepared = everyNode();
    const ours = preparedTransactionHashV2(prepared).toString('base64');
    expect(ours).toBe(await hashPreparedTransaction(prepared));
    // And through the wire form, which is what execute hashes.
    const wire = Buffer.from(PreparedTransaction.toBinary(prepared)).toString('base64');
    expect(
      preparedTransactionHashV2(PreparedTransaction.fromBinary(Buffer.from(wire, 'base64'))),
    ).toEqual(Buffer.from(ours, 'base64'));
  });

  it('changes with any signed field, and not with the unsigned ones', () => {
    const base = preparedTransactionHashV2(everyNode());
    const copy = () => PreparedTransaction.fromBinary(PreparedTransaction.toBinary(everyNode()));
    const changes: ((tx: PreparedTransaction) => void)[] = [
      (tx) => {
        if (tx.metadata) tx.metadata.preparationTime += 1n;
      },
      (tx) => {
        if (tx.metadata) tx.metadata.minLedgerEffectiveTime = undefined;
      },
      (tx) => {
        const seed = tx.transaction?.nodeSeeds[2];
        if (seed) seed.seed = randomBytes(32);
      },
      (tx) => {
        const input = tx.metadata?.inputContracts[0];
        if (input) input.createdAt += 1n;
      },
      (tx) => {
        if (tx.transaction) tx.transaction.version = '2.2';
      },
    ];
    for (const change of changes) {
      const changed = copy();
      change(changed);
      expect(preparedTransactionHashV2(changed).equals(base)).toBe(false);
    }
    // Neither the max record time (signed only from V3) nor the event blobs are hashed.
    const unsigned = copy();
    if (unsigned.metadata) {
      unsigned.metadata.maxRecordTime = undefined;
      for (const input of unsigned.metadata.inputContracts) input.eventBlob = new Uint8Array();
    }
    expect(preparedTransactionHashV2(unsigned)).toEqual(base);
  });

  it("hashes parties and input contracts as Canton's sets: sorted, whatever the order received", () => {
    const sorted = everyNode();
    const shuffled = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(sorted));
    if (shuffled.metadata) {
      shuffled.metadata.submitterInfo?.actAs.reverse();
      shuffled.metadata.inputContracts.reverse();
    }
    const root = shuffled.transaction?.nodes[0]?.versionedNode;
    if (root?.oneofKind === 'v1' && root.v1.nodeType.oneofKind === 'exercise') {
      root.v1.nodeType.exercise.stakeholders.reverse();
    }
    expect(preparedTransactionHashV2(shuffled)).toEqual(preparedTransactionHashV2(sorted));
  });

  it('refuses what it cannot hash with the participant’s reasons', () => {
    const missingSeed = everyNode();
    if (missingSeed.transaction) missingSeed.transaction.nodeSeeds = [];
    expect(() => preparedTransactionHashV2(missingSeed)).toThrow(
      new HashingError('Missing node seed for node 0'),
    );
    const dangling = everyNode();
    if (dangling.transaction) dangling.transaction.roots = ['9'];
    expect(() => preparedTransactionHashV2(dangling)).toThrow(
      'The transaction does not contain a node with nodeId 9',
    );
    const cyclic = everyNode();
    const rollback = cyclic.transaction?.nodes[3]?.versionedNode;
    if (rollback?.oneofKind === 'v1' && rollback.v1.nodeType.oneofKind === 'rollback') {
      rollback.v1.nodeType.rollback.children = ['0'];
    }
    expect(() => preparedTransactionHashV2(cyclic)).toThrow('appears more than once');
  });

  it('writes its steps as hashing details when asked', () => {
    const trace: string[] = [];
    const hash = preparedTransactionHashV2(everyNode(), trace);
    expect(trace.length).toBeGreaterThan(100);
    expect(trace).toContain(`    # Fetch ${cid('4')}`);
    expect(trace.at(-1)).toMatch(/^[0-9a-f]{64} - metadata hash$/);
    expect(trace.at(-2)).toMatch(/^[0-9a-f]{64} - transaction hash$/);
    expect(hash).toHaveLength(32);
  });
});

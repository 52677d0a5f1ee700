import type {
  DamlTransaction_Node,
  PreparedTransaction,
  Value,
} from '@canton-network/core-ledger-proto';

/**
 * Prepared transactions for the tests of the V2 hasher (prepared-transaction-hash.ts) and of its
 * two callers, the console's Preview and the sandbox: every node and value kind, built by hand.
 */

const PACKAGE = 'a'.repeat(64);
export const id = (moduleName: string, entityName: string) => ({
  packageId: PACKAGE,
  moduleName,
  entityName,
});
export const cid = (byte: string) => `00${byte.repeat(64)}`;
export const party = (name: string) => `${name}::1220${'e'.repeat(64)}`;
export const field = (label: string, value: Value) => ({ label, value });
export const unit: Value = { sum: { oneofKind: 'unit', unit: {} } };
export const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } });
export const int64 = (n: string): Value => ({ sum: { oneofKind: 'int64', int64: n } });

/**
 * How the hasher under test reads a message: as the Canton team's hasher (the console's Preview),
 * or as a participant (the sandbox), which refuses non-hex contract ids and reads an empty record
 * label as none, so that its fixture leaves out what the package alone reads its own way.
 */
export type Reading = 'package' | 'participant';

/** Every kind of value, with and without the optional parts each may have. */
export const everyValue = (reading: Reading = 'package'): Value => ({
  sum: {
    oneofKind: 'record',
    record: {
      recordId: id('Kinds.All', 'Everything'),
      fields: [
        field('unit', unit),
        field('true', { sum: { oneofKind: 'bool', bool: true } }),
        field('false', { sum: { oneofKind: 'bool', bool: false } }),
        field('int64', int64('-42')),
        field('zero', int64('0')),
        field('maxSafe', int64(String(Number.MAX_SAFE_INTEGER))),
        field('numeric', { sum: { oneofKind: 'numeric', numeric: '3.1400000000' } }),
        field('timestamp', { sum: { oneofKind: 'timestamp', timestamp: '1700000000123456' } }),
        field('before1970', { sum: { oneofKind: 'timestamp', timestamp: '-86400000001' } }),
        field('date', { sum: { oneofKind: 'date', date: 19_700 } }),
        field('dateBefore1970', { sum: { oneofKind: 'date', date: -3 } }),
        field('party', { sum: { oneofKind: 'party', party: party('alice') } }),
        field('text', text('Grüße, 世界, 🦀, and a lone \ud800 surrogate')),
        field('empty', text('')),
        field('contractId', { sum: { oneofKind: 'contractId', contractId: cid('1') } }),
        // Not hex, odd length, upper case: read as the package reads them.
        ...(reading === 'package'
          ? [
              field('oddId', { sum: { oneofKind: 'contractId', contractId: '00AbCdEf1' } }),
              field('notHex', { sum: { oneofKind: 'contractId', contractId: '0g zz-1+f0x' } }),
            ]
          : []),
        field('none', { sum: { oneofKind: 'optional', optional: {} } }),
        field('some', { sum: { oneofKind: 'optional', optional: { value: text('x') } } }),
        field('someNone', {
          sum: {
            oneofKind: 'optional',
            optional: { value: { sum: { oneofKind: 'optional', optional: {} } } },
          },
        }),
        field('list', { sum: { oneofKind: 'list', list: { elements: [text('a'), text('b')] } } }),
        field('emptyList', { sum: { oneofKind: 'list', list: { elements: [] } } }),
        field('textMap', {
          sum: {
            oneofKind: 'textMap',
            textMap: {
              entries: [
                { key: 'k1', value: int64('1') },
                { key: 'k2', value: int64('2') },
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
        field('variantWithoutId', {
          sum: { oneofKind: 'variant', variant: { constructor: 'Square', value: unit } },
        }),
        field('enum', {
          sum: {
            oneofKind: 'enum',
            enum: { enumId: id('Kinds.All', 'Colour'), constructor: 'Red' },
          },
        }),
        field('enumWithoutId', { sum: { oneofKind: 'enum', enum: { constructor: 'Blue' } } }),
        // A record without its id, and a field without a label (protobuf's "").
        field('anonymous', {
          sum: {
            oneofKind: 'record',
            record: { fields: [field(reading === 'package' ? '' : 'x', unit)] },
          },
        }),
      ],
    },
  },
});

export type NodeType = Extract<
  DamlTransaction_Node['versionedNode'],
  { oneofKind: 'v1' }
>['v1']['nodeType'];
export const node = (nodeId: string, nodeType: NodeType): DamlTransaction_Node => ({
  nodeId,
  versionedNode: { oneofKind: 'v1', v1: { nodeType } },
});

export const createOf = (contractId: string, argument: Value) => ({
  lfVersion: '2.1',
  contractId,
  packageName: 'kinds',
  templateId: id('Kinds.All', 'Everything'),
  argument,
  signatories: [party('alice')],
  stakeholders: [party('alice'), party('bob')],
});

export const exerciseOf = (children: string[], chosenValue: Value = everyValue()) => ({
  lfVersion: '2.1',
  contractId: cid('2'),
  packageName: 'kinds',
  templateId: id('Kinds.All', 'Everything'),
  signatories: [party('alice')],
  stakeholders: [party('alice'), party('bob')],
  actingParties: [party('bob')],
  interfaceId: id('Kinds.Iface', 'Touchable'),
  choiceId: 'Touch',
  chosenValue,
  consuming: false,
  children,
  exerciseResult: unit,
  choiceObservers: [party('carol')],
});

/**
 * Every node kind: an exercise through an interface whose children are a create, a fetch through
 * an interface and a rollback around another create; time bounds and two input contracts.
 */
export function everyNode(reading: Reading = 'package'): PreparedTransaction {
  return {
    transaction: {
      version: '2.1',
      roots: ['0', '5'],
      nodes: [
        node('0', {
          oneofKind: 'exercise',
          exercise: exerciseOf(['1', '2', '3'], everyValue(reading)),
        }),
        node('1', { oneofKind: 'create', create: createOf(cid('3'), everyValue(reading)) }),
        node('2', {
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
        node('3', { oneofKind: 'rollback', rollback: { children: ['4'] } }),
        node('4', { oneofKind: 'create', create: createOf(cid('5'), everyValue(reading)) }),
        node('5', { oneofKind: 'create', create: createOf(cid('6'), unit) }),
      ],
      nodeSeeds: [0, 1, 4, 5].map((nodeId) => ({ nodeId, seed: new Uint8Array(32).fill(nodeId) })),
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
        contract: { oneofKind: 'v1' as const, v1: createOf(contractId, everyValue(reading)) },
        createdAt: 1_690_000_000_000_000n,
        eventBlob: new Uint8Array([1, 2, 3]),
      })),
      globalKeyMapping: [],
    },
  };
}

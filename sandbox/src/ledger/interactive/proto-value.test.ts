import type {
  DamlType,
  DataType,
  TypeConName,
} from '@ledger-console/participant/daml-lf/package-model';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../transaction';
import { ValueShapeError, fromProtoValue, isoToMicros, toProtoValue } from './proto-value';

const PACKAGE = 'b'.repeat(64);
const tycon = (name: string): TypeConName => ({ packageId: '', module: 'Kinds', name });
const con = (name: string): DamlType => ({ kind: 'con', tycon: tycon(name), args: [] });
const prim = (
  name: Extract<DamlType, { kind: 'prim' }>['prim'],
  ...args: DamlType[]
): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const optional = (type: DamlType) => prim('OPTIONAL', type);

/** A package of the kinds the demo package lacks: variants, enums, nested optionals, maps, time. */
const types = new Map<string, DataType>([
  [
    'Everything',
    {
      kind: 'record',
      name: 'Everything',
      params: [],
      serializable: true,
      fields: [
        { name: 'flag', type: prim('BOOL') },
        { name: 'day', type: prim('DATE') },
        { name: 'at', type: prim('TIMESTAMP') },
        { name: 'count', type: prim('INT64') },
        { name: 'shape', type: con('Shape') },
        { name: 'colour', type: con('Colour') },
        { name: 'tags', type: prim('TEXTMAP', prim('TEXT')) },
        { name: 'maybe', type: optional(prim('TEXT')) },
        { name: 'nested', type: optional(optional(prim('INT64'))) },
        { name: 'unit', type: prim('UNIT') },
        { name: 'trailing', type: optional(prim('PARTY')) },
      ],
    },
  ],
  [
    'Shape',
    {
      kind: 'variant',
      name: 'Shape',
      params: [],
      serializable: true,
      constructors: [
        { name: 'Circle', type: prim('NUMERIC', { kind: 'nat', value: 10 }) },
        { name: 'Dot', type: prim('UNIT') },
      ],
    },
  ],
  [
    'Colour',
    { kind: 'enum', name: 'Colour', params: [], serializable: true, constructors: ['Red', 'Blue'] },
  ],
]);
const codec = { packageId: PACKAGE, dataType: (t: TypeConName) => types.get(t.name) };

const everything: JsonValue = {
  flag: true,
  day: '2024-02-29',
  at: '2024-02-29T12:34:56.123456Z',
  count: '-9000000000',
  shape: { tag: 'Circle', value: '1.5000000000' },
  colour: 'Blue',
  tags: { zeta: 'z', alpha: 'a', é: 'e' },
  maybe: null,
  nested: [],
  unit: {},
};

describe('Daml values between JSON and protobuf', () => {
  it('round-trips every kind through its type, enriched as Canton enriches', () => {
    const proto = toProtoValue(con('Everything'), everything, codec);
    expect(proto.sum.oneofKind).toBe('record');
    const record = proto.sum.oneofKind === 'record' ? proto.sum.record : undefined;
    expect(record?.recordId).toEqual({
      packageId: PACKAGE,
      moduleName: 'Kinds',
      entityName: 'Everything',
    });
    // The trailing None field is dropped, a middle one kept as an empty optional.
    expect(record?.fields.map((f) => f.label)).toEqual([
      'flag',
      'day',
      'at',
      'count',
      'shape',
      'colour',
      'tags',
      'maybe',
      'nested',
      'unit',
    ]);
    expect(record?.fields[1]?.value?.sum).toEqual({ oneofKind: 'date', date: 19_782 });
    expect(record?.fields[2]?.value?.sum).toEqual({
      oneofKind: 'timestamp',
      timestamp: '1709210096123456',
    });
    expect(record?.fields[6]?.value?.sum).toMatchObject({
      oneofKind: 'textMap',
      textMap: { entries: [{ key: 'alpha' }, { key: 'zeta' }, { key: 'é' }] },
    });
    expect(record?.fields[8]?.value?.sum).toEqual({
      oneofKind: 'optional',
      optional: { value: { sum: { oneofKind: 'optional', optional: {} } } },
    });
    expect(fromProtoValue(con('Everything'), proto, codec)).toEqual({
      ...everything,
      tags: { alpha: 'a', zeta: 'z', é: 'e' },
    });
  });

  it('rewrites contract ids on the way in, and only those', () => {
    const proto = toProtoValue(prim('LIST', prim('CONTRACT_ID', con('Everything'))), ['x', 'y'], {
      ...codec,
      contractId: (id) => `${id}!`,
    });
    expect(proto.sum.oneofKind === 'list' && proto.sum.list.elements.map((e) => e.sum)).toEqual([
      { oneofKind: 'contractId', contractId: 'x!' },
      { oneofKind: 'contractId', contractId: 'y!' },
    ]);
  });

  it('refuses values that do not fit their type, as model conformance would', () => {
    const proto = toProtoValue(con('Everything'), everything, codec);
    const wrongLabel = structuredClone(proto);
    if (wrongLabel.sum.oneofKind === 'record' && wrongLabel.sum.record.fields[0]) {
      wrongLabel.sum.record.fields[0].label = 'other';
    }
    expect(() => fromProtoValue(con('Everything'), wrongLabel, codec)).toThrow(ValueShapeError);
    const wrongId = structuredClone(proto);
    if (wrongId.sum.oneofKind === 'record') {
      wrongId.sum.record.recordId = {
        packageId: PACKAGE,
        moduleName: 'Kinds',
        entityName: 'Shape',
      };
    }
    expect(() => fromProtoValue(con('Everything'), wrongId, codec)).toThrow(ValueShapeError);
    expect(() =>
      fromProtoValue(prim('INT64'), { sum: { oneofKind: 'text', text: '1' } }, codec),
    ).toThrow("Invalid value at '.': expected an Int64");
    // A dropped field must be optional.
    const short = structuredClone(proto);
    if (short.sum.oneofKind === 'record')
      short.sum.record.fields = short.sum.record.fields.slice(0, 3);
    expect(() => fromProtoValue(con('Everything'), short, codec)).toThrow("'count'");
    expect(() => toProtoValue(con('Colour'), 'Green', codec)).toThrow(ValueShapeError);
  });

  it('stops at Daml-LF’s nesting limit', () => {
    let type: DamlType = prim('TEXT');
    let value: JsonValue = 'deep';
    for (let i = 0; i < 120; i++) {
      type = prim('LIST', type);
      value = [value];
    }
    expect(() => toProtoValue(type, value, codec)).toThrow('at most 100 levels of nesting');
  });

  it('reads timestamps to the microsecond', () => {
    expect(isoToMicros('1970-01-01T00:00:01.000001Z')).toBe(1_000_001n);
    expect(isoToMicros('2024-02-29T12:34:56Z')).toBe(1_709_210_096_000_000n);
  });
});

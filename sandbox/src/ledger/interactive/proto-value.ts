import type { Identifier, Value } from '@canton-network/core-ledger-proto';
import type {
  DamlType,
  DataType,
  TypeConName,
} from '@ledger-console/participant/daml-lf/package-model';
import { formatMicros, type JsonValue } from '../transaction';

/**
 * Daml values between the sandbox's JSON encoding and the Ledger API's protobuf `Value`, directed
 * by their Daml-LF types: a prepared transaction carries values "enriched" as Canton's
 * InteractiveSubmissionEnricher leaves them (record, variant and enum ids, record field labels,
 * trailing `None` fields dropped), which the JSON alone cannot say.
 */

/** Daml-LF's own nesting limit for values; deeper input is refused before recursion can hurt. */
export const MAX_VALUE_DEPTH = 100;

export type ValueCodec = {
  /** The package a type constructor with an empty package id (the demo's own) belongs to. */
  packageId: string;
  dataType: (tycon: TypeConName) => DataType | undefined;
  /** Rewrites each contract id on its way into the protobuf (suffixed to prepared, say). */
  contractId?: (contractId: string) => string;
};

/** A value that does not fit its type; the caller turns it into the participant's error. */
export class ValueShapeError extends Error {
  override readonly name = 'ValueShapeError';
}

const DAY_MILLIS = 86_400_000;

export function identifierOf(tycon: TypeConName, packageId: string): Identifier {
  return {
    packageId: tycon.packageId === '' ? packageId : tycon.packageId,
    moduleName: tycon.module,
    entityName: tycon.name,
  };
}

/** `<package-id>:<Module>:<Entity>` as an Identifier. */
export function identifierFromId(id: string): Identifier {
  const [packageId = '', moduleName = '', entityName = ''] = id.split(':');
  return { packageId, moduleName, entityName };
}

export const identifierToId = (id: Identifier) =>
  `${id.packageId}:${id.moduleName}:${id.entityName}`;

/** An ISO-8601 timestamp as microseconds since the epoch, keeping up to six fraction digits. */
export function isoToMicros(iso: string): bigint {
  const match = /\.(\d+)/.exec(iso);
  const whole = Date.parse(iso.replace(/\.\d+/, ''));
  if (Number.isNaN(whole)) throw new ValueShapeError(`Invalid timestamp ${iso}`);
  const fraction = (match?.[1] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(whole) * 1000n + BigInt(fraction);
}

const fail = (path: string, expected: string): never => {
  throw new ValueShapeError(`Invalid value at '${path || '.'}': expected ${expected}`);
};

/** Code point order, which is the order of the strings' UTF-8 bytes. */
const compareCodePoints = (a: string, b: string) =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

const isObject = (value: unknown): value is Record<string, JsonValue> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The JSON value (as the sandbox stores it) as a verbose protobuf `Value` of type `type`. */
export function toProtoValue(
  type: DamlType,
  value: JsonValue | undefined,
  codec: ValueCodec,
  path = '',
  depth = 0,
): Value {
  if (depth > MAX_VALUE_DEPTH) fail(path, `at most ${String(MAX_VALUE_DEPTH)} levels of nesting`);
  const next = (t: DamlType, v: JsonValue | undefined, p: string) =>
    toProtoValue(t, v, codec, p, depth + 1);
  if (type.kind === 'con') {
    const data = codec.dataType(type.tycon);
    if (!data) return fail(path, `a known type ${type.tycon.module}:${type.tycon.name}`);
    const id = identifierOf(type.tycon, codec.packageId);
    switch (data.kind) {
      case 'record': {
        if (!isObject(value)) return fail(path, `a record ${data.name}`);
        // Trailing None fields are absent from the stored JSON and from the enriched value alike.
        let kept = data.fields.length;
        while (kept > 0 && value[data.fields[kept - 1]?.name ?? ''] === undefined) kept--;
        return {
          sum: {
            oneofKind: 'record',
            record: {
              recordId: id,
              fields: data.fields.slice(0, kept).map((field) => ({
                label: field.name,
                value: next(
                  field.type,
                  value[field.name],
                  path ? `${path}.${field.name}` : field.name,
                ),
              })),
            },
          },
        };
      }
      case 'variant': {
        if (!isObject(value) || typeof value.tag !== 'string') return fail(path, 'a variant');
        const constructor = data.constructors.find((c) => c.name === value.tag);
        if (!constructor) return fail(path, `a constructor of ${data.name}`);
        return {
          sum: {
            oneofKind: 'variant',
            variant: {
              variantId: id,
              constructor: constructor.name,
              value: next(constructor.type, value.value, `${path}.value`),
            },
          },
        };
      }
      case 'enum':
        if (typeof value !== 'string' || !data.constructors.includes(value)) {
          return fail(path, `a constructor of ${data.name}`);
        }
        return { sum: { oneofKind: 'enum', enum: { enumId: id, constructor: value } } };
      case 'interface':
        return fail(path, 'a serializable type');
    }
  }
  if (type.kind !== 'prim') return fail(path, 'a serializable type');
  const [arg] = type.args;
  switch (type.prim) {
    case 'UNIT':
      return { sum: { oneofKind: 'unit', unit: {} } };
    case 'BOOL':
      return typeof value === 'boolean'
        ? { sum: { oneofKind: 'bool', bool: value } }
        : fail(path, 'a Bool');
    case 'INT64':
      return typeof value === 'string' || typeof value === 'number'
        ? { sum: { oneofKind: 'int64', int64: BigInt(value).toString() } }
        : fail(path, 'an Int64');
    case 'NUMERIC':
      return typeof value === 'string'
        ? { sum: { oneofKind: 'numeric', numeric: value } }
        : fail(path, 'a Numeric');
    case 'TEXT':
      return typeof value === 'string'
        ? { sum: { oneofKind: 'text', text: value } }
        : fail(path, 'a Text');
    case 'PARTY':
      return typeof value === 'string'
        ? { sum: { oneofKind: 'party', party: value } }
        : fail(path, 'a Party');
    case 'CONTRACT_ID':
      return typeof value === 'string'
        ? {
            sum: {
              oneofKind: 'contractId',
              contractId: codec.contractId ? codec.contractId(value) : value,
            },
          }
        : fail(path, 'a ContractId');
    case 'DATE':
      return typeof value === 'string'
        ? { sum: { oneofKind: 'date', date: Math.floor(Date.parse(value) / DAY_MILLIS) } }
        : fail(path, 'a Date');
    case 'TIMESTAMP':
      return typeof value === 'string'
        ? { sum: { oneofKind: 'timestamp', timestamp: isoToMicros(value).toString() } }
        : fail(path, 'a Timestamp');
    case 'LIST':
      if (!Array.isArray(value) || !arg) return fail(path, 'a List');
      return {
        sum: {
          oneofKind: 'list',
          list: { elements: value.map((item, i) => next(arg, item, `${path}[${String(i)}]`)) },
        },
      };
    case 'OPTIONAL': {
      if (!arg) return fail(path, 'an Optional');
      if (value === null || value === undefined) {
        return { sum: { oneofKind: 'optional', optional: {} } };
      }
      // A nested Optional is `[]` or `[v]` in JSON, so that None and Some None differ.
      const nested = arg.kind === 'prim' && arg.prim === 'OPTIONAL';
      if (nested && (!Array.isArray(value) || value.length > 1)) return fail(path, '[] or [v]');
      const inner = nested ? (value as JsonValue[])[0] : value;
      if (nested && inner === undefined) {
        return {
          sum: {
            oneofKind: 'optional',
            optional: { value: { sum: { oneofKind: 'optional', optional: {} } } },
          },
        };
      }
      return { sum: { oneofKind: 'optional', optional: { value: next(arg, inner, path) } } };
    }
    case 'TEXTMAP': {
      if (!isObject(value) || !arg) return fail(path, 'a TextMap');
      // LF keeps a TextMap sorted by key, in code point order.
      const keys = Object.keys(value).sort(compareCodePoints);
      return {
        sum: {
          oneofKind: 'textMap',
          textMap: {
            entries: keys.map((key) => ({ key, value: next(arg, value[key], `${path}.${key}`) })),
          },
        },
      };
    }
    default:
      return fail(path, `a serializable type (${type.prim} is not)`);
  }
}

/**
 * A protobuf `Value` back to the JSON the interpreter takes, checked against its type as Canton's
 * decoder and model conformance would: labels and type ids, where given, must be the type's.
 */
export function fromProtoValue(
  type: DamlType,
  value: Value | undefined,
  codec: ValueCodec,
  path = '',
  depth = 0,
): JsonValue {
  if (depth > MAX_VALUE_DEPTH) fail(path, `at most ${String(MAX_VALUE_DEPTH)} levels of nesting`);
  if (!value) return fail(path, 'a value');
  const next = (t: DamlType, v: Value | undefined, p: string) =>
    fromProtoValue(t, v, codec, p, depth + 1);
  const sum = value.sum;
  const sameId = (id: Identifier | undefined, tycon: TypeConName) => {
    if (!id) return true;
    const expected = identifierOf(tycon, codec.packageId);
    return (
      id.packageId === expected.packageId &&
      id.moduleName === expected.moduleName &&
      id.entityName === expected.entityName
    );
  };
  if (type.kind === 'con') {
    const data = codec.dataType(type.tycon);
    if (!data) return fail(path, `a known type ${type.tycon.module}:${type.tycon.name}`);
    if (data.kind === 'record') {
      if (sum.oneofKind !== 'record' || !sameId(sum.record.recordId, type.tycon)) {
        return fail(path, `a record ${data.name}`);
      }
      const fields = sum.record.fields;
      if (fields.length > data.fields.length) return fail(path, `the fields of ${data.name}`);
      const out: Record<string, JsonValue> = {};
      data.fields.forEach((field, i) => {
        const given = fields[i];
        const fieldPath = path ? `${path}.${field.name}` : field.name;
        if (!given) {
          // Dropped trailing fields must be optional: they read as None.
          if (field.type.kind !== 'prim' || field.type.prim !== 'OPTIONAL') {
            fail(fieldPath, 'a value');
          }
          return;
        }
        if (given.label !== '' && given.label !== field.name)
          fail(fieldPath, `field ${field.name}`);
        out[field.name] = next(field.type, given.value, fieldPath);
      });
      return out;
    }
    if (data.kind === 'variant') {
      if (sum.oneofKind !== 'variant' || !sameId(sum.variant.variantId, type.tycon)) {
        return fail(path, `a variant ${data.name}`);
      }
      const { constructor: tag, value: inner } = sum.variant;
      const constructor = data.constructors.find((c) => c.name === tag);
      if (!constructor) return fail(path, `a constructor of ${data.name}`);
      return { tag, value: next(constructor.type, inner, `${path}.value`) };
    }
    if (data.kind === 'enum') {
      if (sum.oneofKind !== 'enum' || !sameId(sum.enum.enumId, type.tycon)) {
        return fail(path, `an enum ${data.name}`);
      }
      return data.constructors.includes(sum.enum.constructor)
        ? sum.enum.constructor
        : fail(path, `a constructor of ${data.name}`);
    }
    return fail(path, 'a serializable type');
  }
  if (type.kind !== 'prim') return fail(path, 'a serializable type');
  const [arg] = type.args;
  switch (type.prim) {
    case 'UNIT':
      return sum.oneofKind === 'unit' ? {} : fail(path, 'Unit');
    case 'BOOL':
      return sum.oneofKind === 'bool' ? sum.bool : fail(path, 'a Bool');
    case 'INT64':
      return sum.oneofKind === 'int64' ? sum.int64 : fail(path, 'an Int64');
    case 'NUMERIC':
      return sum.oneofKind === 'numeric' ? sum.numeric : fail(path, 'a Numeric');
    case 'TEXT':
      return sum.oneofKind === 'text' ? sum.text : fail(path, 'a Text');
    case 'PARTY':
      return sum.oneofKind === 'party' ? sum.party : fail(path, 'a Party');
    case 'CONTRACT_ID':
      return sum.oneofKind === 'contractId' ? sum.contractId : fail(path, 'a ContractId');
    case 'DATE':
      return sum.oneofKind === 'date'
        ? new Date(sum.date * DAY_MILLIS).toISOString().slice(0, 10)
        : fail(path, 'a Date');
    case 'TIMESTAMP': {
      if (sum.oneofKind !== 'timestamp' || !/^-?\d+$/.test(sum.timestamp)) {
        return fail(path, 'a Timestamp');
      }
      const micros = BigInt(sum.timestamp);
      if (micros < 0n || micros >= 253402300800n * 1_000_000n) return fail(path, 'a Timestamp');
      return formatMicros(micros);
    }
    case 'LIST':
      if (sum.oneofKind !== 'list' || !arg) return fail(path, 'a List');
      return sum.list.elements.map((item, i) => next(arg, item, `${path}[${String(i)}]`));
    case 'OPTIONAL': {
      if (sum.oneofKind !== 'optional' || !arg) return fail(path, 'an Optional');
      const inner = sum.optional.value;
      const nested = arg.kind === 'prim' && arg.prim === 'OPTIONAL';
      if (inner === undefined) return null;
      const decoded = next(arg, inner, path);
      return nested ? (decoded === null ? [] : [decoded]) : decoded;
    }
    case 'TEXTMAP': {
      if (sum.oneofKind !== 'textMap' || !arg) return fail(path, 'a TextMap');
      const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
      for (const entry of sum.textMap.entries) {
        if (Object.hasOwn(out, entry.key)) fail(path, `distinct keys (${entry.key} repeats)`);
        out[entry.key] = next(arg, entry.value, `${path}.${entry.key}`);
      }
      return out;
    }
    default:
      return fail(path, `a serializable type (${type.prim} is not)`);
  }
}

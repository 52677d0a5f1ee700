import type {
  DamlType,
  DataType,
  TypeConName,
} from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError, invalidArgument } from '../errors/sandbox-error';
import { isWellFormedContractId, type JsonValue } from './transaction';
import { partyProblem } from '../validation/identifiers';

/** Finds the data type a `con` type names. */
export type DataTypeResolver = (tycon: TypeConName) => DataType | undefined;

// Values name the same few parties over and over: check each party string once.
const knownValidParties = new Set<string>();
function rememberValidParty(party: string) {
  if (knownValidParties.size > 10_000) knownValidParties.clear();
  knownValidParties.add(party);
}

const INT64 = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const MAX_INT64 = 9223372036854775807n;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The JSON API's transcoder in miniature (ledger-api-behaviour.md §7.1, §1.8): checks a JSON
 * value against its Daml type and returns it as the server prints it back (Int64 and Numeric as
 * strings, Numeric at its scale). Errors name the path, like the transcoder's messages.
 */
export function checkValue(
  type: DamlType,
  value: unknown,
  resolve: DataTypeResolver,
  path = '',
): JsonValue {
  const fail = (expected: string): never => {
    throw invalidArgument(
      `Invalid value at '${path || '.'}': expected ${expected}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
    );
  };
  if (type.kind === 'con') {
    const data = resolve(type.tycon);
    if (!data)
      throw new SandboxError('DAML_INTERPRETATION_ERROR', `Unknown type ${type.tycon.name}`);
    return checkData(data, value, resolve, path, fail);
  }
  if (type.kind !== 'prim') return fail('a serializable type');
  const [arg] = type.args;
  switch (type.prim) {
    case 'UNIT':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? {} : fail('{}');
    case 'BOOL':
      return typeof value === 'boolean' ? value : fail('a Bool');
    case 'TEXT':
      return typeof value === 'string' ? value : fail('a Text');
    case 'PARTY':
      if (typeof value !== 'string') return fail('a Party');
      if (!knownValidParties.has(value) && partyProblem(value) !== undefined) {
        throw invalidArgument(`Invalid party '${value}' at '${path || '.'}'`);
      }
      rememberValidParty(value);
      return value;
    case 'CONTRACT_ID':
      if (typeof value !== 'string') return fail('a ContractId');
      if (!isWellFormedContractId(value)) {
        throw invalidArgument(`cannot parse ContractId "${value}" at '${path || '.'}'`);
      }
      return value;
    case 'INT64': {
      const text = typeof value === 'number' ? String(value) : value;
      if (typeof text !== 'string' || !INT64.test(text)) return fail('an Int64');
      const big = BigInt(text);
      if (big > MAX_INT64 || big < -MAX_INT64 - 1n) return fail('an Int64 in range');
      return big.toString();
    }
    case 'NUMERIC': {
      const scale = arg?.kind === 'nat' ? arg.value : 10;
      return normalizeNumeric(value, scale) ?? fail(`a Numeric ${String(scale)}`);
    }
    case 'DATE':
      return typeof value === 'string' && DATE.test(value) ? value : fail('a Date (YYYY-MM-DD)');
    case 'TIMESTAMP':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? value
        : fail('a Timestamp');
    case 'LIST': {
      if (!Array.isArray(value) || !arg) return fail('a List');
      return value.map((item, i) => checkValue(arg, item, resolve, `${path}[${String(i)}]`));
    }
    case 'OPTIONAL': {
      if (!arg) return fail('an Optional');
      if (value === null || value === undefined) return null;
      // A nested Optional is `[]` or `[v]` so that None and Some None differ (§7.1).
      if (arg.kind === 'prim' && arg.prim === 'OPTIONAL') {
        if (!Array.isArray(value) || value.length > 1) return fail('[] or [value]');
        return value.length === 0 ? [] : [checkValue(arg, value[0], resolve, `${path}[0]`)];
      }
      return checkValue(arg, value, resolve, path);
    }
    case 'TEXTMAP': {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || !arg) {
        return fail('a TextMap object');
      }
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, checkValue(arg, v, resolve, `${path}.${k}`)]),
      );
    }
    default:
      return fail(`a serializable type (${type.prim} is not)`);
  }
}

function checkData(
  data: DataType,
  value: unknown,
  resolve: DataTypeResolver,
  path: string,
  fail: (expected: string) => never,
): JsonValue {
  switch (data.kind) {
    case 'record': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return fail(`a record ${data.name}`);
      }
      const given = value as Record<string, unknown>;
      const known = new Set(data.fields.map((field) => field.name));
      const unexpected = Object.keys(given).filter((key) => !known.has(key));
      if (unexpected.length > 0) {
        throw invalidArgument(`Unexpected fields: ${unexpected.join(', ')}`);
      }
      const isOptional = (type: DamlType) => type.kind === 'prim' && type.prim === 'OPTIONAL';
      const missing = data.fields.filter(
        (field) => given[field.name] === undefined && !isOptional(field.type),
      );
      if (missing.length > 0) {
        throw new SandboxError(
          'COMMAND_PREPROCESSING_FAILED',
          `Missing non-optional fields: ${missing.map((field) => field.name).join(', ')}${path ? ` at '${path}'` : ''}`,
        );
      }
      const out: Record<string, JsonValue> = {};
      for (const field of data.fields) {
        out[field.name] = checkValue(
          field.type,
          given[field.name],
          resolve,
          path ? `${path}.${field.name}` : field.name,
        );
      }
      // Trailing None fields are omitted on output (§7.1).
      let kept = data.fields.length;
      while (kept > 0 && out[data.fields[kept - 1]?.name ?? ''] === null) kept--;
      return Object.fromEntries(
        data.fields.slice(0, kept).map((f) => [f.name, out[f.name] ?? null]),
      );
    }
    case 'variant': {
      const given = value as { tag?: unknown; value?: unknown } | null;
      if (given === null || typeof given !== 'object' || typeof given.tag !== 'string') {
        throw invalidArgument(`Variant ${data.name} needs "tag" and "value" at '${path || '.'}'`);
      }
      const ctor = data.constructors.find((c) => c.name === given.tag);
      if (!ctor) return fail(`a constructor of ${data.name}`);
      return {
        tag: ctor.name,
        value: checkValue(ctor.type, given.value, resolve, `${path}.value`),
      };
    }
    case 'enum':
      return typeof value === 'string' && data.constructors.includes(value)
        ? value
        : fail(`one of ${data.constructors.join(', ')}`);
    case 'interface':
      return fail('a serializable type');
  }
}

/** Numeric(scale) as the API prints it: a decimal string with exactly `scale` fraction digits. */
export function normalizeNumeric(value: unknown, scale: number): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) return undefined;
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  if (fraction.replace(/0+$/, '').length > scale) return undefined;
  const integer = whole.replace(/^0+(?=\d)/, '');
  if (integer.length > 38 - scale) return undefined;
  const digits = fraction.padEnd(scale, '0').slice(0, scale);
  const isZero = /^0*$/.test(integer + digits);
  return `${negative && !isZero ? '-' : ''}${integer}${scale > 0 ? `.${digits}` : ''}`;
}

/** Numeric values as scaled integers, so the demo's arithmetic is exact. */
export function numericToUnits(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -units : units;
}

export function unitsToNumeric(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

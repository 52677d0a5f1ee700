import {
  substituteTypeVars,
  type DamlType,
  type DataType,
  type Field,
  type TypeConName,
} from '@/api/daml-lf-decoder';
import { isRecord } from '@/lib/values/is-record';

/** Looks a type constructor up; undefined while its package is not decoded (yet). */
export type ResolveDataType = (tycon: TypeConName) => DataType | undefined;

export type JsonObject = Record<string, unknown>;

/** `OPTIONAL [t]` → t; undefined for anything else. */
export function optionalInner(type: DamlType): DamlType | undefined {
  return type.kind === 'prim' && type.prim === 'OPTIONAL' ? type.args[0] : undefined;
}

/**
 * A value of `type` to start editing from, in the JSON API's encoding (§7.1: Int64 and Numeric as
 * strings, Unit `{}`, optionals `null`, enums their first constructor, variants `{tag, value}` of
 * their first). Types whose definition `resolve` does not have start as `{}` (records with type
 * parameters too): their editor puts the right value in once it has read the definition.
 */
export function defaultDamlValue(type: DamlType, resolve: ResolveDataType, depth = 0): unknown {
  if (depth > 8) return null;
  if (type.kind === 'prim') {
    switch (type.prim) {
      case 'TEXT':
      case 'PARTY':
      case 'CONTRACT_ID':
      case 'TIMESTAMP':
      case 'DATE':
        return '';
      case 'INT64':
        return '0';
      case 'NUMERIC':
      case 'BIGNUMERIC':
        return '0.0';
      case 'BOOL':
        return false;
      case 'UNIT':
        return {};
      case 'OPTIONAL':
        return null;
      case 'LIST':
      case 'GENMAP':
        return [];
      case 'TEXTMAP':
        return {};
      default:
        return null;
    }
  }
  if (type.kind === 'con') {
    const dataType = resolve(type.tycon);
    if (dataType?.kind === 'enum') return dataType.constructors[0] ?? '';
    if (dataType?.kind === 'variant') {
      const first = appliedConstructors(dataType, type.args)?.[0];
      return first
        ? { tag: first.name, value: defaultDamlValue(first.type, resolve, depth + 1) }
        : null;
    }
    if (dataType?.kind === 'record' && dataType.params.length === 0) {
      return Object.fromEntries(
        dataType.fields.map((field) => [
          field.name,
          defaultDamlValue(field.type, resolve, depth + 1),
        ]),
      );
    }
    return {};
  }
  return null;
}

/**
 * A variant's constructors with its type parameters replaced by the arguments it is applied to
 * (`Result Int64`: `Ok a` becomes `Ok Int64`), or `undefined` when the arity does not match.
 */
export function appliedConstructors(
  dataType: Extract<DataType, { kind: 'variant' }>,
  args: readonly DamlType[],
): Field[] | undefined {
  if (args.length !== dataType.params.length) return undefined;
  const bindings = new Map<string, DamlType>();
  dataType.params.forEach((param, index) => {
    const arg = args[index];
    if (arg) bindings.set(param, arg);
  });
  return dataType.constructors.map((constructor) => ({
    name: constructor.name,
    type: substituteTypeVars(constructor.type, bindings),
  }));
}

/** Whether the editor for `type` can be a form; anything else is edited as JSON. */
export function hasFormEditor(type: DamlType): boolean {
  if (type.kind === 'con') return true;
  if (type.kind !== 'prim') return false;
  switch (type.prim) {
    case 'OPTIONAL':
    case 'LIST': {
      const inner = type.args[0];
      return inner !== undefined && hasFormEditor(inner);
    }
    case 'TEXT':
    case 'PARTY':
    case 'CONTRACT_ID':
    case 'TIMESTAMP':
    case 'DATE':
    case 'INT64':
    case 'NUMERIC':
    case 'BIGNUMERIC':
    case 'BOOL':
    case 'UNIT':
      return true;
    default:
      return false;
  }
}

/**
 * A nested optional is encoded as `[]` / `[v]` so that `Some None` and `None` differ (§7.1); the
 * outermost optional is `null` / `v`.
 */
export function isNestedOptional(type: DamlType): boolean {
  const inner = optionalInner(type);
  return inner !== undefined && optionalInner(inner) !== undefined;
}

/**
 * `value` as a record of exactly `fields`, in their order: values of fields of the same name are
 * kept, missing ones get their default, and fields the type does not have (left from another
 * template or choice) are dropped, as the server refuses them ("Unexpected fields").
 */
export function recordOfFields(
  value: unknown,
  fields: readonly { name: string; type: DamlType }[],
  resolve: ResolveDataType,
): JsonObject {
  const record = isRecord(value) ? value : {};
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      field.name in record ? record[field.name] : defaultDamlValue(field.type, resolve),
    ]),
  );
}

/** Whether `value` is already a record of exactly these fields (order aside). */
export function isRecordOfFields(value: unknown, fields: readonly { name: string }[]): boolean {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === fields.length &&
    fields.every((field) => Object.prototype.hasOwnProperty.call(value, field.name))
  );
}

/** Parses JSON text; undefined when it does not parse. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

export function toJsonText(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}

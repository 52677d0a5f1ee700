import {
  findDataType,
  recordFieldsOf,
  substituteTypeVars,
  type DamlType,
  type PackageContents,
} from '@/api/daml-lf-decoder';
import { UNKNOWN_TYPE, type ValueType } from '@/lib/values/daml-value';

/**
 * A decoded Daml-LF type as the value renderer's `ValueType`. Records and variants resolve their
 * definitions only when a value of them is read, so recursive types cost nothing up front; a type
 * whose package is not decoded reads as unknown (shown by its JSON shape).
 */
export function valueTypeOf(type: DamlType, packages: readonly PackageContents[]): ValueType {
  switch (type.kind) {
    case 'prim':
      return primValueType(type.prim, type.args, packages);
    case 'con': {
      const dataType = findDataType(packages, type.tycon);
      if (!dataType) return UNKNOWN_TYPE;
      if (dataType.kind === 'enum') return { kind: 'enum' };
      if (dataType.kind === 'record') {
        // Read once: a list asks for the fields of the same type in every row.
        let fields: readonly { name: string; type: ValueType }[] | undefined | null = null;
        return {
          kind: 'record',
          fields: () => {
            fields ??= recordFieldsOf(packages, type)?.map((field) => ({
              name: field.name,
              type: valueTypeOf(field.type, packages),
            }));
            return fields;
          },
        };
      }
      if (dataType.kind === 'variant') {
        const bindings = new Map<string, DamlType>();
        dataType.params.forEach((param, index) => {
          const arg = type.args[index];
          if (arg) bindings.set(param, arg);
        });
        return {
          kind: 'variant',
          constructor: (tag) => {
            const found = dataType.constructors.find((candidate) => candidate.name === tag);
            return found
              ? valueTypeOf(substituteTypeVars(found.type, bindings), packages)
              : undefined;
          },
        };
      }
      return UNKNOWN_TYPE;
    }
    default:
      return UNKNOWN_TYPE;
  }
}

function primValueType(
  prim: Extract<DamlType, { kind: 'prim' }>['prim'],
  args: readonly DamlType[],
  packages: readonly PackageContents[],
): ValueType {
  const arg = (index: number) => {
    const found = args[index];
    return found ? valueTypeOf(found, packages) : UNKNOWN_TYPE;
  };
  switch (prim) {
    case 'TEXT':
      return { kind: 'text' };
    case 'PARTY':
      return { kind: 'party' };
    case 'CONTRACT_ID':
      return { kind: 'contract-id' };
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return { kind: 'numeric' };
    case 'INT64':
      return { kind: 'int64' };
    case 'DATE':
      return { kind: 'date' };
    case 'TIMESTAMP':
      return { kind: 'timestamp' };
    case 'BOOL':
      return { kind: 'bool' };
    case 'UNIT':
      return { kind: 'unit' };
    case 'OPTIONAL':
      return { kind: 'optional', item: arg(0) };
    case 'LIST':
      return { kind: 'list', item: arg(0) };
    case 'TEXTMAP':
      return { kind: 'text-map', item: arg(0) };
    case 'GENMAP':
      return { kind: 'gen-map', key: arg(0), item: arg(1) };
    default:
      return UNKNOWN_TYPE;
  }
}

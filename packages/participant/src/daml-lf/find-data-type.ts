/**
 * Follows a type constructor to its definition, across the decoded packages at hand: what a UI
 * needs to show a choice's argument fields (the argument type is a record named after the choice,
 * possibly in another package) and, later, to build a form for any serializable type.
 */

import type { DamlType, DataType, DecodedPackage, Field, TypeConName } from './package-model';

/** The part of a decoded package lookups need, so trimmed copies of the model work too. */
export type PackageDefinitions = Pick<DecodedPackage, 'packageId' | 'modules'>;

/** The data type `tycon` names, or undefined when its package is not among `packages`. */
export function findDataType(
  packages: Iterable<PackageDefinitions>,
  tycon: TypeConName,
): DataType | undefined {
  for (const pkg of packages) {
    if (pkg.packageId !== tycon.packageId) continue;
    const module = pkg.modules.find((candidate) => candidate.name === tycon.module);
    return module?.dataTypes.find((dataType) => dataType.name === tycon.name);
  }
  return undefined;
}

/**
 * The fields of a record type, with the record's type parameters replaced by the arguments `type`
 * applies it to (`Wrapper Int64` gives `value: Int64`, not `value: a`). Undefined when `type` is not
 * a record constructor, or its definition is not among `packages`.
 */
export function recordFieldsOf(
  packages: Iterable<PackageDefinitions>,
  type: DamlType,
): readonly Field[] | undefined {
  if (type.kind !== 'con') return undefined;
  const dataType = findDataType(packages, type.tycon);
  if (dataType?.kind !== 'record') return undefined;
  if (dataType.params.length === 0 || type.args.length === 0) return dataType.fields;
  const bindings = new Map<string, DamlType>();
  dataType.params.forEach((param, index) => {
    const arg = type.args[index];
    if (arg) bindings.set(param, arg);
  });
  return dataType.fields.map((field) => ({
    name: field.name,
    type: substituteTypeVars(field.type, bindings),
  }));
}

/**
 * Replaces type variables by the types bound to them. Variables a `forall` inside binds again are
 * left alone there. Applied variables (`f a`) take their arguments onto the bound type.
 */
export function substituteTypeVars(
  type: DamlType,
  bindings: ReadonlyMap<string, DamlType>,
): DamlType {
  if (bindings.size === 0) return type;
  const each = (types: readonly DamlType[]) =>
    types.map((inner) => substituteTypeVars(inner, bindings));
  switch (type.kind) {
    case 'nat':
      return type;
    case 'var': {
      const bound = bindings.get(type.name);
      const args = each(type.args);
      if (!bound) return { ...type, args };
      if (args.length === 0) return bound;
      return 'args' in bound ? { ...bound, args: [...bound.args, ...args] } : bound;
    }
    case 'prim':
    case 'con':
    case 'syn':
      return { ...type, args: each(type.args) };
    case 'struct':
      return {
        kind: 'struct',
        fields: type.fields.map((field) => ({
          name: field.name,
          type: substituteTypeVars(field.type, bindings),
        })),
      };
    case 'forall': {
      const inner = new Map(bindings);
      for (const name of type.vars) inner.delete(name);
      return { kind: 'forall', vars: type.vars, body: substituteTypeVars(type.body, inner) };
    }
  }
}

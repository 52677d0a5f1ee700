import type { DamlType, PrimType } from './package-model';

/** Builtin types as Daml-LF's pretty printer spells them. */
const PRIM_NAMES: Record<PrimType, string> = {
  UNIT: 'Unit',
  BOOL: 'Bool',
  INT64: 'Int64',
  DATE: 'Date',
  TIMESTAMP: 'Timestamp',
  NUMERIC: 'Numeric',
  PARTY: 'Party',
  TEXT: 'Text',
  CONTRACT_ID: 'ContractId',
  OPTIONAL: 'Optional',
  LIST: 'List',
  GENMAP: 'GenMap',
  ANY: 'Any',
  ANY_EXCEPTION: 'AnyException',
  TYPE_REP: 'TypeRep',
  ARROW: 'Arrow',
  UPDATE: 'Update',
  FAILURE_CATEGORY: 'FailureCategory',
  TEXTMAP: 'TextMap',
  BIGNUMERIC: 'BigNumeric',
  ROUNDING_MODE: 'RoundingMode',
};

/**
 * Renders a type on one line, e.g. `Optional (ContractId Canton.Internal.Ping:Ping)`, for error
 * messages, logs and UI labels. Type constructors are shown as `Module:Name` without the package
 * id, which is what a person wants to read; the model keeps the full name.
 */
export function formatType(type: DamlType): string {
  return format(type, false);
}

function format(type: DamlType, nested: boolean): string {
  const wrap = (text: string) => (nested ? `(${text})` : text);
  switch (type.kind) {
    case 'nat':
      return String(type.value);
    case 'struct':
      return `<${type.fields.map((f) => `${f.name}: ${format(f.type, false)}`).join(', ')}>`;
    case 'forall':
      return wrap(`forall ${type.vars.join(' ')}. ${format(type.body, false)}`);
    case 'prim':
      if (type.prim === 'ARROW' && type.args.length === 2) {
        const [from, to] = type.args as [DamlType, DamlType];
        return wrap(`${format(from, true)} -> ${format(to, false)}`);
      }
      return applied(PRIM_NAMES[type.prim], type.args, nested);
    case 'con':
      return applied(`${type.tycon.module}:${type.tycon.name}`, type.args, nested);
    case 'syn':
      return applied(`${type.tysyn.module}:${type.tysyn.name}`, type.args, nested);
    case 'var':
      return applied(type.name, type.args, nested);
  }
}

function applied(head: string, args: readonly DamlType[], nested: boolean): string {
  if (args.length === 0) return head;
  const text = [head, ...args.map((arg) => format(arg, true))].join(' ');
  return nested ? `(${text})` : text;
}

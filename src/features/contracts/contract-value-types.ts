import type { PackageContents } from '@/api/daml-lf-decoder';
import { valueTypeOf } from './daml-value-type';
import {
  resolveInterface,
  resolveTemplate,
  type InterfaceEntry,
  type TemplateEntry,
} from '@/hooks/template-catalog';
import { UNKNOWN_TYPE, type ValueType } from '@/lib/values/daml-value';

/** A column of a template's argument or an interface's view: a field, with its type. */
export type FieldColumn = { name: string; type: ValueType };

/** The value types the list needs, looked up once per template id (rows share them). */
export type ContractTypes = {
  /** The record type of a template's argument, by the package-id template id of a contract. */
  argumentOf: (templateId: string) => ValueType;
  /** The fields of the filter's template (argument) or interface (view): the list's columns. */
  columns: readonly FieldColumn[] | undefined;
};

function fieldsOf(type: ValueType): readonly FieldColumn[] | undefined {
  return type.kind === 'record' ? type.fields() : undefined;
}

function templateType(entry: TemplateEntry, packages: readonly PackageContents[]): ValueType {
  return valueTypeOf({ kind: 'con', tycon: entry.template.tycon, args: [] }, packages);
}

function viewType(entry: InterfaceEntry, packages: readonly PackageContents[]): ValueType {
  const view = entry.definition.viewType;
  return view ? valueTypeOf(view, packages) : UNKNOWN_TYPE;
}

export function contractTypes(
  catalog: {
    packages: readonly PackageContents[];
    templates: readonly TemplateEntry[];
    interfaces: readonly InterfaceEntry[];
  },
  filter: { template?: string; interface?: string },
): ContractTypes {
  const byId = new Map(catalog.templates.map((entry) => [entry.byId, entry]));
  const cache = new Map<string, ValueType>();
  const argumentOf = (templateId: string) => {
    let type = cache.get(templateId);
    if (!type) {
      const entry = byId.get(templateId);
      type = entry ? templateType(entry, catalog.packages) : UNKNOWN_TYPE;
      cache.set(templateId, type);
    }
    return type;
  };
  let columns: readonly FieldColumn[] | undefined;
  if (filter.template !== undefined) {
    const entry = resolveTemplate(catalog.templates, filter.template);
    columns = entry ? fieldsOf(templateType(entry, catalog.packages)) : undefined;
  } else if (filter.interface !== undefined) {
    const entry = resolveInterface(catalog.interfaces, filter.interface);
    columns = entry ? fieldsOf(viewType(entry, catalog.packages)) : undefined;
  }
  return { argumentOf, columns };
}

/** The type of one field of a record type; unknown when the type does not have it. */
export function fieldType(record: ValueType, name: string): ValueType {
  if (record.kind !== 'record') return UNKNOWN_TYPE;
  return record.fields()?.find((field) => field.name === name)?.type ?? UNKNOWN_TYPE;
}

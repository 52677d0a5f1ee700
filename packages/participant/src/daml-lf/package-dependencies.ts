import type { DamlType, DecodedPackage, TypeConName } from './package-model';

/**
 * Every other package a package's declarations refer to: its explicit imports (LF 2.dev) and the
 * packages of the type constructors and synonyms its data types, templates, choices and
 * interfaces use. Expressions are not read, so a package used only in function bodies is not
 * found. Its own module, free of the decoder, so that the page's chunks can use it too.
 */
export function directDependencies(
  pkg: Pick<DecodedPackage, 'packageId' | 'modules' | 'importedPackages'>,
): Set<string> {
  const found = new Set<string>(pkg.importedPackages ?? []);
  const addName = (name: TypeConName) => found.add(name.packageId);
  const addType = (type: DamlType): void => {
    switch (type.kind) {
      case 'con':
        addName(type.tycon);
        break;
      case 'syn':
        addName(type.tysyn);
        break;
      case 'forall':
        addType(type.body);
        return;
      case 'struct':
        for (const field of type.fields) addType(field.type);
        return;
      case 'nat':
        return;
      default:
    }
    for (const arg of type.args) addType(arg);
  };
  for (const module of pkg.modules) {
    for (const dataType of module.dataTypes) {
      if (dataType.kind === 'record') for (const field of dataType.fields) addType(field.type);
      if (dataType.kind === 'variant') {
        for (const constructor of dataType.constructors) addType(constructor.type);
      }
    }
    for (const synonym of module.synonyms) addType(synonym.type);
    for (const template of module.templates) {
      if (template.keyType) addType(template.keyType);
      for (const choice of template.choices) {
        addType(choice.argType);
        addType(choice.returnType);
      }
      for (const name of template.implements) addName(name);
    }
    for (const iface of module.interfaces) {
      if (iface.viewType) addType(iface.viewType);
      for (const choice of iface.choices) {
        addType(choice.argType);
        addType(choice.returnType);
      }
      for (const name of iface.requires) addName(name);
    }
  }
  found.delete(pkg.packageId);
  found.delete('');
  return found;
}

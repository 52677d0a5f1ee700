import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type {
  Choice,
  DataType,
  Interface,
  PackageContents,
  Template,
  TypeConName,
} from '@/api/daml-lf-decoder';
import { findDataType } from '@/api/daml-lf-decoder';
import { comparePackageVersions, packageQueries } from '@/api/packages';

/** A template of a decoded package, by both of its names. */
export type TemplateEntry = {
  packageId: string;
  packageName: string;
  packageVersion: string;
  moduleName: string;
  template: Template;
  /** `#<package-name>:<Module>:<Entity>`: the preferred form (§7.1). */
  byName: string;
  /** `<package-id>:<Module>:<Entity>`. */
  byId: string;
};

/** An interface of a decoded package, by both of its names. */
export type InterfaceEntry = {
  packageId: string;
  packageName: string;
  packageVersion: string;
  moduleName: string;
  definition: Interface;
  /** `#<package-name>:<Module>:<Entity>`. */
  byName: string;
  /** `<package-id>:<Module>:<Entity>`. */
  byId: string;
};

/** A choice that may be exercised on a template, with where it is declared. */
export type ChoiceEntry = { choice: Choice; interfaceId?: string };

export type TemplateCatalog = {
  packages: readonly PackageContents[];
  templates: readonly TemplateEntry[];
  interfaces: readonly InterfaceEntry[];
  isLoading: boolean;
  /** Packages that could not be listed or read: their templates are missing from `templates`. */
  unreadable: { count: number; firstError: unknown } | undefined;
  /** The package list itself failed: no templates at all. */
  listError: unknown;
};

/**
 * The decoded packages and their entries. A module-level `combine`: TanStack Query runs it again
 * only when a query's result changes, so lists keyed on these arrays (types per template, columns)
 * are not rebuilt on every render.
 */
function combineContents(results: UseQueryResult<PackageContents>[]) {
  const packages = results.flatMap((query) => (query.data ? [query.data] : []));
  const failed = results.filter((query) => query.isError);
  return {
    packages,
    templates: templateEntries(packages),
    interfaces: interfaceEntries(packages),
    isPending: results.some((query) => query.isPending),
    unreadable:
      failed.length > 0 ? { count: failed.length, firstError: failed[0]?.error } : undefined,
  };
}

/** Every template of every package on the participant, decoded in the browser (cached forever). */
export function useTemplateCatalog(): TemplateCatalog {
  const ids = useQuery(packageQueries.ids());
  const { packages, templates, interfaces, isPending, unreadable } = useQueries({
    queries: (ids.data ?? []).map((id) => ({ ...packageQueries.contents(id), retry: false })),
    combine: combineContents,
  });
  return {
    packages,
    templates,
    interfaces,
    isLoading: ids.isPending || isPending,
    unreadable,
    listError: ids.error ?? undefined,
  };
}

export function templateEntries(packages: readonly PackageContents[]): TemplateEntry[] {
  return packages.flatMap((pkg) =>
    pkg.modules.flatMap((module) =>
      module.templates.map((template) => ({
        packageId: pkg.packageId,
        packageName: pkg.name,
        packageVersion: pkg.version,
        moduleName: module.name,
        template,
        byName: `#${pkg.name}:${module.name}:${template.name}`,
        byId: `${pkg.packageId}:${module.name}:${template.name}`,
      })),
    ),
  );
}

export function interfaceEntries(packages: readonly PackageContents[]): InterfaceEntry[] {
  return packages.flatMap((pkg) =>
    pkg.modules.flatMap((module) =>
      module.interfaces.map((definition) => ({
        packageId: pkg.packageId,
        packageName: pkg.name,
        packageVersion: pkg.version,
        moduleName: module.name,
        definition,
        byName: `#${pkg.name}:${module.name}:${definition.name}`,
        byId: `${pkg.packageId}:${module.name}:${definition.name}`,
      })),
    ),
  );
}

/**
 * The template a template id names. A package name resolves, as the participant does by default,
 * to the highest version present (vetting may pick otherwise; the server has the last word).
 */
export function resolveTemplate(
  templates: readonly TemplateEntry[],
  templateId: string,
): TemplateEntry | undefined {
  return resolveEntry(templates, templateId);
}

/** The interface an interface id names, resolved as {@link resolveTemplate} resolves templates. */
export function resolveInterface(
  interfaces: readonly InterfaceEntry[],
  interfaceId: string,
): InterfaceEntry | undefined {
  return resolveEntry(interfaces, interfaceId);
}

function resolveEntry<T extends { byName: string; byId: string; packageVersion: string }>(
  entries: readonly T[],
  reference: string,
): T | undefined {
  const id = reference.trim();
  if (id.startsWith('#')) {
    return entries
      .filter((entry) => entry.byName === id)
      .sort((a, b) => comparePackageVersions(b.packageVersion, a.packageVersion))[0];
  }
  return entries.find((entry) => entry.byId === id);
}

/** The template's own choices, then those of the interfaces it implements. */
export function choicesOf(
  entry: TemplateEntry,
  packages: readonly PackageContents[],
): ChoiceEntry[] {
  const own = entry.template.choices.map((choice) => ({ choice }));
  const inherited = entry.template.implements.flatMap((tycon: TypeConName) => {
    const pkg = packages.find((candidate) => candidate.packageId === tycon.packageId);
    const declared = pkg?.modules
      .find((module) => module.name === tycon.module)
      ?.interfaces.find((candidate) => candidate.name === tycon.name);
    const interfaceId = `${tycon.packageId}:${tycon.module}:${tycon.name}`;
    return (declared?.choices ?? []).map((choice) => ({ choice, interfaceId }));
  });
  // Every interface has an Archive as the template does (and two interfaces may share a choice
  // name): a name is offered once, the template's own first, as exercising it by name picks it.
  const names = new Set<string>();
  return [...own, ...inherited].filter(({ choice }) => {
    if (names.has(choice.name)) return false;
    names.add(choice.name);
    return true;
  });
}

/** Looks a data type up among decoded packages. */
export function dataTypeIn(
  packages: readonly PackageContents[],
  tycon: TypeConName,
): DataType | undefined {
  return findDataType(packages, tycon);
}

import type { Module } from '@/api/daml-lf-decoder';

/**
 * The modules with something whose name contains `filter` (case-insensitive), trimmed to what
 * matches: a module whose name matches keeps everything; otherwise it keeps the templates and
 * interfaces whose name or one of whose choices matches (all their choices, for context) and the
 * data types whose name matches. An empty filter keeps everything as it is.
 */
export function filterModules(modules: readonly Module[], filter: string): Module[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return [...modules];
  const matches = (name: string) => name.toLowerCase().includes(needle);
  const withChoices = (item: { name: string; choices: readonly { name: string }[] }) =>
    matches(item.name) || item.choices.some((choice) => matches(choice.name));
  return modules.flatMap((module) => {
    if (matches(module.name)) return [module];
    const trimmed: Module = {
      ...module,
      templates: module.templates.filter(withChoices),
      interfaces: module.interfaces.filter(withChoices),
      dataTypes: module.dataTypes.filter((dataType) => matches(dataType.name)),
      synonyms: module.synonyms.filter((synonym) => matches(synonym.name)),
    };
    const isEmpty =
      trimmed.templates.length === 0 &&
      trimmed.interfaces.length === 0 &&
      trimmed.dataTypes.length === 0 &&
      trimmed.synonyms.length === 0;
    return isEmpty ? [] : [trimmed];
  });
}

/** "2 templates · 1 interface · 5 data types": what a collapsed module holds. */
export function moduleSummary(module: Module): string {
  const parts = [
    plural(module.templates.length, 'template', 'templates'),
    plural(module.interfaces.length, 'interface', 'interfaces'),
    plural(module.dataTypes.length, 'data type', 'data types'),
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(' · ') : 'No declarations';
}

function plural(n: number, one: string, many: string): string | undefined {
  if (n === 0) return undefined;
  return `${String(n)} ${n === 1 ? one : many}`;
}

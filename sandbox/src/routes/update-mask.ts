/**
 * Validates a FieldMask the way the participant's update-path parser does (§2.5, §3.3): why it is
 * rejected, or undefined when every path is known and unique.
 */
export function updateMaskProblem(
  paths: string[],
  knownPaths: readonly string[],
): string | undefined {
  if (paths.length === 0) return 'The update mask contains no entries';
  const seen = new Set<string>();
  for (const path of paths) {
    if (!knownPaths.includes(path)) return `The update path: '${path}' points to an unknown field.`;
    if (seen.has(path)) return `The update path: '${path}' is duplicated.`;
    seen.add(path);
  }
  return undefined;
}

/** A field is set by an exact path; a prefix path (e.g. `metadata`) updates it only when non-default. */
export function maskTouches(paths: string[], field: string): 'exact' | 'prefix' | undefined {
  if (paths.includes(field)) return 'exact';
  if (paths.some((path) => field.startsWith(`${path}.`))) return 'prefix';
  return undefined;
}

/** Whether an update sets `field`: an exact path sets it even to its default, a prefix path only to a non-default value (§2.5). */
export function maskSets(paths: string[], field: string, isDefault: boolean): boolean {
  const touch = maskTouches(paths, field);
  return touch === 'exact' || (touch === 'prefix' && !isDefault);
}

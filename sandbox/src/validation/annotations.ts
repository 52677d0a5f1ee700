/** 256 KiB: the total UTF-8 size of keys and values a user or party may carry. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const NAME = /^([a-zA-Z0-9]+[a-zA-Z0-9.\-_]*)?[a-zA-Z0-9]+$/;
const DNS_LABEL = /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/** Sum of UTF-8 bytes of keys and values over entries with non-empty values. */
export function annotationsSize(annotations: Record<string, string>) {
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    if (value === '') continue;
    size += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return size;
}

function keyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `Key '${key}' contains more than one forward slash ('/') character`;
  const [prefix, name] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : [undefined, key];
  if (prefix !== undefined) {
    if (prefix.length > 253)
      return `Key prefix segment '${prefix}' exceeds maximum length of 253 characters`;
    if (!prefix.split('.').every((label) => DNS_LABEL.test(label)))
      return `Key prefix segment '${prefix}' has invalid syntax`;
  }
  if (name.length > 63) return `Key name segment '${name}' exceeds maximum length of 63 characters`;
  if (!NAME.test(name)) return `Key name segment '${name}' has invalid syntax`;
  return undefined;
}

/**
 * Checks annotations as ResourceAnnotationValidator does (ledger-api-behaviour.md §2.2).
 * Empty values are rejected on create and mean "delete this key" on update.
 */
export function annotationsProblem(
  annotations: Record<string, string>,
  { allowEmptyValues, fieldName }: { allowEmptyValues: boolean; fieldName: string },
): string | undefined {
  for (const [key, value] of Object.entries(annotations)) {
    const problem = keyProblem(key);
    if (problem) return problem;
    if (!allowEmptyValues && value === '')
      return `The value of an annotation is empty for key: '${key}'`;
  }
  if (annotationsSize(annotations) > MAX_ANNOTATIONS_BYTES)
    return `annotations from field '${fieldName}' are larger than the limit of 256kb`;
  return undefined;
}

/** Lays `update` over `current`; keys whose new value is empty are removed. */
export function mergeAnnotations(current: Record<string, string>, update: Record<string, string>) {
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(update)) {
    if (value === '') merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

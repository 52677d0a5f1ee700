import {
  annotationKeyProblem,
  annotationsByteSize,
  MAX_ANNOTATIONS_BYTES,
  MAX_KEY_NAME_LENGTH,
  MAX_KEY_PREFIX_LENGTH,
  type AnnotationKeyProblem,
} from '@ledger-console/participant/annotations';

// The rules are the participant package's; here they are worded as the real server words them.

export { MAX_ANNOTATIONS_BYTES } from '@ledger-console/participant/annotations';

/** Sum of UTF-8 bytes of keys and values over entries with non-empty values. */
export function annotationsSize(annotations: Record<string, string>) {
  return annotationsByteSize(Object.entries(annotations));
}

function keyMessage(key: string, problem: AnnotationKeyProblem): string {
  switch (problem.kind) {
    case 'many-slashes':
      return `Key '${key}' contains more than one forward slash ('/') character`;
    case 'prefix-too-long':
      return `Key prefix segment '${problem.prefix}' exceeds maximum length of ${MAX_KEY_PREFIX_LENGTH} characters`;
    case 'prefix-syntax':
      return `Key prefix segment '${problem.prefix}' has invalid syntax`;
    case 'name-too-long':
      return `Key name segment '${problem.name}' exceeds maximum length of ${MAX_KEY_NAME_LENGTH} characters`;
    case 'name-syntax':
      return `Key name segment '${problem.name}' has invalid syntax`;
  }
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
    const problem = annotationKeyProblem(key);
    if (problem) return keyMessage(key, problem);
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

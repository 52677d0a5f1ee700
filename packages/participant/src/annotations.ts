/**
 * The participant's rules for the annotations of users, parties and identity providers
 * (ResourceAnnotationValidator, ledger-api-behaviour.md §2.2; parties follow the user rules,
 * §5.1). The checks return a structured problem, so the sandbox can word it as the real server
 * does and the console as a form field's message.
 */

/** 256 KiB: the total UTF-8 size of keys and values a resource may carry. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;
export const MAX_KEY_PREFIX_LENGTH = 253;
export const MAX_KEY_NAME_LENGTH = 63;

const NAME = /^([a-zA-Z0-9]+[a-zA-Z0-9.\-_]*)?[a-zA-Z0-9]+$/;
const DNS_LABEL = /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/** What is wrong with an annotation key (`[prefix/]name`), in the order the participant checks. */
export type AnnotationKeyProblem =
  | { kind: 'many-slashes' }
  | { kind: 'prefix-too-long'; prefix: string }
  | { kind: 'prefix-syntax'; prefix: string }
  | { kind: 'name-too-long'; name: string }
  | { kind: 'name-syntax'; name: string };

/** Why the participant refuses `key`, or undefined when it is valid. */
export function annotationKeyProblem(key: string): AnnotationKeyProblem | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return { kind: 'many-slashes' };
  const [prefix, name] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : [undefined, key];
  if (prefix !== undefined) {
    if (prefix.length > MAX_KEY_PREFIX_LENGTH) return { kind: 'prefix-too-long', prefix };
    if (!prefix.split('.').every((label) => DNS_LABEL.test(label))) {
      return { kind: 'prefix-syntax', prefix };
    }
  }
  if (name.length > MAX_KEY_NAME_LENGTH) return { kind: 'name-too-long', name };
  if (!NAME.test(name)) return { kind: 'name-syntax', name };
  return undefined;
}

const encoder = new TextEncoder();

/**
 * What the participant counts against `MAX_ANNOTATIONS_BYTES`: the UTF-8 bytes of keys and values
 * of the entries whose value is not empty (an empty value deletes its key on update).
 */
export function annotationsByteSize(entries: Iterable<readonly [key: string, value: string]>) {
  let size = 0;
  for (const [key, value] of entries) {
    if (value === '') continue;
    size += encoder.encode(key).length + encoder.encode(value).length;
  }
  return size;
}

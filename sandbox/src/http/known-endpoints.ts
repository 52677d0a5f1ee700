import { loadApiFacts } from '../spec/api-facts';

/**
 * Every (method, path) of Canton's JSON API (as derived into spec/canton-api-facts.json), so that a
 * wrong method on a real path answers 405 and paths the sandbox does not serve say so plainly.
 */
export const KNOWN_ENDPOINTS: readonly (readonly [string, string])[] = Object.entries(
  loadApiFacts().http.paths,
).flatMap(([path, operations]) =>
  Object.keys(operations).map((method) => [method.toUpperCase(), path] as const),
);

const patterns = KNOWN_ENDPOINTS.map(([method, path]) => ({
  method,
  path,
  regex: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The methods the spec defines for `path`; empty when the path is not part of the API. */
export function methodsFor(path: string): string[] {
  return patterns.filter((pattern) => pattern.regex.test(path)).map((pattern) => pattern.method);
}

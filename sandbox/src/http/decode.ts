import type { Context } from 'hono';
import { z } from 'zod';
import { DecodeFailure } from '../errors/sandbox-error';

/**
 * Decodes a JSON request body the way the real JSON API does: circe with "relaxed" defaults for
 * absent scalars, lists and maps (ledger-api-behaviour.md §0.3), and tapir's `400 text/plain`
 * "Invalid value for: body (...)" when that fails (§1.9).
 */
export async function readJsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  const text = await c.req.text();
  return decodeJson(text, schema);
}

/**
 * How deeply a request's JSON may nest. Daml-LF caps a value's nesting at 100; in the JSON
 * encoding each Daml level takes one or two levels (a record's object, a variant's `value`), below
 * a command envelope of about ten, so 1000 leaves room to spare while keeping the recursion that
 * follows parsing (schema checks, value conversion) far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 1000;

export function decodeJson<T>(text: string, schema: z.ZodType<T>): T {
  if (text.trim() === '') throw new DecodeFailure('body', 'exhausted input');
  const tooDeep = nestingLimitPosition(text, MAX_JSON_DEPTH);
  if (tooDeep !== undefined) {
    throw new DecodeFailure(
      'body',
      `JSON nested deeper than ${String(MAX_JSON_DEPTH)} levels (${lineAndColumn(text, tooDeep)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DecodeFailure('body', describeSyntaxError(text));
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new DecodeFailure('body');
  throw new DecodeFailure('body', describeIssue(issue, json));
}

/**
 * Where the JSON text opens its `limit + 1`-th nested array or object, if it does: a linear scan
 * counting brackets outside strings, so no parser or schema ever recurses that deep.
 */
function nestingLimitPosition(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > limit) return i;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return undefined;
}

function lineAndColumn(text: string, index: number) {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return `line ${String(line)}, column ${String(column)}`;
}

function describeSyntaxError(text: string) {
  // jawn names the first character it could not use and where it is.
  let index = text.length;
  try {
    JSON.parse(text);
  } catch (error) {
    // V8 names the position of the offending character, or says the input ended early.
    const message = String(error);
    const position = /position (\d+)/.exec(message);
    const token = /Unexpected token '(.)'/.exec(message);
    if (position) index = Number(position[1]);
    else if (token?.[1] !== undefined) index = Math.max(0, text.indexOf(token[1]));
  }
  if (index >= text.length) return 'exhausted input';
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return `expected json value got '${text.charAt(index)}' (line ${line}, column ${column})`;
}

function renderPath(path: readonly PropertyKey[]) {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : `${out ? '.' : ''}${String(segment)}`;
  }
  return out;
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let current = json;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

const circeTypeNames: Record<string, string> = {
  string: 'String',
  boolean: 'Boolean',
  number: 'Int',
  int: 'Int',
  object: 'JsonObject',
  record: 'JsonObject',
  array: 'JsonArray',
};

function describeIssue(issue: z.core.$ZodIssue, json: unknown) {
  const where = issue.path.length ? ` at '${renderPath(issue.path)}'` : '';
  if (issue.code === 'invalid_type') {
    const value = valueAt(json, issue.path);
    if (value === undefined) return `Missing required field${where}`;
    const expected = circeTypeNames[issue.expected] ?? issue.expected;
    return `Got value '${JSON.stringify(value)}' with wrong type, expecting ${expected}${where}`;
  }
  return `${issue.message}${where}`;
}

/** int32 query parameter; tapir rejects anything else with a bare 400 text/plain. */
export function queryInt32(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(raw)) throw new DecodeFailure(`query parameter ${name}`);
  const value = Number(raw);
  if (value > 2147483647 || value < -2147483648) throw new DecodeFailure(`query parameter ${name}`);
  return value;
}

/** int64 path or query value; also only decimal digits. */
export function parseInt64(raw: string, source: string): bigint {
  if (!/^[+-]?\d+$/.test(raw)) throw new DecodeFailure(source);
  const value = BigInt(raw);
  if (value > 9223372036854775807n || value < -9223372036854775808n)
    throw new DecodeFailure(source);
  return value;
}

// ── Relaxed field helpers: absent means the proto default; explicit null only where optional ──

export const str = () => z.string().default('');
export const bool = () => z.boolean().default(false);
/**
 * A proto `map<string, V>`, each value decoded by `value`. Not `z.record`: it assigns keys, so a
 * JSON key `__proto__` would set the result's prototype and vanish instead of reaching validation
 * like any other key (an annotation key, a party in `filtersByParty`).
 */
export const ownRecord = <T extends z.ZodType>(value: T) =>
  z.unknown().transform((input, ctx) => {
    const out = Object.create(null) as Record<string, z.output<T>>;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: 'invalid_type', expected: 'record', input });
      return out;
    }
    for (const [key, item] of Object.entries(input)) {
      const parsed = value.safeParse(item);
      if (parsed.success) {
        Object.defineProperty(out, key, { value: parsed.data, enumerable: true, writable: true });
      } else {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ ...issue, path: [key, ...issue.path] });
      }
    }
    return out;
  });

export const strMap = () => ownRecord(z.string()).default({});
export const list = <T extends z.ZodType>(item: T) => z.array(item).default([]);
/** A proto message field: absent or null is `None`, which the server then reports itself. */
export const message = <T extends z.ZodType>(schema: T) => schema.nullish();

export const objectMetaSchema = z.object({
  resourceVersion: str(),
  annotations: strMap(),
});

export const fieldMaskSchema = z.object({
  paths: list(z.string()),
  // The spec marks unknownFields required; we accept its absence as circe's relaxed codec
  // fills message-typed defaults it can build (inferred, not observed).
  unknownFields: z.unknown().optional(),
});

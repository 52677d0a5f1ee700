/**
 * Daml values as the JSON Ledger API v2 encodes them, read into a tree a screen can show: records
 * by field, variants by constructor, parties and contract ids as themselves (to become links),
 * numerics without trailing zeros, dates readable. Type-directed where the template's type is
 * known (an Optional and a list look alike on the wire; Int64 and Text are both strings), guessed
 * from the JSON shape otherwise. Bounded: deep values collapse and long lists stop at a limit, so a
 * hostile or huge argument costs a screenful, not the page.
 */
import { isRecord } from '@/lib/values/is-record';

/**
 * What a value's type says about how to show it. A mirror of the Daml-LF types that matter for
 * display, because lib/ cannot import the decoder; record fields and variant constructors are
 * looked up on demand, as types can be recursive.
 */
export type ValueType =
  | {
      kind:
        | 'text'
        | 'party'
        | 'contract-id'
        | 'numeric'
        | 'int64'
        | 'date'
        | 'timestamp'
        | 'bool'
        | 'unit'
        | 'unknown';
    }
  | { kind: 'optional' | 'list' | 'text-map'; item: ValueType }
  | { kind: 'gen-map'; key: ValueType; item: ValueType }
  | { kind: 'record'; fields: () => readonly { name: string; type: ValueType }[] | undefined }
  | { kind: 'variant'; constructor: (tag: string) => ValueType | undefined }
  | { kind: 'enum' };

export const UNKNOWN_TYPE: ValueType = { kind: 'unknown' };

export type ValueNode =
  | { kind: 'text'; text: string }
  | { kind: 'party'; party: string }
  | { kind: 'contract-id'; contractId: string }
  | { kind: 'number'; text: string }
  | { kind: 'date'; iso: string; text: string }
  | { kind: 'timestamp'; iso: string; text: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'unit' }
  | { kind: 'none' }
  /** `Some x` of a nested optional, where the wire tells `Some None` from `None`. */
  | { kind: 'some'; value: ValueNode }
  | { kind: 'enum'; tag: string }
  | { kind: 'variant'; tag: string; value: ValueNode }
  | { kind: 'record'; fields: { name: string; value: ValueNode }[]; more: number }
  | { kind: 'list'; items: ValueNode[]; more: number }
  | { kind: 'map'; entries: { key: ValueNode; value: ValueNode }[]; more: number }
  /** Deeper than the limit: only how big it is. */
  | { kind: 'collapsed'; summary: string }
  /** A value that does not have the shape its type promises: shown as JSON, never interpreted. */
  | { kind: 'raw'; text: string };

export type ValueLimits = {
  /** Containers nested deeper than this collapse to a summary. */
  depth: number;
  /** Items of a list or map, and fields of a record, beyond this are counted, not read. */
  items: number;
  /** Text beyond this many characters is cut with an ellipsis. */
  textLength: number;
};

export const DEFAULT_VALUE_LIMITS: ValueLimits = { depth: 4, items: 20, textLength: 500 };

function cut(text: string, limits: ValueLimits): string {
  return text.length > limits.textLength ? `${text.slice(0, limits.textLength)}…` : text;
}

function raw(value: unknown, limits: ValueLimits): ValueNode {
  let text: string;
  try {
    // JSON.stringify gives undefined (typed as string) for undefined and functions.
    const json = JSON.stringify(value) as string | undefined;
    text = json ?? String(value);
  } catch {
    text = String(value);
  }
  return { kind: 'raw', text: cut(text, limits) };
}

/**
 * A decimal string without noise: `100.0000000000` → `100`, `-3.1400` → `-3.14`, `+5` → `5`.
 * Done on the text, not through a float, so no digit of a 38-digit Numeric is lost.
 */
export function formatNumeric(text: string): string {
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return text;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  const body = decimals ? `${integer}.${decimals}` : integer;
  return sign === '-' && /[1-9]/.test(body) ? `-${body}` : body;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2024-03-05` → `5 Mar 2024`; a Daml Date has no time zone, so it is read and shown as UTC. */
export function formatDamlDate(iso: string): string {
  if (!/^-?\d{4,}-\d{2}-\d{2}$/.test(iso)) return iso;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}

/** `2024-03-05T10:00:00.000000Z` → `2024-03-05 10:00:00 UTC` (fractions kept when not zero). */
export function formatDamlTimestamp(iso: string): string {
  const match = /^(\d{4,}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(iso);
  if (!match) return iso;
  const [, day = '', time = '', fraction = ''] = match;
  const decimals = fraction.replace(/0+$/, '');
  return `${day} ${time}${decimals ? `.${decimals}` : ''} UTC`;
}

/** Reads `value` as a value of `type`, within `limits`. */
export function readDamlValue(
  value: unknown,
  type: ValueType = UNKNOWN_TYPE,
  limits: ValueLimits = DEFAULT_VALUE_LIMITS,
): ValueNode {
  return read(value, type, limits, 0);
}

function summary(value: unknown): string {
  if (Array.isArray(value)) return `${String(value.length)} items`;
  if (isRecord(value)) return `${String(Object.keys(value).length)} fields`;
  return '…';
}

function read(value: unknown, type: ValueType, limits: ValueLimits, depth: number): ValueNode {
  const isContainer = typeof value === 'object' && value !== null;
  if (isContainer && depth >= limits.depth) return { kind: 'collapsed', summary: summary(value) };
  switch (type.kind) {
    case 'unknown':
      return guess(value, limits, depth);
    case 'text':
      return typeof value === 'string'
        ? { kind: 'text', text: cut(value, limits) }
        : raw(value, limits);
    case 'party':
      return typeof value === 'string' ? { kind: 'party', party: value } : raw(value, limits);
    case 'contract-id':
      return typeof value === 'string'
        ? { kind: 'contract-id', contractId: value }
        : raw(value, limits);
    case 'numeric':
    case 'int64':
      return typeof value === 'string' || typeof value === 'number'
        ? { kind: 'number', text: formatNumeric(String(value)) }
        : raw(value, limits);
    case 'date':
      return typeof value === 'string'
        ? { kind: 'date', iso: value, text: formatDamlDate(value) }
        : raw(value, limits);
    case 'timestamp':
      return typeof value === 'string'
        ? { kind: 'timestamp', iso: value, text: formatDamlTimestamp(value) }
        : raw(value, limits);
    case 'bool':
      return typeof value === 'boolean' ? { kind: 'bool', value } : raw(value, limits);
    case 'unit':
      return { kind: 'unit' };
    case 'enum':
      return typeof value === 'string' ? { kind: 'enum', tag: value } : raw(value, limits);
    case 'optional':
      return readOptional(value, type.item, limits, depth);
    case 'list':
      return Array.isArray(value) ? readList(value, type.item, limits, depth) : raw(value, limits);
    case 'text-map':
      return isRecord(value)
        ? readEntries(Object.entries(value), { kind: 'text' }, type.item, limits, depth)
        : raw(value, limits);
    case 'gen-map':
      return Array.isArray(value) &&
        value.every((entry) => Array.isArray(entry) && entry.length === 2)
        ? readEntries(value as [unknown, unknown][], type.key, type.item, limits, depth)
        : raw(value, limits);
    case 'record': {
      if (!isRecord(value)) return raw(value, limits);
      const fields = type.fields();
      if (!fields) return guess(value, limits, depth);
      const known = new Map(fields.map((field) => [field.name, field.type]));
      return readFields(Object.entries(value), (name) => known.get(name), limits, depth);
    }
    case 'variant': {
      if (!isRecord(value) || typeof value.tag !== 'string') return raw(value, limits);
      const argType = type.constructor(value.tag) ?? UNKNOWN_TYPE;
      return {
        kind: 'variant',
        tag: value.tag,
        value: read(value.value, argType, limits, depth + 1),
      };
    }
  }
}

/**
 * `Optional t` is null or the value itself; when `t` is an Optional too, `Some` wraps its value in
 * a one-element list (`[]` is `Some None`), the JSON API's way of keeping them apart.
 */
function readOptional(
  value: unknown,
  item: ValueType,
  limits: ValueLimits,
  depth: number,
): ValueNode {
  if (value === null || value === undefined) return { kind: 'none' };
  if (item.kind !== 'optional') return read(value, item, limits, depth);
  if (!Array.isArray(value) || value.length > 1) return raw(value, limits);
  return {
    kind: 'some',
    value: value.length === 0 ? { kind: 'none' } : read(value[0], item, limits, depth + 1),
  };
}

function readList(
  values: readonly unknown[],
  item: ValueType,
  limits: ValueLimits,
  depth: number,
): ValueNode {
  return {
    kind: 'list',
    items: values.slice(0, limits.items).map((entry) => read(entry, item, limits, depth + 1)),
    more: Math.max(0, values.length - limits.items),
  };
}

function readEntries(
  entries: readonly (readonly [unknown, unknown])[],
  key: ValueType,
  item: ValueType,
  limits: ValueLimits,
  depth: number,
): ValueNode {
  return {
    kind: 'map',
    entries: entries.slice(0, limits.items).map(([k, v]) => ({
      key: read(k, key, limits, depth + 1),
      value: read(v, item, limits, depth + 1),
    })),
    more: Math.max(0, entries.length - limits.items),
  };
}

function readFields(
  entries: readonly [string, unknown][],
  typeOf: (name: string) => ValueType | undefined,
  limits: ValueLimits,
  depth: number,
): ValueNode {
  return {
    kind: 'record',
    fields: entries.slice(0, limits.items).map(([name, field]) => ({
      name,
      value: read(field, typeOf(name) ?? UNKNOWN_TYPE, limits, depth + 1),
    })),
    more: Math.max(0, entries.length - limits.items),
  };
}

/** Without a type: what the JSON shape most likely is. Strings stay text (an Int64 is a string too). */
function guess(value: unknown, limits: ValueLimits, depth: number): ValueNode {
  if (value === null || value === undefined) return { kind: 'none' };
  if (typeof value === 'string') return { kind: 'text', text: cut(value, limits) };
  if (typeof value === 'number') return { kind: 'number', text: String(value) };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (Array.isArray(value)) return readList(value, UNKNOWN_TYPE, limits, depth);
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 2 && typeof value.tag === 'string' && 'value' in value) {
      return {
        kind: 'variant',
        tag: value.tag,
        value: read(value.value, UNKNOWN_TYPE, limits, depth + 1),
      };
    }
    if (keys.length === 0) return { kind: 'unit' };
    return readFields(Object.entries(value), () => undefined, limits, depth);
  }
  return raw(value, limits);
}

/**
 * The value on one line, as plain text: for CSV cells, tooltips and the text filter. Parties and
 * contract ids in full (a shortened id cannot be pasted back).
 */
export function valueToText(node: ValueNode): string {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'party':
      return node.party;
    case 'contract-id':
      return node.contractId;
    case 'number':
    case 'date':
    case 'timestamp':
      return node.text;
    case 'bool':
      return node.value ? 'true' : 'false';
    case 'unit':
      return '()';
    case 'none':
      return 'None';
    case 'some':
      return `Some ${valueToText(node.value)}`;
    case 'enum':
      return node.tag;
    case 'variant':
      return node.value.kind === 'unit' ? node.tag : `${node.tag} ${valueToText(node.value)}`;
    case 'record':
      return `{${[
        ...node.fields.map((field) => `${field.name}: ${valueToText(field.value)}`),
        ...(node.more > 0 ? [`+${String(node.more)} more`] : []),
      ].join(', ')}}`;
    case 'list':
      return `[${[
        ...node.items.map(valueToText),
        ...(node.more > 0 ? [`+${String(node.more)} more`] : []),
      ].join(', ')}]`;
    case 'map':
      return `{${[
        ...node.entries.map((entry) => `${valueToText(entry.key)} → ${valueToText(entry.value)}`),
        ...(node.more > 0 ? [`+${String(node.more)} more`] : []),
      ].join(', ')}}`;
    case 'collapsed':
      return `(${node.summary})`;
    case 'raw':
      return node.text;
  }
}

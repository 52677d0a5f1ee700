import { revealBidiControls } from '@/lib/text/display-text';
import type { TransactionEvent } from './model';

/**
 * A few argument values that tell one contract from its neighbours at a glance (an Iou's amount
 * and currency), so that a reader can follow value through a tree without opening every node.
 * Chosen from the verbose JSON argument, which names its fields in declaration order: the Daml
 * JSON encoding writes Numeric, Int64, Date and Time as strings and records as objects, so the
 * shape of a value says enough to rank it.
 */

export type KeyValue = {
  readonly field: string;
  /** Display text: a scalar, trimmed and cut to {@link MAX_VALUE_LENGTH}. */
  readonly value: string;
};

export const MAX_KEY_VALUES = 3;
export const MAX_VALUE_LENGTH = 24;
/** Field names come from the package: a hostile DAR may name a field with a paragraph. */
export const MAX_FIELD_LENGTH = 24;
/** Fields read at most: a record of 10,000 fields must not slow a live row down. */
export const MAX_FIELDS_READ = 32;

const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
/** `hint::1220…`: a party (or another unique identifier), shown on the node's party lines. */
const PARTY = /^[^:\s]+::[0-9a-f]{2,}$/;
/** Contract ids are long hex strings (V1 `00…`, V2 `01…`); a reader follows them by link. */
const CONTRACT_ID = /^0[0-9a-f]{40,}$/;
/** A short code (`USD`, `ACC-7`, an enum constructor) rather than prose. */
const CODE = /^[\p{L}\p{N}_./-]{1,16}$/u;

/** Higher first; values ranked 0 are never shown. */
function rank(value: unknown, shownParties: ReadonlySet<string>, isPartyShown: boolean): number {
  if (typeof value === 'number') return Number.isFinite(value) ? 4 : 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value !== 'string') return 0; // records, lists, variants, optionals: not at a glance
  const text = value.trim();
  if (text === '' || shownParties.has(text) || CONTRACT_ID.test(text)) return 0;
  if (NUMBER.test(text)) return 4;
  if (PARTY.test(text)) return isPartyShown ? 2 : 0;
  if (DATE.test(text) || TIMESTAMP.test(text)) return 2;
  if (CODE.test(text)) return 3;
  return 1;
}

/** `30.0000000000` → `30`, `1.5000` → `1.5`: Numeric's fixed scale is noise on a node. */
function trimNumber(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(/\.?0+$/, '');
}

/** One line, bidi overrides shown, at most `max` characters. */
function oneLine(text: string, max: number): string {
  // One line only: a newline or tab in Text would break the node's layout.
  // Overrides shown, not obeyed: `\u202EDSU` must not pass for "USD" on a node.
  const flat = revealBidiControls(text.replace(/\s+/g, ' '));
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function display(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const hint = PARTY.exec(text) ? text.slice(0, text.indexOf('::')) : text;
  return oneLine(NUMBER.test(hint) ? trimNumber(hint) : hint, MAX_VALUE_LENGTH);
}

function partiesOn(node: TransactionEvent): ReadonlySet<string> {
  const parties = new Set(node.witnessParties);
  if (node.kind === 'created') {
    for (const party of node.signatories) parties.add(party);
    for (const party of node.observers) parties.add(party);
  }
  if (node.kind === 'exercised') for (const party of node.actingParties) parties.add(party);
  return parties;
}

export type KeyValuesOptions = {
  /** At most this many values. */
  limit?: number;
  /**
   * The parties the reader sees beside the values (a row's acting parties): any other party in
   * the argument (an Iou's `owner`) is a value worth showing, by its hint (`alice` for
   * `alice::1220…`). Absent, parties are never values: the graph's nodes list them apart.
   */
  partiesShown?: readonly string[];
};

/**
 * Up to `limit` scalar fields of the node's create (or choice) argument, best first by kind
 * (numbers, then short codes, then dates), shown in the template's field order. Parties already on
 * the node, contract ids and nested values are skipped. Archives carry no argument: none. Only the
 * first {@link MAX_FIELDS_READ} fields are read; names and values are cut to one short line.
 */
export function keyValues(
  node: TransactionEvent,
  { limit = MAX_KEY_VALUES, partiesShown }: KeyValuesOptions = {},
): readonly KeyValue[] {
  const argument =
    node.kind === 'created'
      ? node.createArgument
      : node.kind === 'exercised'
        ? node.choiceArgument
        : undefined;
  if (argument === null || typeof argument !== 'object' || Array.isArray(argument)) return [];
  const shownParties = partiesShown ? new Set(partiesShown) : partiesOn(node);
  const isPartyShown = partiesShown !== undefined;
  const candidates: { field: string; value: unknown; rank: number; position: number }[] = [];
  let position = 0;
  for (const field in argument) {
    if (position >= MAX_FIELDS_READ) break;
    if (!Object.hasOwn(argument, field)) continue;
    const value: unknown = (argument as Record<string, unknown>)[field];
    const score = rank(value, shownParties, isPartyShown);
    if (score > 0) candidates.push({ field, value, rank: score, position });
    position++;
  }
  return candidates
    .sort((a, b) => b.rank - a.rank || a.position - b.position)
    .slice(0, Math.max(0, limit))
    .sort((a, b) => a.position - b.position)
    .map(({ field, value }) => ({
      field: oneLine(field, MAX_FIELD_LENGTH),
      value: display(value),
    }));
}

/** `amount 30 · currency USD`: one line for a node or an outline row. */
export function formatKeyValues(values: readonly KeyValue[]): string {
  return values.map(({ field, value }) => `${field} ${value}`).join(' · ');
}

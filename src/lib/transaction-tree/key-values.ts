import { revealBidiControls } from '@/lib/text/display-text';
import type { TreeNode } from './model';

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
function rank(value: unknown, shownParties: ReadonlySet<string>): number {
  if (typeof value === 'number') return Number.isFinite(value) ? 4 : 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value !== 'string') return 0; // records, lists, variants, optionals: not at a glance
  const text = value.trim();
  if (text === '' || shownParties.has(text) || CONTRACT_ID.test(text)) return 0;
  if (NUMBER.test(text)) return 4;
  if (PARTY.test(text)) return 0;
  if (DATE.test(text) || TIMESTAMP.test(text)) return 2;
  if (CODE.test(text)) return 3;
  return 1;
}

/** `30.0000000000` → `30`, `1.5000` → `1.5`: Numeric's fixed scale is noise on a node. */
function trimNumber(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(/\.?0+$/, '');
}

function display(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const shown = NUMBER.test(text) ? trimNumber(text) : text;
  // One line only: a newline or tab in Text would break the node's layout.
  // Overrides shown, not obeyed: `\u202EDSU` must not pass for "USD" on a node.
  const flat = revealBidiControls(shown.replace(/\s+/g, ' '));
  return flat.length > MAX_VALUE_LENGTH ? `${flat.slice(0, MAX_VALUE_LENGTH - 1)}…` : flat;
}

function partiesOn(node: TreeNode): ReadonlySet<string> {
  const parties = new Set(node.witnessParties);
  if (node.kind === 'created') {
    for (const party of node.signatories) parties.add(party);
    for (const party of node.observers) parties.add(party);
  }
  if (node.kind === 'exercised') for (const party of node.actingParties) parties.add(party);
  return parties;
}

/**
 * Up to `limit` scalar fields of the node's create (or choice) argument, best first by kind
 * (numbers, then short codes, then dates), shown in the template's field order. Parties already on
 * the node, contract ids and nested values are skipped. Archives carry no argument: none.
 */
export function keyValues(node: TreeNode, limit: number = MAX_KEY_VALUES): readonly KeyValue[] {
  const argument =
    node.kind === 'created'
      ? node.createArgument
      : node.kind === 'exercised'
        ? node.choiceArgument
        : undefined;
  if (argument === null || typeof argument !== 'object' || Array.isArray(argument)) return [];
  const shownParties = partiesOn(node);
  const candidates: { field: string; value: unknown; rank: number; position: number }[] = [];
  let position = 0;
  for (const [field, value] of Object.entries(argument)) {
    const score = rank(value, shownParties);
    if (score > 0) candidates.push({ field, value, rank: score, position });
    position++;
  }
  return candidates
    .sort((a, b) => b.rank - a.rank || a.position - b.position)
    .slice(0, Math.max(0, limit))
    .sort((a, b) => a.position - b.position)
    .map(({ field, value }) => ({ field, value: display(value) }));
}

/** `amount 30 · currency USD`: one line for a node or an outline row. */
export function formatKeyValues(values: readonly KeyValue[]): string {
  return values.map(({ field, value }) => `${field} ${value}`).join(' · ');
}

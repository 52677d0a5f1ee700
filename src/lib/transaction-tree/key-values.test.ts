import { describe, expect, it } from 'vitest';
import { shapedTree, type ShapeNode } from '@/testing/tree-generators';
import { buildTree } from './build-tree';
import {
  formatKeyValues,
  keyValues,
  MAX_FIELD_LENGTH,
  MAX_FIELDS_READ,
  MAX_VALUE_LENGTH,
} from './key-values';
import { getNode } from './model';

const ALICE = `Alice::1220${'aa'.repeat(32)}`;
const BANK = `Bank::1220${'bb'.repeat(32)}`;
const CAROL = `Carol::1220${'cc'.repeat(32)}`;
const CONTRACT = `00${'ab'.repeat(34)}`;

/** The key values of the one node a shape makes. */
function valuesOf(shape: ShapeNode) {
  return keyValues(getNode(buildTree(shapedTree([shape]).events), 0));
}

describe('keyValues', () => {
  it('picks an Iou’s amount and currency, in field order, Numeric’s trailing zeros trimmed', () => {
    const values = valuesOf({
      argument: {
        issuer: BANK,
        owner: ALICE,
        currency: 'USD',
        amount: '30.0000000000',
        observers: [],
      },
      parties: [BANK, ALICE],
    });
    expect(values).toEqual([
      { field: 'currency', value: 'USD' },
      { field: 'amount', value: '30' },
    ]);
    expect(formatKeyValues(values)).toBe('currency USD · amount 30');
  });

  it('prefers numbers, then short codes, then dates, to at most three fields', () => {
    const values = valuesOf({
      argument: {
        note: 'a longer piece of prose about the deal',
        maturity: '2030-01-31',
        ticker: 'ACME',
        quantity: '100',
        price: '12.50',
        settled: false,
      },
    });
    expect(values.map((value) => value.field)).toEqual(['ticker', 'quantity', 'price']);
    expect(values.map((value) => value.value)).toEqual(['ACME', '100', '12.5']);
  });

  it('skips parties shown on the node, contract ids, records, lists and null optionals', () => {
    const values = valuesOf({
      argument: {
        owner: ALICE,
        newOwner: CAROL,
        iou: CONTRACT,
        terms: { rate: '0.5' },
        tags: ['a'],
        expires: null,
        label: 'rent',
      },
      parties: [ALICE],
    });
    // A party not on the node is still a party: its id is not a value to follow.
    expect(values).toEqual([{ field: 'label', value: 'rent' }]);
  });

  it('takes an exercise’s choice argument; an archive has none', () => {
    const tree = buildTree(
      shapedTree([{ choice: 'Iou_Split', argument: { splitAmount: '30.0' }, children: [{}] }])
        .events,
    );
    expect(keyValues(getNode(tree, 0))).toEqual([{ field: 'splitAmount', value: '30' }]);
    expect(valuesOf({ argument: 'not a record' })).toEqual([]);
  });

  it('keeps values to one short line of plain text', () => {
    const long = 'x'.repeat(100);
    const [value] = valuesOf({ argument: { memo: `two\nlines`, other: long } });
    expect(value).toEqual({ field: 'memo', value: 'two lines' });
    const [cut] = valuesOf({ argument: { note: long } });
    expect(cut?.value).toHaveLength(MAX_VALUE_LENGTH);
    expect(cut?.value.endsWith('…')).toBe(true);
    // Markup stays text: the caller renders it as a React text node.
    expect(valuesOf({ argument: { code: '<b>x</b>' } })).toEqual([
      { field: 'code', value: '<b>x</b>' },
    ]);
  });

  it('respects the limit', () => {
    const argument = { a: '1', b: '2', c: '3', d: '4' };
    const node = getNode(buildTree(shapedTree([{ argument }]).events), 0);
    expect(keyValues(node, { limit: 2 }).map((value) => value.field)).toEqual(['a', 'b']);
    expect(keyValues(node, { limit: 0 })).toEqual([]);
  });

  it('shows a party the reader does not see beside the values by its hint (a row’s owner)', () => {
    const argument = { issuer: BANK, owner: ALICE, currency: 'USD', amount: '100.0' };
    const values = valuesOf({ argument, parties: [BANK] }).map((value) => value.field);
    expect(values).toEqual(['currency', 'amount']);
    const node = getNode(buildTree(shapedTree([{ argument, parties: [BANK, ALICE] }]).events), 0);
    // The row names the issuer as the one who acted; the owner is the one worth reading.
    expect(keyValues(node, { partiesShown: [BANK] })).toEqual([
      { field: 'owner', value: 'Alice' },
      { field: 'currency', value: 'USD' },
      { field: 'amount', value: '100' },
    ]);
  });

  it('reads a bounded number of fields and cuts a long field name', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < MAX_FIELDS_READ + 10; i++) many[`f${String(i)}`] = 'x y z prose here';
    many.amount = '5';
    // The amount is past the fields read: prose (rank 1) is all that is seen.
    expect(valuesOf({ argument: many }).map((value) => value.field)).toEqual(['f0', 'f1', 'f2']);
    const [value] = valuesOf({ argument: { ['n'.repeat(200)]: '1' } });
    expect(value?.field).toHaveLength(MAX_FIELD_LENGTH);
    expect(value?.field.endsWith('…')).toBe(true);
  });
});

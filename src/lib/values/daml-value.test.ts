import { describe, expect, it } from 'vitest';
import {
  formatDamlDate,
  formatDamlTimestamp,
  formatNumeric,
  readDamlValue,
  valueToText,
  type ValueType,
} from './daml-value';

const party: ValueType = { kind: 'party' };
const text: ValueType = { kind: 'text' };
const numeric: ValueType = { kind: 'numeric' };
const int64: ValueType = { kind: 'int64' };

describe('readDamlValue, type-directed', () => {
  it('reads parties and contract ids as themselves, to become links', () => {
    expect(readDamlValue('alice::1220ab', party)).toEqual({
      kind: 'party',
      party: 'alice::1220ab',
    });
    expect(readDamlValue('00abc', { kind: 'contract-id' })).toEqual({
      kind: 'contract-id',
      contractId: '00abc',
    });
  });

  it('reads Numeric and Int64 strings without trailing noise', () => {
    expect(readDamlValue('100.0000000000', numeric)).toEqual({ kind: 'number', text: '100' });
    expect(readDamlValue('-3.1400', numeric)).toEqual({ kind: 'number', text: '-3.14' });
    expect(readDamlValue('42', int64)).toEqual({ kind: 'number', text: '42' });
  });

  it('reads dates and timestamps readably, keeping the ISO text', () => {
    expect(readDamlValue('2024-03-05', { kind: 'date' })).toEqual({
      kind: 'date',
      iso: '2024-03-05',
      text: '5 Mar 2024',
    });
    expect(readDamlValue('2024-03-05T10:00:00.000000Z', { kind: 'timestamp' })).toEqual({
      kind: 'timestamp',
      iso: '2024-03-05T10:00:00.000000Z',
      text: '2024-03-05 10:00:00 UTC',
    });
  });

  it('reads Bool, Unit, Text and enums', () => {
    expect(readDamlValue(true, { kind: 'bool' })).toEqual({ kind: 'bool', value: true });
    expect(readDamlValue({}, { kind: 'unit' })).toEqual({ kind: 'unit' });
    expect(readDamlValue('USD', text)).toEqual({ kind: 'text', text: 'USD' });
    expect(readDamlValue('Red', { kind: 'enum' })).toEqual({ kind: 'enum', tag: 'Red' });
  });

  it('reads an Optional as None or its value, and a nested one by its list wrapping', () => {
    const optionalParty: ValueType = { kind: 'optional', item: party };
    expect(readDamlValue(null, optionalParty)).toEqual({ kind: 'none' });
    expect(readDamlValue('bob', optionalParty)).toEqual({ kind: 'party', party: 'bob' });
    const nested: ValueType = { kind: 'optional', item: { kind: 'optional', item: int64 } };
    expect(readDamlValue(null, nested)).toEqual({ kind: 'none' });
    expect(readDamlValue([], nested)).toEqual({ kind: 'some', value: { kind: 'none' } });
    expect(readDamlValue(['7'], nested)).toEqual({
      kind: 'some',
      value: { kind: 'number', text: '7' },
    });
  });

  it('reads records by field with each field’s type, and variants by constructor', () => {
    const record: ValueType = {
      kind: 'record',
      fields: () => [
        { name: 'owner', type: party },
        { name: 'amount', type: numeric },
      ],
    };
    expect(readDamlValue({ owner: 'alice', amount: '5.50' }, record)).toEqual({
      kind: 'record',
      fields: [
        { name: 'owner', value: { kind: 'party', party: 'alice' } },
        { name: 'amount', value: { kind: 'number', text: '5.5' } },
      ],
      more: 0,
    });
    const variant: ValueType = {
      kind: 'variant',
      constructor: (tag) => (tag === 'Paid' ? party : undefined),
    };
    expect(readDamlValue({ tag: 'Paid', value: 'carol' }, variant)).toEqual({
      kind: 'variant',
      tag: 'Paid',
      value: { kind: 'party', party: 'carol' },
    });
  });

  it('reads lists, TextMaps (objects) and GenMaps (pairs)', () => {
    expect(readDamlValue(['a', 'b'], { kind: 'list', item: party })).toEqual({
      kind: 'list',
      items: [
        { kind: 'party', party: 'a' },
        { kind: 'party', party: 'b' },
      ],
      more: 0,
    });
    expect(readDamlValue({ x: '1' }, { kind: 'text-map', item: int64 })).toEqual({
      kind: 'map',
      entries: [{ key: { kind: 'text', text: 'x' }, value: { kind: 'number', text: '1' } }],
      more: 0,
    });
    expect(
      readDamlValue([['alice', '2.0']], { kind: 'gen-map', key: party, item: numeric }),
    ).toEqual({
      kind: 'map',
      entries: [{ key: { kind: 'party', party: 'alice' }, value: { kind: 'number', text: '2' } }],
      more: 0,
    });
  });

  it('shows a value that does not have its type’s shape as JSON text, not as that type', () => {
    expect(readDamlValue({ not: 'a party' }, party)).toEqual({
      kind: 'raw',
      text: '{"not":"a party"}',
    });
    expect(readDamlValue('x', { kind: 'list', item: party })).toEqual({ kind: 'raw', text: '"x"' });
  });
});

describe('readDamlValue, bounded', () => {
  it('counts list items beyond the limit instead of reading them', () => {
    const node = readDamlValue(
      Array.from({ length: 25 }, (_, i) => String(i)),
      { kind: 'list', item: int64 },
      { depth: 4, items: 20, textLength: 500 },
    );
    expect(node.kind === 'list' && node.items.length).toBe(20);
    expect(node.kind === 'list' && node.more).toBe(5);
    expect(valueToText(node)).toMatch(/, 19, \+5 more]$/);
  });

  it('collapses containers nested deeper than the limit', () => {
    const deep = { a: { b: { c: [1, 2, 3] } } };
    const node = readDamlValue(deep, undefined, { depth: 2, items: 20, textLength: 500 });
    expect(valueToText(node)).toBe('{a: {b: (1 fields)}}');
  });

  it('cuts long text', () => {
    const node = readDamlValue('x'.repeat(30), text, { depth: 4, items: 20, textLength: 10 });
    expect(node).toEqual({ kind: 'text', text: `${'x'.repeat(10)}…` });
  });

  it('survives a recursive type on a deep value', () => {
    const list: ValueType = {
      kind: 'variant',
      constructor: (tag) => (tag === 'Cons' ? cons : { kind: 'unit' }),
    };
    const cons: ValueType = {
      kind: 'record',
      fields: () => [
        { name: 'head', type: int64 },
        { name: 'tail', type: list },
      ],
    };
    let value: unknown = { tag: 'Nil', value: {} };
    for (let i = 0; i < 1000; i++) value = { tag: 'Cons', value: { head: String(i), tail: value } };
    expect(valueToText(readDamlValue(value, list))).toContain('(2 fields)');
  });
});

describe('readDamlValue without a type', () => {
  it('guesses from the JSON shape: variants, records, lists, null as None', () => {
    expect(valueToText(readDamlValue({ tag: 'Some', value: 'x' }))).toBe('Some x');
    expect(valueToText(readDamlValue({ a: '1', b: ['x', null] }))).toBe('{a: 1, b: [x, None]}');
  });
});

describe('formatting', () => {
  it('keeps every digit of a long Numeric', () => {
    expect(formatNumeric('12345678901234567890123456.1234567890')).toBe(
      '12345678901234567890123456.123456789',
    );
    expect(formatNumeric('-0.000')).toBe('0');
    expect(formatNumeric('007.50')).toBe('7.5');
    expect(formatNumeric('not a number')).toBe('not a number');
  });

  it('leaves unreadable dates and timestamps as they came', () => {
    expect(formatDamlDate('2024-13-45')).toBe('2024-13-45');
    expect(formatDamlDate('soon')).toBe('soon');
    expect(formatDamlTimestamp('2024-03-05T10:00:00.123400Z')).toBe('2024-03-05 10:00:00.1234 UTC');
    expect(formatDamlTimestamp('yesterday')).toBe('yesterday');
  });
});

import { describe, expect, it } from 'vitest';
import { formatType } from './format-type';
import type { DamlType, PrimType } from './package-model';

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const con = (name: string, ...args: DamlType[]): DamlType => ({
  kind: 'con',
  tycon: { packageId: 'p'.repeat(64), module: 'Main', name },
  args,
});

describe('formatType', () => {
  it('parenthesises nested applications only', () => {
    expect(formatType(prim('LIST', prim('OPTIONAL', con('Asset'))))).toBe(
      'List (Optional Main:Asset)',
    );
    expect(
      formatType(con('Pair', prim('INT64'), prim('NUMERIC', { kind: 'nat', value: 10 }))),
    ).toBe('Main:Pair Int64 (Numeric 10)');
  });

  it('writes arrows infix, right-associative', () => {
    const arrow = (from: DamlType, to: DamlType) => prim('ARROW', from, to);
    expect(formatType(arrow(prim('TEXT'), arrow(prim('INT64'), prim('BOOL'))))).toBe(
      'Text -> Int64 -> Bool',
    );
    expect(formatType(arrow(arrow(prim('TEXT'), prim('INT64')), prim('BOOL')))).toBe(
      '(Text -> Int64) -> Bool',
    );
    expect(formatType(prim('LIST', arrow(prim('TEXT'), prim('UNIT'))))).toBe('List (Text -> Unit)');
  });

  it('shows variables, synonyms, foralls and structs', () => {
    const a: DamlType = { kind: 'var', name: 'a', args: [] };
    expect(formatType({ kind: 'forall', vars: ['a'], body: prim('LIST', a) })).toBe(
      'forall a. List a',
    );
    expect(
      formatType({
        kind: 'syn',
        tysyn: { packageId: 'x', module: 'M', name: 'S' },
        args: [prim('PARTY')],
      }),
    ).toBe('M:S Party');
    expect(formatType({ kind: 'struct', fields: [{ name: 'x', type: a }] })).toBe('<x: a>');
  });
});

import { describe, expect, it } from 'vitest';
import { partyHint, splitUniqueIdentifier } from './unique-identifier';

describe('splitUniqueIdentifier', () => {
  it('splits at the first "::"', () => {
    expect(splitUniqueIdentifier('alice::1220ab')).toEqual({
      identifier: 'alice',
      namespace: '1220ab',
    });
    expect(splitUniqueIdentifier('a::b::c')).toEqual({ identifier: 'a', namespace: 'b::c' });
    expect(splitUniqueIdentifier('::1220ab')).toEqual({ identifier: '', namespace: '1220ab' });
  });

  it('finds no parts without a "::"', () => {
    expect(splitUniqueIdentifier('alice')).toBeUndefined();
    expect(splitUniqueIdentifier('alice:1220')).toBeUndefined();
  });
});

describe('partyHint', () => {
  it('is the identifier of a party id, when there is one', () => {
    expect(partyHint('alice::1220ab')).toBe('alice');
    expect(partyHint('::1220ab')).toBeUndefined();
    expect(partyHint('alice')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { formatCount, plural, shortenIdentifier } from './format';

describe('formatCount', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(formatCount(1, 'user', 'users')).toBe('1 user');
    expect(formatCount(0, 'user', 'users')).toBe('0 users');
    expect(formatCount(2, 'party', 'parties')).toBe('2 parties');
    expect(formatCount(1000, 'match', 'matches')).toBe('1000 matches');
  });

  it('agrees other words with a number too', () => {
    expect(plural(1, 'belongs', 'belong')).toBe('belongs');
    expect(plural(3, 'belongs', 'belong')).toBe('belong');
  });
});

describe('shortenIdentifier', () => {
  it('keeps the hint and the ends of a long namespace', () => {
    expect(shortenIdentifier('alice::1220abcdef0123456789')).toBe('alice::1220ab…6789');
  });

  it('leaves short ids as they are and shortens long ones without a hint too', () => {
    expect(shortenIdentifier('alice::1220ab')).toBe('alice::1220ab');
    expect(shortenIdentifier('0123456789ab')).toBe('0123456789ab');
    expect(shortenIdentifier('0123456789abcdef')).toBe('012345…cdef');
  });
});

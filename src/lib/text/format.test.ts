import { describe, expect, it, vi } from 'vitest';
import {
  breakAfterSeparators,
  formatAbsoluteTime,
  formatCount,
  formatTrafficCost,
  formatExactTime,
  formatRelativeTime,
  plural,
  shortenIdentifier,
  shortenQualifiedName,
} from './format';

describe('formatTrafficCost', () => {
  it('groups the bytes the same in every locale, with the noun in agreement', () => {
    expect(formatTrafficCost(0)).toBe('0 bytes');
    expect(formatTrafficCost(1)).toBe('1 byte');
    expect(formatTrafficCost(1234567)).toBe('1,234,567 bytes');
  });
});

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

describe('shortenQualifiedName', () => {
  const packageId = 'f36ffe90d8941bf5027c166213c2f119fd6e20ed7c7e338c988a2b7fec9bdfd6';

  it('cuts the package id in the middle and keeps module and entity whole', () => {
    expect(shortenQualifiedName(`${packageId}:Demo.Iou:Iou`)).toBe('f36ffe…dfd6:Demo.Iou:Iou');
  });

  it('leaves package-name references, short ids and other shapes as they are', () => {
    expect(shortenQualifiedName('#sandbox-demo:Demo.Iou:Iou')).toBe('#sandbox-demo:Demo.Iou:Iou');
    expect(shortenQualifiedName('abc:Demo.Iou:Iou')).toBe('abc:Demo.Iou:Iou');
    expect(shortenQualifiedName(packageId)).toBe(packageId);
    expect(shortenQualifiedName(`${packageId}:A:B:C`)).toBe(`${packageId}:A:B:C`);
  });
});

describe('breakAfterSeparators', () => {
  it('splits after every colon and dot, losing nothing', () => {
    expect(breakAfterSeparators('f36ffe…dfd6:Demo.Iou:Iou')).toEqual([
      'f36ffe…dfd6:',
      'Demo.',
      'Iou:',
      'Iou',
    ]);
    expect(breakAfterSeparators('alice::1220ab').join('')).toBe('alice::1220ab');
    expect(breakAfterSeparators('alice::1220ab')).toEqual(['alice::', '1220ab']);
  });

  it('keeps a value without separators, and an empty one, whole', () => {
    expect(breakAfterSeparators('0123456789')).toEqual(['0123456789']);
    expect(breakAfterSeparators('')).toEqual([]);
    expect(breakAfterSeparators('a.')).toEqual(['a.']);
  });
});

describe('formatRelativeTime', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const minute = 60_000;

  it('calls the last and next 45 seconds "now", so a slightly fast clock is not the future', () => {
    expect(formatRelativeTime(now - 44_000, now, 'en')).toBe('now');
    expect(formatRelativeTime(now + 30_000, now, 'en')).toBe('now');
  });

  it('uses the largest whole unit, in the past and the future', () => {
    expect(formatRelativeTime(now - 5 * minute, now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 3 * 60 * minute, now, 'en')).toBe('3 hours ago');
    expect(formatRelativeTime(now - 24 * 60 * minute, now, 'en')).toBe('yesterday');
    expect(formatRelativeTime(now + 2 * 60 * minute, now, 'en')).toBe('in 2 hours');
    expect(formatRelativeTime(now - 400 * 24 * 60 * minute, now, 'en')).toBe('last year');
  });

  it('speaks the given locale', () => {
    expect(formatRelativeTime(now - 5 * minute, now, 'de')).toBe('vor 5 Minuten');
  });
});

describe('formatAbsoluteTime', () => {
  it('gives the date and the time to the second, shorter than the exact time with its zone', () => {
    const at = Date.UTC(2026, 10, 24, 12, 3, 27);
    const shown = formatAbsoluteTime(at, 'en-GB');
    expect(shown).toMatch(/^24 Nov 2026, \d\d:03:27$/);
    expect(formatExactTime(at, 'en-GB').startsWith(shown)).toBe(true);
    expect(formatExactTime(at, 'en-GB').length).toBeGreaterThan(shown.length);
  });
});

describe('prepareTimeFormats', () => {
  it('builds every formatter a time on screen uses, so that none is built while rendering', async () => {
    // A fresh copy of the module: its formatter caches start empty.
    vi.resetModules();
    const format = await import('./format');
    let built = 0;
    const { DateTimeFormat, RelativeTimeFormat } = Intl;
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof DateTimeFormat>
    ) {
      built += 1;
      return new DateTimeFormat(...args);
    });
    vi.spyOn(Intl, 'RelativeTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof RelativeTimeFormat>
    ) {
      built += 1;
      return new RelativeTimeFormat(...args);
    });

    format.prepareTimeFormats();
    expect(built).toBe(3);

    const at = Date.parse('2026-11-24T13:03:27Z');
    format.formatExactTime(at);
    format.formatAbsoluteTime(at);
    format.formatRelativeTime(at, at - 300_000);
    expect(built).toBe(3);
  });
});

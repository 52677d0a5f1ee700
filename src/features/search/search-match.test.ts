import { describe, expect, it } from 'vitest';
import {
  compareRanked,
  highlightPieces,
  matchText,
  matchTexts,
  MAX_NAME_QUERY_LENGTH,
  normalizeNeedle,
  topRanked,
  type Ranked,
} from './search-match';

describe('matchText', () => {
  it('tells an exact match, a prefix, a word start and a substring apart, ignoring case', () => {
    expect(matchText('iou', 'Iou')).toEqual({ tier: 'exact', start: 0, end: 3 });
    expect(matchText('iou', 'Iou_Transfer')).toEqual({ tier: 'prefix', start: 0, end: 3 });
    expect(matchText('transfer', 'Iou_Transfer')).toEqual({
      tier: 'word-prefix',
      start: 4,
      end: 12,
    });
    expect(matchText('ank', 'bank')).toEqual({ tier: 'substring', start: 1, end: 4 });
    expect(matchText('bank', 'alice')).toBeUndefined();
    expect(matchText('', 'alice')).toBeUndefined();
  });

  it('takes separators and a capital after a lower-case letter as word starts', () => {
    expect(matchText('anderson', 'Alice Anderson')?.tier).toBe('word-prefix');
    expect(matchText('anderson', 'alice.anderson')?.tier).toBe('word-prefix');
    expect(matchText('iou', 'Demo.Iou:Iou')).toEqual({ tier: 'word-prefix', start: 5, end: 8 });
    expect(matchText('transfer', 'IouTransfer')?.tier).toBe('word-prefix');
    // Inside a word of capitals it is no word start.
    expect(matchText('ou', 'IOU')?.tier).toBe('substring');
  });

  it('prefers a later word start to an earlier substring', () => {
    expect(matchText('bank', 'sandbank bank-reader')).toEqual({
      tier: 'word-prefix',
      start: 9,
      end: 13,
    });
  });

  it('matches a text whose lower case changes its length only as a whole', () => {
    expect(matchText('i̇stanbul', 'İstanbul')?.tier).toBe('exact');
    expect(matchText('stan', 'İstanbul')).toBeUndefined();
  });
});

describe('matchTexts', () => {
  it('gives the best match among texts, the earlier text winning a tie', () => {
    expect(matchTexts('alice', ['Alice Anderson', 'alice.anderson', undefined])).toEqual({
      tier: 'prefix',
      start: 0,
      end: 5,
      field: 0,
    });
    expect(matchTexts('bank', ['Bank operator', 'bank'])).toMatchObject({
      tier: 'exact',
      field: 1,
    });
    expect(matchTexts('zzz', ['a', 'b'])).toBeUndefined();
  });
});

describe('normalizeNeedle', () => {
  it('trims, lower-cases and refuses input longer than any name', () => {
    expect(normalizeNeedle('  Alice ')).toBe('alice');
    expect(normalizeNeedle('a'.repeat(MAX_NAME_QUERY_LENGTH + 1))).toBe('');
  });
});

describe('ranking', () => {
  const ranked = (label: string, tier: Ranked['tier'], recency = 0, kind = 'user') => ({
    label,
    tier,
    recency,
    kind,
  });

  it('orders exact before prefix before word start before substring, then the more recent, then by label', () => {
    const items = [
      ranked('sub', 'substring'),
      ranked('word', 'word-prefix'),
      ranked('old', 'prefix', 1),
      ranked('new', 'prefix', 9),
      ranked('b', 'exact'),
      ranked('a', 'exact'),
    ];
    expect([...items].sort(compareRanked).map((item) => item.label)).toEqual([
      'a',
      'b',
      'new',
      'old',
      'word',
      'sub',
    ]);
  });

  it('keeps the best few, at most a number of each kind', () => {
    const items = [
      ...Array.from({ length: 5 }, (_, index) =>
        ranked(`choice ${String(index)}`, 'exact', 0, 'choice'),
      ),
      ranked('the user', 'substring', 0, 'user'),
    ];
    expect(topRanked(items, { limit: 10, perKind: 2 }).map((item) => item.label)).toEqual([
      'choice 0',
      'choice 1',
      'the user',
    ]);
    expect(topRanked(items, { limit: 1, perKind: 2 })).toHaveLength(1);
  });
});

describe('highlightPieces', () => {
  it('splits the text around the match, as plain text', () => {
    expect(highlightPieces('<b>alice</b>', { start: 3, end: 8 })).toEqual([
      { text: '<b>', isMatch: false },
      { text: 'alice', isMatch: true },
      { text: '</b>', isMatch: false },
    ]);
    expect(highlightPieces('alice', { start: 0, end: 5 })).toEqual([
      { text: 'alice', isMatch: true },
    ]);
    expect(highlightPieces('alice', undefined)).toEqual([{ text: 'alice', isMatch: false }]);
    // A range beyond the text (stale) highlights nothing rather than cut the text.
    expect(highlightPieces('al', { start: 0, end: 5 })).toEqual([{ text: 'al', isMatch: false }]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  addSample,
  describeTrend,
  sparklinePoints,
  trendOf,
  TREND_WINDOW_MS,
  type LedgerEndSample,
} from './ledger-end-trend';

/** Polls every 3 s from t = 0, with these offsets. */
function polled(offsets: readonly number[]): LedgerEndSample[] {
  return offsets.reduce<LedgerEndSample[]>(
    (samples, offset, index) => addSample(samples, { at: index * 3_000, offset }),
    [],
  );
}

describe('addSample', () => {
  it('keeps the window plus the newest sample before it, so the trend spans a full minute', () => {
    // 31 polls: t = 0 … 90 s.
    const samples = polled(Array.from({ length: 31 }, (_, index) => 100 + index));
    expect(samples[0]).toEqual({ at: 30_000, offset: 110 });
    expect(samples.at(-1)).toEqual({ at: 90_000, offset: 130 });
    expect(trendOf(samples)).toEqual({ added: 20, spanMs: TREND_WINDOW_MS });
  });

  it('ignores a sample that is not newer, and starts over when the ledger end goes back', () => {
    const samples = polled([5, 7]);
    expect(addSample(samples, { at: 3_000, offset: 9 })).toEqual(samples);
    expect(addSample(samples, { at: 6_000, offset: 2 })).toEqual([{ at: 6_000, offset: 2 }]);
  });

  it('after a pause longer than the window keeps the last sample before it as the baseline', () => {
    const samples = addSample(polled([5, 7]), { at: 10 * 60_000, offset: 50 });
    expect(trendOf(samples)).toEqual({ added: 43, spanMs: 10 * 60_000 - 3_000 });
  });
});

describe('trendOf and describeTrend', () => {
  it('has no trend from one sample', () => {
    expect(trendOf(polled([4]))).toBeUndefined();
  });

  it('says how far the ledger end moved over the time watched', () => {
    expect(describeTrend({ added: 12, spanMs: 60_000 })).toBe('+12 in the last minute');
    expect(describeTrend({ added: 3, spanMs: 9_200 })).toBe('+3 in the last 9 seconds');
    expect(describeTrend({ added: 0, spanMs: 1_000 })).toBe('No new offsets in the last 1 second');
    expect(describeTrend({ added: 43, spanMs: 597_000 })).toBe('+43 in the last 10 minutes');
  });
});

describe('sparklinePoints', () => {
  it('maps time along and offset up, from the lowest to the highest offset', () => {
    expect(sparklinePoints(polled([10, 10, 14]), 120, 24)).toBe('0,24 60,24 120,0');
  });

  it('draws a flat line at the bottom when the ledger end did not move, nothing from one sample', () => {
    expect(sparklinePoints(polled([3, 3]), 100, 20)).toBe('0,20 100,20');
    expect(sparklinePoints(polled([3]), 100, 20)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import {
  historySeekOf,
  historySeekSchema,
  toHistorySeek,
  toIsoTime,
  withHistorySeek,
} from './history-seek-form-schema';

describe('toIsoTime', () => {
  it('reads zoned times as written and zoneless ones as local time, to the microsecond', () => {
    expect(toIsoTime('2026-11-24T13:03:00Z')).toBe('2026-11-24T13:03:00.000000Z');
    expect(toIsoTime('2026-11-24T14:03:00.123456789+01:00')).toBe('2026-11-24T13:03:00.123456Z');
    const local = new Date(2026, 10, 24, 14, 3, 5).toISOString().slice(0, 19);
    expect(toIsoTime('2026-11-24 14:03:05.5')).toBe(`${local}.500000Z`);
    expect(toIsoTime(' 2026-11-24T14:03 ')).toBe(
      `${new Date(2026, 10, 24, 14, 3).toISOString().slice(0, 19)}.000000Z`,
    );
  });

  it('refuses what is no date-time, and days that do not exist', () => {
    expect(toIsoTime('yesterday')).toBeUndefined();
    expect(toIsoTime('2026-02-31 10:00')).toBeUndefined();
    expect(toIsoTime('2026-11-24')).toBeUndefined();
    expect(toIsoTime(`2026-11-24 10:00${' '.repeat(100)}x`)).toBeUndefined();
  });
});

describe('historySeekSchema', () => {
  const messages = (by: 'offset' | 'time', value: string) => {
    const result = historySeekSchema.safeParse({ by, value });
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('names what is wrong with the offset or the time on the field', () => {
    expect(messages('offset', '')).toEqual(['Enter an offset']);
    expect(messages('offset', '0')).toEqual(['An offset is a positive whole number']);
    expect(messages('offset', '1e3')).toEqual(['An offset is a positive whole number']);
    expect(messages('offset', '42')).toEqual([]);
    expect(messages('time', '')).toEqual(['Enter a date and time']);
    expect(messages('time', 'soon')).toHaveLength(1);
    expect(messages('time', '2026-11-24T13:03:00Z')).toEqual([]);
  });
});

describe('the seek in the URL', () => {
  it('round-trips through from= and at=, keeping other params', () => {
    const offset = toHistorySeek({ by: 'offset', value: ' 42 ' });
    expect(offset).toEqual({ kind: 'offset', offset: 42 });
    const params = withHistorySeek(new URLSearchParams('view=graph'), offset);
    expect(params.toString()).toBe('view=graph&from=42');
    expect(historySeekOf(params)).toEqual(offset);

    const time = toHistorySeek({ by: 'time', value: '2026-11-24T13:03:00Z' });
    const timeParams = withHistorySeek(params, time);
    expect(timeParams.toString()).toBe('view=graph&at=2026-11-24T13%3A03%3A00.000000Z');
    expect(historySeekOf(timeParams)).toEqual(time);

    expect(withHistorySeek(timeParams, { kind: 'latest' }).toString()).toBe('view=graph');
  });

  it('takes a malformed seek for the latest updates', () => {
    expect(historySeekOf(new URLSearchParams('from=-3'))).toEqual({ kind: 'latest' });
    expect(historySeekOf(new URLSearchParams('from=0'))).toEqual({ kind: 'latest' });
    expect(historySeekOf(new URLSearchParams('at=tomorrow'))).toEqual({ kind: 'latest' });
    expect(historySeekOf(new URLSearchParams(''))).toEqual({ kind: 'latest' });
  });
});

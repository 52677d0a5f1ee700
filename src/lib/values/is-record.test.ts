import { describe, expect, it } from 'vitest';
import { isRecord } from './is-record';

describe('isRecord', () => {
  it('takes an object with fields, also an empty one', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord({})).toBe(true);
    expect(isRecord(JSON.parse('{"nested":{"x":[1]}}'))).toBe(true);
  });

  it('refuses null, arrays and every other kind of value', () => {
    for (const value of [null, undefined, [], [{ a: 1 }], 'text', 1, true]) {
      expect(isRecord(value)).toBe(false);
    }
  });
});

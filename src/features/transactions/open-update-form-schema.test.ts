import { describe, expect, it } from 'vitest';
import { openUpdateSchema, toUpdateRef } from './open-update-form-schema';

const UPDATE_ID = `1220${'ab'.repeat(32)}`;

const problems = (value: string) => {
  const result = openUpdateSchema.safeParse({ value });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('openUpdateSchema', () => {
  it('accepts an update id, in any case and with spaces around it', () => {
    expect(problems(UPDATE_ID)).toEqual([]);
    expect(problems(` ${UPDATE_ID.toUpperCase()} `)).toEqual([]);
    expect(toUpdateRef({ value: ` ${UPDATE_ID.toUpperCase()} ` })).toEqual({
      updateId: UPDATE_ID,
    });
    // An id that happens to be all digits is still an id, not an offset.
    const digits = `1220${'12'.repeat(32)}`;
    expect(problems(digits)).toEqual([]);
    expect(toUpdateRef({ value: digits })).toEqual({ updateId: digits });
  });

  it('names what is wrong with an update id', () => {
    expect(problems('')).toEqual(['Enter an update id or an offset']);
    expect(problems('abc')).toEqual(['An update id is 1220 followed by 64 hexadecimal digits']);
    expect(problems(`${UPDATE_ID}0`)).toHaveLength(1);
  });

  it('takes digits as an offset: positive whole offsets only', () => {
    expect(problems('42')).toEqual([]);
    expect(toUpdateRef({ value: ' 42 ' })).toEqual({ offset: 42 });
    expect(problems('0')).toEqual(['An offset is a positive whole number']);
    expect(problems('-3')).toEqual(['An offset is a positive whole number']);
    expect(problems('1.5')).toEqual(['An offset is a positive whole number']);
    expect(problems('99999999999999999999')).toEqual(['An offset is a positive whole number']);
  });
});

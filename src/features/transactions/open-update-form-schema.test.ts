import { describe, expect, it } from 'vitest';
import { openUpdateSchema, toUpdateRef } from './open-update-form-schema';

const UPDATE_ID = `1220${'ab'.repeat(32)}`;

const problems = (lookup: 'id' | 'offset', value: string) => {
  const result = openUpdateSchema.safeParse({ lookup, value });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('openUpdateSchema', () => {
  it('accepts an update id, in any case and with spaces around it', () => {
    expect(problems('id', UPDATE_ID)).toEqual([]);
    expect(problems('id', ` ${UPDATE_ID.toUpperCase()} `)).toEqual([]);
    expect(toUpdateRef({ lookup: 'id', value: ` ${UPDATE_ID.toUpperCase()} ` })).toEqual({
      updateId: UPDATE_ID,
    });
  });

  it('names what is wrong with an update id', () => {
    expect(problems('id', '')).toEqual(['Enter an update id']);
    expect(problems('id', 'abc')).toEqual([
      'An update id is 1220 followed by 64 hexadecimal digits',
    ]);
    expect(problems('id', `${UPDATE_ID}0`)).toHaveLength(1);
  });

  it('accepts positive whole offsets only', () => {
    expect(problems('offset', '42')).toEqual([]);
    expect(toUpdateRef({ lookup: 'offset', value: ' 42 ' })).toEqual({ offset: 42 });
    expect(problems('offset', '')).toEqual(['Enter an offset']);
    expect(problems('offset', '0')).toEqual(['An offset is a positive whole number']);
    expect(problems('offset', '-3')).toEqual(['An offset is a whole number']);
    expect(problems('offset', '1.5')).toEqual(['An offset is a whole number']);
    expect(problems('offset', '99999999999999999999')).toEqual([
      'An offset is a positive whole number',
    ]);
  });
});

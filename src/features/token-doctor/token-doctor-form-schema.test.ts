import { describe, expect, it } from 'vitest';
import { tokenDoctorSchema } from './token-doctor-form-schema';

describe('token doctor form', () => {
  it('takes a pasted token without its Bearer prefix and line breaks', () => {
    expect(tokenDoctorSchema.parse({ token: 'Bearer aaa.\nbbb.ccc\n' })).toEqual({
      token: 'aaa.bbb.ccc',
    });
  });

  it('asks for a token when there is only whitespace', () => {
    const result = tokenDoctorSchema.safeParse({ token: ' \n Bearer  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Paste a token, or use your current one');
  });
});

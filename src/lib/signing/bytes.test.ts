import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, fromPaddedBase64, toBase64, toHex } from './bytes';

describe('byte encodings', () => {
  const bytes = new Uint8Array([0, 1, 127, 128, 250, 255]);

  it('round-trips hex and base64', () => {
    expect(toHex(bytes)).toBe('00017f80faff');
    expect(fromHex('00017F80FAFF')).toEqual(bytes);
    expect(fromHex('0x00017f80faff')).toEqual(bytes);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(fromBase64(Buffer.from(bytes).toString('base64url'))).toEqual(bytes);
  });

  it.each(['0', 'zz', '0x0g'])('refuses %s as hex', (text) => {
    expect(fromHex(text)).toBeNull();
  });

  it.each(['a', 'ab$d', 'ab=c', 'abcde'])('refuses %s as base64', (text) => {
    expect(fromBase64(text)).toBeNull();
  });

  it('reads standard padded base64 of every length', () => {
    for (let length = 0; length <= 7; length++) {
      const some = bytes.subarray(0, length);
      expect(fromPaddedBase64(Buffer.from(some).toString('base64'))).toEqual(some);
    }
  });

  it.each([
    ['unpadded', 'AAE'],
    ['padding in the middle', 'AA=A'],
    ['three padding characters', 'A==='],
    ['URL-safe digits', '-_8='],
    ['a space', 'AAAA AAA'],
    ['a line break', 'AAAA\nAAA='],
    ['outside the alphabet', 'AAA$'],
    ['not Latin-1', 'AAA\u20ac'],
  ])('refuses %s as padded base64', (_what, text) => {
    expect(fromPaddedBase64(text)).toBeNull();
  });
});

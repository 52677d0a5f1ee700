import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, toBase64, toHex } from './bytes';

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
});

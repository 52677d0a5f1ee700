import { describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken } from './page-token';

describe('page tokens', () => {
  it('match the real server byte for byte', () => {
    expect(encodePageToken('alice')).toBe('CgVhbGljZQ==');
    expect(encodePageToken('participant_admin')).toBe('ChFwYXJ0aWNpcGFudF9hZG1pbg==');
  });

  it('round-trip ids of any length, including multi-byte varints', () => {
    for (const id of ['a', 'x'.repeat(127), 'y'.repeat(128), 'z'.repeat(300)]) {
      expect(decodePageToken(encodePageToken(id))).toBe(id);
    }
  });

  it('reject what is not a token of ours', () => {
    expect(decodePageToken('garbage!')).toBeUndefined();
    expect(decodePageToken('')).toBeUndefined();
    expect(decodePageToken('CgVhbGlj')).toBeUndefined(); // length says 5, only 4 bytes follow
    expect(decodePageToken(Buffer.from([0x12, 0x01, 0x61]).toString('base64url'))).toBeUndefined();
  });
});

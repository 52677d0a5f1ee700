import { describe, expect, it } from 'vitest';
import { parsePublicKey } from './keys';
import { isSigningInputError, SigningInputError } from './signing-input-error';

describe('isSigningInputError', () => {
  it('is true for what the user gave that cannot be used, and false for anything else', async () => {
    const refused = await parsePublicKey('not a key').catch((error: unknown) => error);
    expect(isSigningInputError(refused)).toBe(true);
    expect(isSigningInputError(new SigningInputError('Paste the public key.'))).toBe(true);
    expect(isSigningInputError(new Error('Paste the public key.'))).toBe(false);
    expect(isSigningInputError(new DOMException('', 'DataError'))).toBe(false);
    expect(isSigningInputError({ name: 'SigningInputError', message: 'x' })).toBe(false);
  });
});

/**
 * A key, signature or key file the user gave that cannot be used. Its message is written for the
 * form field it came from, and never contains the key material itself.
 */
export class SigningInputError extends Error {
  override readonly name = 'SigningInputError';
}

/** A key, signature or key file that cannot be used: its message belongs on the form field. */
export function isSigningInputError(error: unknown): error is SigningInputError {
  return error instanceof SigningInputError;
}

/** WebCrypto exists only in secure contexts (https, or http on localhost/127.0.0.1). */
export function subtleCrypto(): SubtleCrypto {
  const subtle: SubtleCrypto | undefined = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) {
    throw new SigningInputError(
      'This browser offers no Web Crypto here: open the console over https or on localhost to sign.',
    );
  }
  return subtle;
}

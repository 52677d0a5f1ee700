import { MAX_KEY_FILE_BYTES, readPrivateKeyFile, type PrivateSigningKey } from '@/lib/signing/keys';
import { SigningInputError } from '@/lib/signing/signing-input-error';

/** A chosen key file read in memory; throws SigningInputError (a field's message) for a bad one. */
export async function readKeyFile(file: File): Promise<PrivateSigningKey> {
  if (file.size > MAX_KEY_FILE_BYTES) {
    throw new SigningInputError('This file is too large to be a key file.');
  }
  return readPrivateKeyFile(new Uint8Array(await file.arrayBuffer()));
}

import { fromBase64, fromHex, toArrayBuffer, toBase64 } from './bytes';
import type { PrivateSigningKey, PublicSigningKey, SigningKeySpec } from './keys';
import { SigningInputError, subtleCrypto } from './signing-input-error';

/** The wire's `Signature` (OpenAPI), as `partySignatures` and `multiHashSignatures` carry it. */
export type WireSignature = {
  format: 'SIGNATURE_FORMAT_CONCAT' | 'SIGNATURE_FORMAT_DER';
  /** base64 */
  signature: string;
  /** The fingerprint of the key that signed. */
  signedBy: string;
  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' | 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256';
};

/** A DER ECDSA signature is at most 72 bytes for P-256; a pasted text beyond this is not one. */
export const MAX_SIGNATURE_CHARS = 1024;

const algorithmOf = (spec: SigningKeySpec): WireSignature['signingAlgorithmSpec'] =>
  spec === 'SIGNING_KEY_SPEC_EC_CURVE25519'
    ? 'SIGNING_ALGORITHM_SPEC_ED25519'
    : 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256';

/**
 * Signs `hash` (the prepared transaction hash, or a topology multi-hash) as Canton expects: the
 * hash bytes are the message — Ed25519 over them directly, ECDSA P-256 over their SHA-256.
 */
export async function signHash(key: PrivateSigningKey, hash: Uint8Array): Promise<WireSignature> {
  const algorithm =
    key.keySpec === 'SIGNING_KEY_SPEC_EC_CURVE25519'
      ? { name: 'Ed25519' }
      : { name: 'ECDSA', hash: 'SHA-256' };
  const signature = await subtleCrypto().sign(algorithm, key.privateKey, toArrayBuffer(hash));
  return {
    format: 'SIGNATURE_FORMAT_CONCAT',
    signature: toBase64(new Uint8Array(signature)),
    signedBy: key.publicKey.fingerprint,
    signingAlgorithmSpec: algorithmOf(key.keySpec),
  };
}

/**
 * A signature made elsewhere (an HSM, a wallet, a CLI), pasted as hex or base64, for the key
 * `signedBy`. Ed25519 signatures are 64 bytes; ECDSA ones 64 bytes r ‖ s, or DER.
 */
export function parseSignature(
  text: string,
  {
    signedBy,
    keySpec = 'SIGNING_KEY_SPEC_EC_CURVE25519',
  }: { signedBy: string; keySpec?: SigningKeySpec },
): WireSignature {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') throw new SigningInputError('Paste the signature.');
  if (compact.length > MAX_SIGNATURE_CHARS) {
    throw new SigningInputError('This is too long to be a signature.');
  }
  const isHex = /^(0x)?[0-9a-fA-F]+$/.test(compact) && compact.replace(/^0x/, '').length % 2 === 0;
  const bytes = isHex ? fromHex(compact) : fromBase64(compact);
  if (!bytes) throw new SigningInputError('The signature must be hex or base64.');
  const isDer = keySpec === 'SIGNING_KEY_SPEC_EC_P256' && bytes[0] === 0x30 && bytes.length !== 64;
  if (!isDer && bytes.length !== 64) {
    throw new SigningInputError(
      `A${keySpec === 'SIGNING_KEY_SPEC_EC_CURVE25519' ? 'n Ed25519' : ' P-256'} signature has 64 bytes; this has ${String(bytes.length)}.`,
    );
  }
  return {
    format: isDer ? 'SIGNATURE_FORMAT_DER' : 'SIGNATURE_FORMAT_CONCAT',
    signature: toBase64(bytes),
    signedBy,
    signingAlgorithmSpec: algorithmOf(keySpec),
  };
}

/**
 * Whether `signature` is `key`'s signature of `hash`: checked in the browser before sending, so a
 * signature over another hash is named as such instead of as the participant's generic refusal.
 * DER ECDSA signatures cannot be checked by WebCrypto and count as unknown (null).
 */
export async function verifyHashSignature(
  key: PublicSigningKey,
  hash: Uint8Array,
  signature: WireSignature,
): Promise<boolean | null> {
  if (signature.format === 'SIGNATURE_FORMAT_DER') return null;
  const subtle = subtleCrypto();
  const keyBytes = fromBase64(key.keyData);
  const signatureBytes = fromBase64(signature.signature);
  if (!keyBytes || !signatureBytes) return false;
  try {
    if (key.keySpec === 'SIGNING_KEY_SPEC_EC_CURVE25519') {
      const raw = key.format === 'CRYPTO_KEY_FORMAT_RAW' ? keyBytes : keyBytes.subarray(-32);
      const publicKey = await subtle.importKey(
        'raw',
        toArrayBuffer(raw),
        { name: 'Ed25519' },
        false,
        ['verify'],
      );
      return await subtle.verify(
        { name: 'Ed25519' },
        publicKey,
        toArrayBuffer(signatureBytes),
        toArrayBuffer(hash),
      );
    }
    const publicKey = await subtle.importKey(
      'spki',
      toArrayBuffer(keyBytes),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    return await subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      publicKey,
      toArrayBuffer(signatureBytes),
      toArrayBuffer(hash),
    );
  } catch {
    return false;
  }
}

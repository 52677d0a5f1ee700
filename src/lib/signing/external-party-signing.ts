import {
  MAX_KEY_FILE_BYTES,
  readPrivateKeyFile,
  type PrivateSigningKey,
  type PublicSigningKey,
} from './keys';
import { parseSignature, signHash, verifyHashSignature, type WireSignature } from './signatures';
import { SigningInputError } from './signing-input-error';

/**
 * Getting an external party's topology multi-hash signed, wherever it is asked for (the parties
 * pages' "Allocate external party", onboarding one person, bulk import): a key made in this
 * browser, a key file read in memory, or a signature pasted from elsewhere. Each answer is a
 * signature that verifies against the party's key, or a message fit for the field it came from.
 */

/** A key made in this browser: held in component state only, until the allocation ends. */
export type BrowserKey = { key: PrivateSigningKey; privateKeyPem: string; fileName: string };

/** A downloaded key file's name: the hint, so the user can tell several apart. */
export function keyFileName(partyHint: string): string {
  const safe = partyHint.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe === '' ? 'party' : safe.slice(0, 64)}.ed25519.pem`;
}

export type SignatureOutcome =
  { ok: true; signature: WireSignature } | { ok: false; message: string };

/** What a signature must be: the key's, over these bytes. */
export type SignatureTarget = { publicKey: PublicSigningKey; hash: Uint8Array };

export const SIGNATURE_DOES_NOT_VERIFY =
  "This signature does not verify: it is not the party key's signature of this multi-hash.";

/**
 * A pasted signature (hex or base64) checked in the browser against the party's key and the
 * multi-hash, so one over other bytes or by another key is named before anything is sent.
 */
export async function checkPastedSignature(
  text: string,
  { publicKey, hash }: SignatureTarget,
): Promise<SignatureOutcome> {
  let signature: WireSignature;
  try {
    signature = parseSignature(text, {
      signedBy: publicKey.fingerprint,
      keySpec: publicKey.keySpec,
    });
  } catch (error) {
    if (!(error instanceof SigningInputError)) throw error;
    return { ok: false, message: error.message };
  }
  // null: a DER ECDSA signature WebCrypto cannot check; the participant checks it.
  if ((await verifyHashSignature(publicKey, hash, signature)) === false) {
    return { ok: false, message: SIGNATURE_DOES_NOT_VERIFY };
  }
  return { ok: true, signature };
}

/**
 * Signs with a private key file, read only here: bounded, parsed, checked to be the party's key,
 * used once and dropped (the caller never sees the key).
 */
export async function signWithKeyFile(
  file: { size: number; bytes: () => Promise<Uint8Array> },
  { publicKey, hash }: SignatureTarget,
): Promise<SignatureOutcome> {
  if (file.size > MAX_KEY_FILE_BYTES) {
    return { ok: false, message: 'This file is too large to be a key file.' };
  }
  try {
    const key = await readPrivateKeyFile(await file.bytes());
    if (key.publicKey.fingerprint !== publicKey.fingerprint) {
      return {
        ok: false,
        message: `This is not the party's key: its fingerprint is ${key.publicKey.fingerprint}, the party's is ${publicKey.fingerprint}.`,
      };
    }
    return { ok: true, signature: await signHash(key, hash) };
  } catch (error) {
    if (!(error instanceof SigningInputError)) throw error;
    return { ok: false, message: error.message };
  }
}

/** What a `generate-topology` refusal is about; the participant reports all as INVALID_ARGUMENT. */
export type TopologyRefusalSubject =
  'synchronizer' | 'partyHint' | 'threshold' | 'participants' | 'publicKey';

/** The subject of a refusal, from its cause (sandbox/src/ledger/external/onboarding.ts keeps Canton's words). */
export function topologyRefusalSubject(cause: string): TopologyRefusalSubject | undefined {
  if (/synchronizer/i.test(cause)) return 'synchronizer';
  if (/party.hint|Party hint/i.test(cause)) return 'partyHint';
  if (/threshold/i.test(cause)) return 'threshold';
  if (/participant|unique identifier|Identifier decoding|Fingerprint decoding/i.test(cause)) {
    return 'participants';
  }
  if (/key/i.test(cause)) return 'publicKey';
  return undefined;
}

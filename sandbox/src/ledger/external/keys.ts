import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { invalidArgument } from '../../errors/sandbox-error';

/**
 * Canton's hash purposes (HashPurpose.scala): each hash is SHA-256 over int32be(purpose) and the
 * bytes, so a signature over one kind of hash can never be replayed as another.
 */
export const HASH_PURPOSE = {
  topologyTransactionSignature: 11,
  publicKeyFingerprint: 12,
  preparedSubmission: 48,
  multiTopologyTransaction: 55,
  reassignmentId: 57,
} as const;

/** The multihash header of SHA-256 (varint code 0x12, length 32): Canton's `1220` prefix. */
const MULTIHASH_SHA256 = Buffer.from([0x12, 0x20]);

const int32be = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};

/** A Canton hash as a 34-byte multihash: `0x1220 ‖ SHA-256(int32be(purpose) ‖ bytes)`. */
export function cantonHash(purpose: number, bytes: Uint8Array): Buffer {
  const digest = createHash('sha256').update(int32be(purpose)).update(bytes).digest();
  return Buffer.concat([MULTIHASH_SHA256, digest]);
}

/**
 * The multi-hash that signs several topology transactions at once (purpose 55): the count, then
 * each transaction hash length-prefixed, in the hashes' hex order.
 */
export function topologyMultiHash(transactionHashes: readonly Uint8Array[]): Buffer {
  const sorted = [...transactionHashes].sort((a, b) =>
    Buffer.from(a).toString('hex') < Buffer.from(b).toString('hex') ? -1 : 1,
  );
  const parts: Buffer[] = [int32be(sorted.length)];
  for (const hash of sorted) parts.push(int32be(hash.length), Buffer.from(hash));
  return cantonHash(HASH_PURPOSE.multiTopologyTransaction, Buffer.concat(parts));
}

export type SigningKeySpec = 'SIGNING_KEY_SPEC_EC_CURVE25519' | 'SIGNING_KEY_SPEC_EC_P256';

/** A party's signing key as the sandbox keeps it: enough to verify and to print it back. */
export type PartySigningKey = {
  /** `1220…`: how signatures name the key (`signedBy`) and the namespace of an external party. */
  fingerprint: string;
  spec: SigningKeySpec;
  /** The key as X.509 SubjectPublicKeyInfo DER, whatever format it arrived in. */
  spki: Buffer;
};

/** The wire's `SigningPublicKey` (OpenAPI), with its enums as strings. */
export type WireSigningPublicKey = { format: string; keyData: string; keySpec: string };

// SubjectPublicKeyInfo of an Ed25519 key is this fixed header followed by the 32 raw bytes.
const ED25519_SPKI_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

/** Why a public key cannot be read; its message is the participant's (inferred) wording. */
export class SigningKeyProblem extends Error {
  override readonly name = 'SigningKeyProblem';
}

const keyProblem = (message: string) => new SigningKeyProblem(message);

/**
 * Reads a public key of a request (Ed25519 as RAW or DER SPKI; P-256 as DER SPKI), checks that
 * it is a key of the spec it claims, and computes its fingerprint: over the raw 32 bytes for
 * Ed25519 (as Canton and the wallet SDK do), over the DER bytes for P-256 (inferred).
 */
export function readSigningKey(key: WireSigningPublicKey): PartySigningKey {
  try {
    return parseSigningKey(key);
  } catch (error) {
    if (error instanceof SigningKeyProblem) throw invalidArgument(error.message);
    throw error;
  }
}

/**
 * {@link readSigningKey} for keys inside other messages (a topology transaction's): throws a
 * {@link SigningKeyProblem} that the caller words for its field.
 */
export function parseSigningKey(key: WireSigningPublicKey): PartySigningKey {
  const data = Buffer.from(key.keyData, 'base64');
  if (data.length === 0) throw keyProblem('The public key is empty');
  if (data.length > 1024) throw keyProblem('The public key is longer than 1024 bytes');
  let spki: Buffer;
  let fingerprintBytes: Buffer;
  let object: KeyObject;
  try {
    if (key.keySpec === 'SIGNING_KEY_SPEC_EC_CURVE25519') {
      if (key.format === 'CRYPTO_KEY_FORMAT_RAW') {
        if (data.length !== 32) throw keyProblem('An Ed25519 public key has 32 bytes');
        spki = Buffer.concat([ED25519_SPKI_HEADER, data]);
      } else if (key.format === 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO') {
        spki = data;
      } else {
        throw keyProblem(`Unsupported key format ${key.format} for ${key.keySpec}`);
      }
      object = createPublicKey({ key: spki, format: 'der', type: 'spki' });
      if (object.asymmetricKeyType !== 'ed25519') throw keyProblem('The key is not an Ed25519 key');
      fingerprintBytes = spki.subarray(spki.length - 32);
    } else if (key.keySpec === 'SIGNING_KEY_SPEC_EC_P256') {
      if (key.format !== 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO') {
        throw keyProblem(`Unsupported key format ${key.format} for ${key.keySpec}`);
      }
      spki = data;
      object = createPublicKey({ key: spki, format: 'der', type: 'spki' });
      if (
        object.asymmetricKeyType !== 'ec' ||
        object.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
      ) {
        throw keyProblem('The key is not an EC P-256 key');
      }
      fingerprintBytes = spki;
    } else {
      throw keyProblem(`Unsupported signing key spec ${key.keySpec}`);
    }
  } catch (error) {
    if (error instanceof SigningKeyProblem) throw error;
    throw keyProblem(`Failed to parse the public key: ${(error as Error).message}`);
  }
  return {
    fingerprint: cantonHash(HASH_PURPOSE.publicKeyFingerprint, fingerprintBytes).toString('hex'),
    spec: key.keySpec,
    spki,
  };
}

/** The wire's `Signature`. */
export type WireSignature = {
  format: string;
  signature: string;
  signedBy: string;
  signingAlgorithmSpec: string;
};

/**
 * Whether `signature` is `key`'s valid signature of `message`: the algorithm must fit the key
 * (Ed25519 with Ed25519; ECDSA-SHA256 with P-256), the format must be one Canton reads (CONCAT or
 * RAW for Ed25519; DER or CONCAT for ECDSA), and the signature must name the key.
 */
export function verifySignature(
  key: PartySigningKey,
  signature: WireSignature,
  message: Uint8Array,
): boolean {
  if (signature.signedBy !== key.fingerprint) return false;
  const bytes = Buffer.from(signature.signature, 'base64');
  if (bytes.length === 0 || bytes.length > 512) return false;
  const object = publicKeyObject(key.spki);
  try {
    if (key.spec === 'SIGNING_KEY_SPEC_EC_CURVE25519') {
      if (signature.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_ED25519') return false;
      if (!['SIGNATURE_FORMAT_CONCAT', 'SIGNATURE_FORMAT_RAW'].includes(signature.format)) {
        return false;
      }
      return verify(null, message, object, bytes);
    }
    if (signature.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256') return false;
    if (signature.format === 'SIGNATURE_FORMAT_DER')
      return verify('sha256', message, object, bytes);
    if (signature.format === 'SIGNATURE_FORMAT_CONCAT') {
      return verify('sha256', message, { key: object, dsaEncoding: 'ieee-p1363' }, bytes);
    }
    return false;
  } catch {
    return false;
  }
}

/**
 * Parsed public keys by their DER bytes: parsing one costs about as much as the verification
 * itself, and a wallet's party signs every transaction with the same key. Bounded, oldest out.
 */
const publicKeys = new Map<string, KeyObject>();
const MAX_PUBLIC_KEYS = 256;

function publicKeyObject(spki: Buffer): KeyObject {
  const id = spki.toString('base64');
  let object = publicKeys.get(id);
  if (object === undefined) {
    object = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    if (publicKeys.size >= MAX_PUBLIC_KEYS) {
      const oldest = publicKeys.keys().next();
      if (oldest.done !== true) publicKeys.delete(oldest.value);
    }
    publicKeys.set(id, object);
  }
  return object;
}

/** The wire's `SigningPublicKey` of a kept key, as DER SPKI (what Canton prints back). */
export function toWireSigningKey(key: PartySigningKey): WireSigningPublicKey {
  return {
    format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
    keyData: key.spki.toString('base64'),
    keySpec: key.spec,
  };
}

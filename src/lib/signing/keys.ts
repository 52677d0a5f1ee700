import {
  concatBytes,
  equalBytes,
  fromBase64,
  fromHex,
  toArrayBuffer,
  toBase64,
  toHex,
} from './bytes';
import { SigningInputError, subtleCrypto } from './signing-input-error';

/** The wire's `SigningKeySpec` values a browser can sign with (WebCrypto). */
export type SigningKeySpec = 'SIGNING_KEY_SPEC_EC_CURVE25519' | 'SIGNING_KEY_SPEC_EC_P256';

/** The wire's `SigningPublicKey` (OpenAPI), ready to send. */
export type PublicSigningKey = {
  format: 'CRYPTO_KEY_FORMAT_RAW' | 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO';
  keySpec: SigningKeySpec;
  /** base64 */
  keyData: string;
  /** `1220…`: how signatures name the key, and an external party's namespace. */
  fingerprint: string;
};

/** A private key read into memory: usable for signing, never extractable again. */
export type PrivateSigningKey = {
  keySpec: SigningKeySpec;
  privateKey: CryptoKey;
  publicKey: PublicSigningKey;
};

/** Key files are a few hundred bytes; anything much larger is not a key. */
export const MAX_KEY_FILE_BYTES = 16 * 1024;
/** A pasted public key (PEM of P-256 is ~180 characters). */
export const MAX_PUBLIC_KEY_CHARS = 4 * 1024;

function constantBytes(hex: string): Uint8Array {
  const bytes = fromHex(hex);
  if (!bytes) throw new Error(`Not hex: ${hex}`);
  return bytes;
}

// Canton's hash purpose of public key fingerprints (HashPurpose.scala).
const FINGERPRINT_PURPOSE = 12;
// DER prefixes of the fixed-size encodings WebCrypto and OpenSSL produce for these keys.
const ED25519_PKCS8_PREFIX = constantBytes('302e020100300506032b657004220420');
const ED25519_SPKI_PREFIX = constantBytes('302a300506032b6570032100');
// AlgorithmIdentifier of id-ecPublicKey with prime256v1, as it appears inside SPKI and PKCS#8.
const P256_ALGORITHM = constantBytes('06072a8648ce3d020106082a8648ce3d030107');
const ED25519_OID = constantBytes('06032b6570');

const ED25519 = { name: 'Ed25519' } as const;
const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

function int32be(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, value);
  return out;
}

/**
 * Canton's fingerprint of a public key: `1220` + hex SHA-256 over purpose 12 and the key — the
 * raw 32 bytes for Ed25519, the DER SubjectPublicKeyInfo for ECDSA keys.
 */
export async function fingerprintOf(keyBytes: Uint8Array): Promise<string> {
  const digest = await subtleCrypto().digest(
    'SHA-256',
    toArrayBuffer(concatBytes(int32be(FINGERPRINT_PURPOSE), keyBytes)),
  );
  return `1220${toHex(new Uint8Array(digest))}`;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

type Pem = { label: string; der: Uint8Array };

/** The first PEM block of `text`, or null when there is none. */
function readPem(text: string): Pem | null {
  const match = /-----BEGIN ([A-Z0-9 ]{1,40})-----([\s\S]*?)-----END \1-----/.exec(text);
  if (!match) return null;
  const [, label = '', body = ''] = match;
  const der = fromBase64(body.replace(/\s+/g, ''));
  if (!der) throw new SigningInputError(`The ${label} block is not valid base64.`);
  return { label, der };
}

/** Bytes written as base64 or hex text (whitespace ignored), or null. */
function readEncodedText(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return null;
  if (/^(0x)?[0-9a-fA-F]+$/.test(compact) && compact.replace(/^0x/, '').length % 2 === 0) {
    return fromHex(compact);
  }
  return fromBase64(compact);
}

/** A raw 32-byte Ed25519 public key, as the wire wants it. */
function ed25519PublicKey(raw: Uint8Array): Promise<PublicSigningKey> {
  return publicKeyOf(raw, 'CRYPTO_KEY_FORMAT_RAW', 'SIGNING_KEY_SPEC_EC_CURVE25519');
}

/** A P-256 public key in its DER SubjectPublicKeyInfo, as the wire wants it. */
function p256PublicKey(spki: Uint8Array): Promise<PublicSigningKey> {
  return publicKeyOf(
    spki,
    'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
    'SIGNING_KEY_SPEC_EC_P256',
  );
}

async function publicKeyOf(
  bytes: Uint8Array,
  format: PublicSigningKey['format'],
  keySpec: SigningKeySpec,
): Promise<PublicSigningKey> {
  return { format, keySpec, keyData: toBase64(bytes), fingerprint: await fingerprintOf(bytes) };
}

async function importSpki(spki: Uint8Array): Promise<PublicSigningKey> {
  const subtle = subtleCrypto();
  if (spki.length === 44 && equalBytes(spki.subarray(0, 12), ED25519_SPKI_PREFIX)) {
    return ed25519PublicKey(spki.subarray(12));
  }
  if (contains(spki.subarray(0, 32), P256_ALGORITHM)) {
    try {
      await subtle.importKey('spki', toArrayBuffer(spki), P256, true, ['verify']);
    } catch {
      throw new SigningInputError('This P-256 public key is malformed.');
    }
    return p256PublicKey(spki);
  }
  throw new SigningInputError('Only Ed25519 and EC P-256 public keys can be used.');
}

/**
 * A public key as a user pastes it: Ed25519 as 32 raw bytes (base64 or hex) or PEM; EC P-256 as
 * PEM or DER SubjectPublicKeyInfo (base64). Ed25519 keys are sent RAW, as Canton's own tools do.
 */
export async function parsePublicKey(text: string): Promise<PublicSigningKey> {
  const trimmed = text.trim();
  if (trimmed === '') throw new SigningInputError('Paste the public key.');
  if (trimmed.length > MAX_PUBLIC_KEY_CHARS) {
    throw new SigningInputError('This is too long to be a public key.');
  }
  const pem = readPem(trimmed);
  if (pem) {
    if (pem.label !== 'PUBLIC KEY') {
      throw new SigningInputError(
        pem.label.includes('PRIVATE')
          ? 'This is a private key: paste the public key only (never share the private key).'
          : `A "${pem.label}" block is not a public key; expected "PUBLIC KEY".`,
      );
    }
    return importSpki(pem.der);
  }
  const bytes = readEncodedText(trimmed);
  if (!bytes) throw new SigningInputError('The public key must be base64, hex or PEM.');
  if (bytes.length === 32) return ed25519PublicKey(bytes);
  if (bytes[0] === 0x30) return importSpki(bytes);
  throw new SigningInputError(
    `An Ed25519 public key has 32 bytes; this has ${String(bytes.length)}.`,
  );
}

async function fromPkcs8(pkcs8: Uint8Array): Promise<PrivateSigningKey> {
  const subtle = subtleCrypto();
  const head = pkcs8.subarray(0, 40);
  const isEd25519 = contains(head, ED25519_OID);
  const isP256 = contains(head, P256_ALGORITHM);
  if (!isEd25519 && !isP256) {
    throw new SigningInputError('Only Ed25519 and EC P-256 private keys can sign here.');
  }
  const algorithm = isEd25519 ? ED25519 : P256;
  let jwk: JsonWebKey;
  try {
    // Extractable only for this moment: the public half is read from the JWK, then the key
    // used for signing is imported again non-extractable.
    const extractable = await subtle.importKey('pkcs8', toArrayBuffer(pkcs8), algorithm, true, [
      'sign',
    ]);
    jwk = await subtle.exportKey('jwk', extractable);
  } catch {
    throw new SigningInputError('This private key is malformed.');
  }
  const privateKey = await subtle.importKey('pkcs8', toArrayBuffer(pkcs8), algorithm, false, [
    'sign',
  ]);
  const publicJwk: JsonWebKey = {
    kty: jwk.kty,
    crv: jwk.crv,
    x: jwk.x,
    ...(jwk.y ? { y: jwk.y } : {}),
  };
  if (isEd25519) {
    const raw = fromBase64(jwk.x ?? '');
    if (raw?.length !== 32) throw new SigningInputError('This private key is malformed.');
    return {
      keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      privateKey,
      publicKey: await ed25519PublicKey(raw),
    };
  }
  const publicKey = await subtle.importKey('jwk', publicJwk, P256, true, ['verify']);
  const spki = new Uint8Array(await subtle.exportKey('spki', publicKey));
  return { keySpec: 'SIGNING_KEY_SPEC_EC_P256', privateKey, publicKey: await p256PublicKey(spki) };
}

/** PKCS#8 of an Ed25519 key from its 32-byte seed (RFC 8410's fixed layout). */
function ed25519Pkcs8(seed: Uint8Array): Uint8Array {
  return concatBytes(ED25519_PKCS8_PREFIX, seed);
}

function readJsonKey(text: string): Uint8Array | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const privateKey = (parsed as Record<string, unknown>).privateKey;
  return typeof privateKey === 'string' ? readEncodedText(privateKey) : null;
}

/**
 * Reads a private key file the user chose: PKCS#8 as PEM or DER (Ed25519, EC P-256), or an
 * Ed25519 key as text — its 32-byte seed, or the 64-byte seed ‖ public key of NaCl-style tools
 * (also as `{"privateKey": …}` JSON, as Canton's wallet tooling writes). The bytes stay in memory.
 */
export async function readPrivateKeyFile(file: Uint8Array): Promise<PrivateSigningKey> {
  if (file.length === 0) throw new SigningInputError('The key file is empty.');
  if (file.length > MAX_KEY_FILE_BYTES) {
    throw new SigningInputError('This file is too large to be a key file.');
  }
  // DER always holds control bytes (its tags and lengths); a text key never does.
  const isText = file.every(
    (byte) => byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte < 0x7f),
  );
  if (!isText) return fromPkcs8(file);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(file).trim();
  const pem = readPem(text);
  if (pem) {
    if (pem.label === 'PRIVATE KEY') return fromPkcs8(pem.der);
    if (pem.label === 'ENCRYPTED PRIVATE KEY') {
      throw new SigningInputError(
        'This key is encrypted; decrypt it first (openssl pkey -in key.pem -out plain.pem).',
      );
    }
    if (pem.label === 'OPENSSH PRIVATE KEY') {
      throw new SigningInputError(
        'OpenSSH keys are not read here; convert it to PKCS#8 (ssh-keygen -p -m PKCS8 -f key).',
      );
    }
    if (pem.label.includes('PUBLIC')) {
      throw new SigningInputError('This is a public key; signing needs the private key file.');
    }
    throw new SigningInputError(`A "${pem.label}" block is not a PKCS#8 private key.`);
  }
  const bytes = readJsonKey(text) ?? readEncodedText(text);
  if (!bytes) throw new SigningInputError('This file holds no private key this console can read.');
  if (bytes.length === 32) return fromPkcs8(ed25519Pkcs8(bytes));
  if (bytes.length === 64) {
    const key = await fromPkcs8(ed25519Pkcs8(bytes.subarray(0, 32)));
    const claimed = bytes.subarray(32);
    const derived = fromBase64(key.publicKey.keyData);
    if (!derived || !equalBytes(derived, claimed)) {
      throw new SigningInputError('The key file’s two halves do not belong together.');
    }
    return key;
  }
  if (bytes[0] === 0x30) return fromPkcs8(bytes);
  throw new SigningInputError('This file holds no private key this console can read.');
}

function toPem(label: string, der: Uint8Array): string {
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * A new Ed25519 key pair made in this browser. The PEM (PKCS#8) is what the user downloads; the
 * console keeps neither after the caller drops them.
 */
export async function generateKeyPair(): Promise<{
  key: PrivateSigningKey;
  privateKeyPem: string;
}> {
  const subtle = subtleCrypto();
  const pair = await subtle.generateKey(ED25519, true, ['sign', 'verify']);
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', pair.privateKey));
  const key = await fromPkcs8(pkcs8);
  return { key, privateKeyPem: toPem('PRIVATE KEY', pkcs8) };
}

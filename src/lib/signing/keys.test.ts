import { createHash, generateKeyPairSync, sign, verify, createPublicKey } from 'node:crypto';
import {
  createKeyPair,
  signTransactionHash,
  verifySignedTxHash,
} from '@canton-network/core-signing-lib';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, toHex } from './bytes';
import { fingerprintOf, generateKeyPair, parsePublicKey, readPrivateKeyFile } from './keys';
import { signHash } from './signatures';

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);

/** external-signing.md: "1220" + hex(SHA-256(int32be(12) ‖ key bytes)). */
function documentedFingerprint(keyBytes: Uint8Array): string {
  const purpose = Buffer.alloc(4);
  purpose.writeInt32BE(12);
  return `1220${createHash('sha256').update(purpose).update(keyBytes).digest('hex')}`;
}

const hash = new Uint8Array(32).map((_, i) => i * 7);

describe('readPrivateKeyFile', () => {
  it('reads an Ed25519 PKCS#8 PEM as OpenSSL writes it, and signs what Node verifies', async () => {
    const pair = generateKeyPairSync('ed25519');
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const key = await readPrivateKeyFile(utf8(pem));
    const raw = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    expect(key.keySpec).toBe('SIGNING_KEY_SPEC_EC_CURVE25519');
    expect(key.publicKey).toEqual({
      format: 'CRYPTO_KEY_FORMAT_RAW',
      keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      keyData: raw.toString('base64'),
      fingerprint: documentedFingerprint(raw),
    });
    const signature = await signHash(key, hash);
    expect(signature.signedBy).toBe(key.publicKey.fingerprint);
    expect(signature.format).toBe('SIGNATURE_FORMAT_CONCAT');
    expect(signature.signingAlgorithmSpec).toBe('SIGNING_ALGORITHM_SPEC_ED25519');
    expect(verify(null, hash, pair.publicKey, Buffer.from(signature.signature, 'base64'))).toBe(
      true,
    );
    // The key is held non-extractable: nothing can read it back out of memory.
    expect(key.privateKey.extractable).toBe(false);
  });

  it('reads PKCS#8 DER bytes', async () => {
    const pair = generateKeyPairSync('ed25519');
    const der = pair.privateKey.export({ type: 'pkcs8', format: 'der' });
    const key = await readPrivateKeyFile(new Uint8Array(der));
    expect(key.publicKey.keyData).toBe(
      pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64'),
    );
  });

  it('reads the Canton signing library’s base64 key (seed ‖ public) and agrees with its signatures', async () => {
    const pair = createKeyPair();
    const key = await readPrivateKeyFile(utf8(`${pair.privateKey}\n`));
    expect(key.publicKey.keyData).toBe(pair.publicKey);
    const ours = await signHash(key, hash);
    expect(verifySignedTxHash(toBase64(hash), pair.publicKey, ours.signature)).toBe(true);
    // Ed25519 is deterministic: the same key signs the same hash identically.
    expect(ours.signature).toBe(signTransactionHash(toBase64(hash), pair.privateKey));
    // The same key as JSON, the way wallet tooling saves a pair, and as a 32-byte hex seed.
    const fromJson = await readPrivateKeyFile(utf8(JSON.stringify(pair)));
    expect(fromJson.publicKey).toEqual(key.publicKey);
    // Hex that starts with "0" (0x30) is still text, not DER.
    const seedHex = toHex(fromBase64(pair.privateKey)?.subarray(0, 32) ?? new Uint8Array());
    expect((await readPrivateKeyFile(utf8(seedHex))).publicKey).toEqual(key.publicKey);
  });

  it('reads an EC P-256 PKCS#8 key; its fingerprint is over the DER public key', async () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = await readPrivateKeyFile(
      utf8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    );
    const spki = pair.publicKey.export({ format: 'der', type: 'spki' });
    expect(key.publicKey).toEqual({
      format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
      keySpec: 'SIGNING_KEY_SPEC_EC_P256',
      keyData: spki.toString('base64'),
      fingerprint: documentedFingerprint(spki),
    });
    const signature = await signHash(key, hash);
    expect(signature.signingAlgorithmSpec).toBe('SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256');
    expect(
      verify(
        'sha256',
        hash,
        { key: pair.publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature.signature, 'base64'),
      ),
    ).toBe(true);
  });

  it.each([
    ['an empty file', '', /empty/],
    [
      'an encrypted key',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----',
      /encrypted.*openssl pkey/,
    ],
    [
      'an OpenSSH key',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----',
      /OpenSSH/,
    ],
    [
      'a public key',
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----',
      /public key/,
    ],
    [
      'an RSA key',
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      }),
      /Only Ed25519 and EC P-256/,
    ],
    ['a text file', 'hello, world', /no private key/],
    ['33 bytes of hex', 'ab'.repeat(33), /no private key/],
    [
      'a PEM with broken base64',
      '-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----',
      /not valid base64/,
    ],
    [
      'a truncated PKCS#8',
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIE\n-----END PRIVATE KEY-----',
      /malformed/,
    ],
  ])('refuses %s with a message for the field', async (_, text, message) => {
    await expect(readPrivateKeyFile(utf8(String(text)))).rejects.toThrow(message);
  });

  it('refuses a 64-byte key whose halves do not belong together', async () => {
    const a = fromBase64(createKeyPair().privateKey) ?? new Uint8Array();
    const b = fromBase64(createKeyPair().privateKey) ?? new Uint8Array();
    const mixed = new Uint8Array([...a.subarray(0, 32), ...b.subarray(32)]);
    await expect(readPrivateKeyFile(utf8(toBase64(mixed)))).rejects.toThrow(/do not belong/);
  });

  it('refuses a file larger than a key could be, without reading it', async () => {
    await expect(readPrivateKeyFile(new Uint8Array(16 * 1024 + 1))).rejects.toThrow(/too large/);
  });

  it('never puts key material in an error message', async () => {
    const seed = 'ab'.repeat(33);
    await expect(readPrivateKeyFile(utf8(seed))).rejects.not.toThrow(seed);
  });
});

describe('generateKeyPair', () => {
  it('makes an Ed25519 key whose PEM reads back as the same key', async () => {
    const { key, privateKeyPem } = await generateKeyPair();
    expect(privateKeyPem).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n$/,
    );
    const again = await readPrivateKeyFile(utf8(privateKeyPem));
    expect(again.publicKey).toEqual(key.publicKey);
    // OpenSSL (Node) reads the download too, and verifies what the browser key signs.
    const signature = await signHash(key, hash);
    const publicKey = createPublicKey(privateKeyPem);
    expect(verify(null, hash, publicKey, Buffer.from(signature.signature, 'base64'))).toBe(true);
    expect(sign(null, hash, privateKeyPem).toString('base64')).toBe(signature.signature);
  });
});

describe('parsePublicKey', () => {
  const rsaPublicPem = generateKeyPairSync('rsa', { modulusLength: 1024 })
    .publicKey.export({ format: 'pem', type: 'spki' })
    .toString();
  const pair = generateKeyPairSync('ed25519');
  const spki = pair.publicKey.export({ format: 'der', type: 'spki' });
  const raw = spki.subarray(12);

  it.each([
    ['raw base64', raw.toString('base64')],
    ['raw hex', raw.toString('hex')],
    ['PEM', pair.publicKey.export({ format: 'pem', type: 'spki' }).toString()],
    ['DER base64', spki.toString('base64')],
  ])('reads an Ed25519 key as %s and sends it RAW', async (_, text) => {
    expect(await parsePublicKey(`  ${text}\n`)).toEqual({
      format: 'CRYPTO_KEY_FORMAT_RAW',
      keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      keyData: raw.toString('base64'),
      fingerprint: documentedFingerprint(raw),
    });
  });

  it('reads an EC P-256 key as DER SubjectPublicKeyInfo', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const der = ec.export({ format: 'der', type: 'spki' });
    const key = await parsePublicKey(ec.export({ format: 'pem', type: 'spki' }).toString());
    expect(key.keySpec).toBe('SIGNING_KEY_SPEC_EC_P256');
    expect(key.keyData).toBe(der.toString('base64'));
    expect(key.fingerprint).toBe(documentedFingerprint(der));
  });

  it.each([
    ['nothing', '   ', /Paste the public key/],
    [
      'a private key',
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      /private key/,
    ],
    [
      'a certificate',
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      /not a public key/,
    ],
    ['31 bytes', Buffer.alloc(31, 1).toString('base64'), /32 bytes; this has 31/],
    ['not base64', 'key?', /base64, hex or PEM/],
    ['an RSA key', rsaPublicPem, /Only Ed25519 and EC P-256/],
    ['a huge paste', 'A'.repeat(5000), /too long/],
  ])('refuses %s', async (_, text, message) => {
    await expect(parsePublicKey(text)).rejects.toThrow(message);
  });
});

describe('fingerprintOf', () => {
  it('is Canton’s documented fingerprint', async () => {
    const bytes = new Uint8Array(32).fill(9);
    expect(await fingerprintOf(bytes)).toBe(documentedFingerprint(bytes));
  });
});

import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, parsePublicKey } from './keys';
import { parseSignature, signHash, verifyHashSignature } from './signatures';

const hash = new Uint8Array(32).map((_, i) => 255 - i);
const otherHash = new Uint8Array(32).map((_, i) => i);

describe('parseSignature', () => {
  const signature = Buffer.alloc(64, 0xab);

  it.each([
    ['hex', signature.toString('hex')],
    ['0x hex', `0x${signature.toString('hex')}`],
    ['base64', signature.toString('base64')],
    ['base64 over lines', signature.toString('base64').replace(/(.{20})/g, '$1\n')],
    ['url-safe base64 without padding', signature.toString('base64url')],
  ])('reads a 64-byte Ed25519 signature as %s', (_, text) => {
    expect(parseSignature(text, { signedBy: '1220ab' })).toEqual({
      format: 'SIGNATURE_FORMAT_CONCAT',
      signature: signature.toString('base64'),
      signedBy: '1220ab',
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
    });
  });

  it('reads a DER ECDSA signature for a P-256 key', () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = sign('sha256', hash, pair.privateKey);
    expect(
      parseSignature(der.toString('base64'), {
        signedBy: '1220cd',
        keySpec: 'SIGNING_KEY_SPEC_EC_P256',
      }),
    ).toMatchObject({
      format: 'SIGNATURE_FORMAT_DER',
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
    });
  });

  it.each([
    ['nothing', '', /Paste the signature/],
    ['63 bytes', Buffer.alloc(63).toString('hex'), /64 bytes; this has 63/],
    [
      'a prepared hash pasted by mistake',
      Buffer.alloc(32).toString('base64'),
      /64 bytes; this has 32/,
    ],
    ['garbage', 'not a signature!', /hex or base64/],
    ['a novel', 'A'.repeat(2000), /too long/],
  ])('refuses %s with a message for the field', (_, text, message) => {
    expect(() => parseSignature(text, { signedBy: '1220ab' })).toThrow(message);
  });
});

describe('verifyHashSignature', () => {
  it('tells a signature of this hash from one of another hash or by another key', async () => {
    const { key } = await generateKeyPair();
    const { key: stranger } = await generateKeyPair();
    const good = await signHash(key, hash);
    expect(await verifyHashSignature(key.publicKey, hash, good)).toBe(true);
    expect(await verifyHashSignature(key.publicKey, otherHash, good)).toBe(false);
    const byStranger = await signHash(stranger, hash);
    expect(await verifyHashSignature(key.publicKey, hash, byStranger)).toBe(false);
  });

  it('checks a pasted signature made by another tool against a public key the party printed as DER', async () => {
    const pair = generateKeyPairSync('ed25519');
    const publicKey = await parsePublicKey(
      pair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    );
    const der = {
      ...publicKey,
      format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO' as const,
      keyData: pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    };
    const pasted = parseSignature(sign(null, hash, pair.privateKey).toString('hex'), {
      signedBy: publicKey.fingerprint,
    });
    expect(await verifyHashSignature(der, hash, pasted)).toBe(true);
    expect(await verifyHashSignature(der, otherHash, pasted)).toBe(false);
  });

  it('verifies P-256 CONCAT signatures and leaves DER ones to the participant', async () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const publicKey = await parsePublicKey(
      pair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    );
    const options = { signedBy: publicKey.fingerprint, keySpec: publicKey.keySpec };
    const concat = parseSignature(
      sign('sha256', hash, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' }).toString('hex'),
      options,
    );
    expect(await verifyHashSignature(publicKey, hash, concat)).toBe(true);
    const der = parseSignature(sign('sha256', hash, pair.privateKey).toString('hex'), options);
    expect(await verifyHashSignature(publicKey, hash, der)).toBeNull();
  });
});

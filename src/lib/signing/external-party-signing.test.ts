import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkPastedSignature,
  keyFileName,
  signWithKeyFile,
  SIGNATURE_DOES_NOT_VERIFY,
  topologyRefusalSubject,
  type SignatureOutcome,
} from './external-party-signing';
import { parsePublicKey } from './keys';
import { verifyHashSignature } from './signatures';

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

const HASH = new Uint8Array(Buffer.from(`1220${'0f'.repeat(32)}`, 'hex'));
/** The refusal's message; fails the test when the outcome was a signature. */
function refusal(outcome: SignatureOutcome): string {
  if (outcome.ok) throw new Error('expected a refusal, got a signature');
  return outcome.message;
}

const fileOf = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return { size: bytes.length, bytes: () => Promise.resolve(bytes) };
};

describe('external party signing', () => {
  it('names key files after the hint, safely', () => {
    expect(keyFileName('wallet')).toBe('wallet.ed25519.pem');
    expect(keyFileName('Alice Ops: desk')).toBe('Alice-Ops-desk.ed25519.pem');
    expect(keyFileName('::')).toBe('party.ed25519.pem');
  });

  it('accepts a pasted signature of the hash by the key, in hex or base64', async () => {
    const key = ed25519();
    const publicKey = await parsePublicKey(key.publicPem);
    const signature = sign(null, HASH, key.privateKey);
    for (const text of [signature.toString('hex'), signature.toString('base64')]) {
      const outcome = await checkPastedSignature(text, { publicKey, hash: HASH });
      expect(outcome).toEqual({
        ok: true,
        signature: {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature: signature.toString('base64'),
          signedBy: publicKey.fingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      });
    }
  });

  it('refuses a malformed signature, one over other bytes and one by another key', async () => {
    const key = ed25519();
    const publicKey = await parsePublicKey(key.publicPem);
    expect(refusal(await checkPastedSignature('abcd', { publicKey, hash: HASH }))).toMatch(
      /64 bytes; this has 2/,
    );
    const otherBytes = sign(null, Buffer.from('other'), key.privateKey).toString('hex');
    expect(await checkPastedSignature(otherBytes, { publicKey, hash: HASH })).toEqual({
      ok: false,
      message: SIGNATURE_DOES_NOT_VERIFY,
    });
    const otherKey = sign(null, HASH, ed25519().privateKey).toString('hex');
    expect(await checkPastedSignature(otherKey, { publicKey, hash: HASH })).toEqual({
      ok: false,
      message: SIGNATURE_DOES_NOT_VERIFY,
    });
  });

  it('signs with the party key file, and refuses another key, a non-key and a huge file', async () => {
    const key = ed25519();
    const publicKey = await parsePublicKey(key.publicPem);
    const outcome = await signWithKeyFile(fileOf(key.privatePem), { publicKey, hash: HASH });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(await verifyHashSignature(publicKey, HASH, outcome.signature)).toBe(true);

    expect(
      refusal(await signWithKeyFile(fileOf(ed25519().privatePem), { publicKey, hash: HASH })),
    ).toMatch(/^This is not the party's key/);
    expect(refusal(await signWithKeyFile(fileOf('hello'), { publicKey, hash: HASH }))).toMatch(
      /holds no private key/,
    );
    expect(
      await signWithKeyFile(
        { size: 1024 * 1024, bytes: () => Promise.reject(new Error('must not be read')) },
        { publicKey, hash: HASH },
      ),
    ).toEqual({ ok: false, message: 'This file is too large to be a key file.' });
  });

  it('tells what a generate-topology refusal is about', () => {
    expect(topologyRefusalSubject('Unknown or not connected synchronizer x')).toBe('synchronizer');
    expect(topologyRefusalSubject('party_hint: must not be empty')).toBe('partyHint');
    expect(topologyRefusalSubject('Field `public_key` is not set')).toBe('publicKey');
    expect(topologyRefusalSubject('Something else')).toBeUndefined();
  });
});

import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readSigningKey, type WireSignature } from '../ledger/external/keys';
import type { TestSandbox } from './test-client';

/** An external party as its owner holds it: the party id and the private key it signs with. */
export type ExternalParty = { party: string; fingerprint: string; privateKey: KeyObject };

/**
 * Onboards an external party with a fresh Ed25519 key: hosted here, its key registered with
 * threshold 1, and announced as a topology update like an allocation. The one place tests set up
 * external parties until `/v2/parties/external/generate-topology` and `allocate` exist; then this
 * becomes those two calls.
 */
export function onboardExternalParty(t: TestSandbox, hint: string): ExternalParty {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // The raw key is the last 32 bytes of its SubjectPublicKeyInfo.
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const key = readSigningKey({
    format: 'CRYPTO_KEY_FORMAT_RAW',
    keyData: raw.toString('base64'),
    keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
  });
  const party = `${hint}::${key.fingerprint}`;
  const { state } = t;
  const update = state.transaction(() => {
    state.parties.save({
      party,
      isLocal: true,
      identityProviderId: '',
      resourceVersion: 0,
      annotations: {},
    });
    state.parties.host(party, state.synchronizerId);
    state.parties.setSigningKeys(party, [key], 1);
    return state.ledger.recordPartyAllocation(party);
  });
  state.ledger.announce(update);
  return { party, fingerprint: key.fingerprint, privateKey };
}

/** The party's Ed25519 signature of a prepared transaction hash (base64), as the wire carries it. */
export function signHash(signer: ExternalParty, hashBase64: string): WireSignature {
  return {
    format: 'SIGNATURE_FORMAT_CONCAT',
    signature: sign(null, Buffer.from(hashBase64, 'base64'), signer.privateKey).toString('base64'),
    signedBy: signer.fingerprint,
    signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
  };
}

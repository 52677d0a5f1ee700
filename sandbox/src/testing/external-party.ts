import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { WireSignature } from '../ledger/external/keys';
import { onboardExternalParty as onboardThroughApi } from '../scenarios/external-party';
import { createLedgerClient } from '../scenarios/ledger-client';
import type { TestSandbox } from './test-client';

/** An external party as its owner holds it: the party id and the private key it signs with. */
export type ExternalParty = { party: string; fingerprint: string; privateKey: KeyObject };

/**
 * Onboards an external party with a fresh Ed25519 key through the participant's own endpoints
 * (generate-topology, the key's signature of the multi-hash, allocate), as a wallet does. The one
 * place the interactive submission tests set up external parties.
 */
export async function onboardExternalParty(
  t: TestSandbox,
  hint: string,
  { token }: { token?: string } = {},
): Promise<ExternalParty> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const client = createLedgerClient({
    transport: (request) => t.sandbox.fetch(request),
    ...(token === undefined ? {} : { token }),
  });
  const { partyId, fingerprint } = await onboardThroughApi(client, hint, privateKey);
  return { party: partyId, fingerprint, privateKey };
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

import { createPrivateKey } from 'node:crypto';
import { generateKeyPair, type PrivateSigningKey } from '@/lib/signing/keys';
import { onboardExternalParty } from '../../sandbox/src/scenarios/external-party';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/** An external party and its key: in memory for signing, and as the PEM file a user would pick. */
export type SeededExternalParty = { party: string; key: PrivateSigningKey; pem: string };

/**
 * Onboards an external party through the participant's own endpoints (generate-topology, the
 * party's signature of the multi-hash, allocate), its Ed25519 key generated with WebCrypto.
 */
export async function seedExternalParty(
  sandbox: Sandbox,
  hint: string,
): Promise<SeededExternalParty> {
  const { key, privateKeyPem } = await generateKeyPair();
  const onboarded = await onboardExternalParty(
    sandboxSteps(sandbox).client,
    hint,
    createPrivateKey(privateKeyPem),
  );
  return { party: onboarded.partyId, key, pem: privateKeyPem };
}

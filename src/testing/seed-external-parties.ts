import { createPrivateKey } from 'node:crypto';
import { generateKeyPair, type PrivateSigningKey } from '@/lib/signing/keys';
import {
  onboardExternalParty,
  type ExternalPartyOptions,
} from '../../sandbox/src/scenarios/external-party';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/** An external party and its key: in memory for signing, and as the PEM file a user would pick. */
export type SeededExternalParty = { party: string; key: PrivateSigningKey; pem: string };

/** Where and how the party is hosted: a synchronizer, other hosting participants, a threshold. */
export type ExternalHosting = Pick<
  ExternalPartyOptions,
  | 'synchronizerId'
  | 'otherConfirmingParticipantUids'
  | 'observingParticipantUids'
  | 'confirmationThreshold'
>;

/**
 * Onboards an external party through the participant's own endpoints (generate-topology, the
 * party's signature of the multi-hash, allocate), its Ed25519 key generated with WebCrypto.
 */
export async function seedExternalParty(
  sandbox: Sandbox,
  hint: string,
  hosting: ExternalHosting = {},
): Promise<SeededExternalParty> {
  const { key, privateKeyPem } = await generateKeyPair();
  const party = await hostExternalParty(sandbox, hint, privateKeyPem, hosting);
  return { party, key, pem: privateKeyPem };
}

/**
 * The external party of `hint` and this key, onboarded (again) through the participant's own
 * endpoints: on another synchronizer, the same party hosted there too. Answers its id.
 */
export async function hostExternalParty(
  sandbox: Sandbox,
  hint: string,
  privateKeyPem: string,
  hosting: ExternalHosting = {},
): Promise<string> {
  const onboarded = await onboardExternalParty(
    sandboxSteps(sandbox).client,
    hint,
    createPrivateKey(privateKeyPem),
    hosting,
  );
  return onboarded.partyId;
}

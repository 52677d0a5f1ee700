import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { LedgerClient } from './ledger-client';

/**
 * The scenario step that onboards an external party through the participant's own endpoints,
 * as a wallet does: generate-topology with the party's public key, the party's signature of the
 * multi-hash, allocate. Node only (it signs with a `KeyObject`), hence apart from ledger-steps.
 */

export type ExternalParty = {
  partyId: string;
  /** The key's fingerprint: the party's namespace, and `signedBy` of its signatures. */
  fingerprint: string;
  synchronizerId: string;
};

export type ExternalPartyOptions = {
  /** Default: the first synchronizer the participant reports. */
  synchronizerId?: string;
  /** A user that gets CanActAs for the party. */
  userId?: string;
  identityProviderId?: string;
  /** A token for these requests (an admin's, in jwt mode). */
  token?: string;
  /** Other participants confirming for the party (multi-hosting); none by default. */
  otherConfirmingParticipantUids?: string[];
  /** Participants observing the party; none by default. */
  observingParticipantUids?: string[];
  /** Of the confirming participants; 0 (the default) means all of them. */
  confirmationThreshold?: number;
};

type GeneratedTopology = {
  partyId: string;
  publicKeyFingerprint: string;
  topologyTransactions: string[];
  multiHash: string;
};

/**
 * An external party `<hint>::<fingerprint of privateKey's public key>`, hosted here with
 * CONFIRMATION. `privateKey` is an Ed25519 private key (node:crypto); a refusal throws the
 * participant's answer.
 */
export async function onboardExternalParty(
  client: LedgerClient,
  hint: string,
  privateKey: KeyObject,
  {
    synchronizerId,
    userId = '',
    identityProviderId = '',
    token,
    otherConfirmingParticipantUids = [],
    observingParticipantUids = [],
    confirmationThreshold = 0,
  }: ExternalPartyOptions = {},
): Promise<ExternalParty> {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error('onboardExternalParty needs an Ed25519 private key');
  }
  const synchronizer =
    synchronizerId ??
    (
      await client.request<{ connectedSynchronizers: { synchronizerId: string }[] }>(
        'GET',
        '/v2/state/connected-synchronizers',
        { token },
      )
    ).connectedSynchronizers[0]?.synchronizerId;
  if (synchronizer === undefined) throw new Error('The participant reports no synchronizer');
  // The raw 32 bytes, as the wallet SDK sends them: the JWK's `x`.
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  const topology = await client.request<GeneratedTopology>(
    'POST',
    '/v2/parties/external/generate-topology',
    {
      body: {
        synchronizer,
        partyHint: hint,
        publicKey: {
          format: 'CRYPTO_KEY_FORMAT_RAW',
          keyData: Buffer.from(x ?? '', 'base64url').toString('base64'),
          keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
        },
        otherConfirmingParticipantUids,
        observingParticipantUids,
        confirmationThreshold,
      },
      token,
    },
  );
  const signature = sign(null, Buffer.from(topology.multiHash, 'base64'), privateKey);
  await client.request('POST', '/v2/parties/external/allocate', {
    body: {
      synchronizer,
      onboardingTransactions: topology.topologyTransactions.map((transaction) => ({
        transaction,
      })),
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature: signature.toString('base64'),
          signedBy: topology.publicKeyFingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      ],
      identityProviderId,
      userId,
    },
    token,
  });
  return {
    partyId: topology.partyId,
    fingerprint: topology.publicKeyFingerprint,
    synchronizerId: synchronizer,
  };
}

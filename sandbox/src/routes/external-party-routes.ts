import { Hono } from 'hono';
import { z } from 'zod';
import { effectiveIdp, requireAdminOrIdpAdmin, requireAuthenticated } from '../auth/authorizer';
import { SandboxError, invalidArgument, permissionDenied } from '../errors/sandbox-error';
import { bool, list, message, readJsonBody, str } from '../http/decode';
import type { SandboxEnv } from '../http/sandbox-env';
import type { WireSignature, WireSigningPublicKey } from '../ledger/external/keys';
import {
  generateExternalPartyTopology,
  validateExternalPartyOnboarding,
  type ExternalPartyContext,
  type GenerateExternalPartyTopologyRequest,
} from '../ledger/external/onboarding';
import { readableUid } from '../ledger/external/topology';
import type { LedgerState } from '../ledger-state';
import type { PartyRecord } from '../store/parties-store';
import { isValidUserId, userIdRegexMessage } from '../validation/identifiers';
import { checkIdentityProviderExists, checkIdentityProviderIdSyntax } from './common-validation';

/**
 * Protobuf `bytes` in JSON: standard base64, padding optional (java.util.Base64's decoder);
 * anything else fails decoding like any malformed body.
 */
const base64 = () =>
  z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.replace(/=+$/, '').length % 4 !== 1,
      { message: 'Illegal base64 character' },
    )
    .default('');

const signingPublicKeySchema = z.object({
  format: z
    .enum([
      'CRYPTO_KEY_FORMAT_UNSPECIFIED',
      'CRYPTO_KEY_FORMAT_DER',
      'CRYPTO_KEY_FORMAT_RAW',
      'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
    ])
    .default('CRYPTO_KEY_FORMAT_UNSPECIFIED'),
  keyData: base64(),
  keySpec: z
    .enum([
      'SIGNING_KEY_SPEC_UNSPECIFIED',
      'SIGNING_KEY_SPEC_EC_CURVE25519',
      'SIGNING_KEY_SPEC_EC_P256',
      'SIGNING_KEY_SPEC_EC_P384',
      'SIGNING_KEY_SPEC_EC_SECP256K1',
    ])
    .default('SIGNING_KEY_SPEC_UNSPECIFIED'),
}) satisfies z.ZodType<WireSigningPublicKey>;

const signatureSchema = z.object({
  format: z
    .enum([
      'SIGNATURE_FORMAT_UNSPECIFIED',
      'SIGNATURE_FORMAT_RAW',
      'SIGNATURE_FORMAT_DER',
      'SIGNATURE_FORMAT_CONCAT',
      'SIGNATURE_FORMAT_SYMBOLIC',
    ])
    .default('SIGNATURE_FORMAT_UNSPECIFIED'),
  signature: base64(),
  signedBy: str(),
  signingAlgorithmSpec: z
    .enum([
      'SIGNING_ALGORITHM_SPEC_UNSPECIFIED',
      'SIGNING_ALGORITHM_SPEC_ED25519',
      'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
      'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384',
    ])
    .default('SIGNING_ALGORITHM_SPEC_UNSPECIFIED'),
}) satisfies z.ZodType<WireSignature>;

const int32 = () => z.number().int().min(-2147483648).max(2147483647).default(0);

const generateRequest = z.object({
  synchronizer: str(),
  partyHint: str(),
  publicKey: message(signingPublicKeySchema),
  localParticipantObservationOnly: bool(),
  otherConfirmingParticipantUids: list(z.string()),
  confirmationThreshold: int32(),
  observingParticipantUids: list(z.string()),
}) satisfies z.ZodType<GenerateExternalPartyTopologyRequest>;

const allocateRequest = z.object({
  synchronizer: str(),
  onboardingTransactions: list(
    z.object({ transaction: base64(), signatures: list(signatureSchema) }),
  ),
  multiHashSignatures: list(signatureSchema),
  identityProviderId: str(),
  // Allocation is immediate here, so waiting or not makes no difference.
  waitForAllocation: z.boolean().nullish(),
  userId: str(),
});

/** `POST /v2/parties/external/generate-topology` and `…/allocate` (Canton 3.5). */
export function externalPartyRoutes(state: LedgerState) {
  const context: ExternalPartyContext = {
    participantId: state.participantId,
    synchronizerIds: state.synchronizerIds,
  };
  return new Hono<SandboxEnv>()
    .post('/generate-topology', async (c) => {
      const body = await readJsonBody(c, generateRequest);
      // Public: any authenticated caller (§4.6).
      requireAuthenticated(c.get('caller'));
      return c.json(generateExternalPartyTopology(context, body));
    })
    .post('/allocate', async (c) => {
      const body = await readJsonBody(c, allocateRequest);
      const caller = c.get('caller');
      const claims = requireAuthenticated(caller);
      // ParticipantAdmin, IdP admin of the request's IdP, or the user the request names.
      const self =
        !claims.admin && !claims.idpAdmin && body.userId !== '' && body.userId === claims.userId;
      const idp = self
        ? effectiveIdp(claims, body.identityProviderId)
        : requireAdminOrIdpAdmin(caller, body.identityProviderId).idp;
      const onboarding = validateExternalPartyOnboarding(
        context,
        {
          synchronizer: body.synchronizer,
          onboardingTransactions: body.onboardingTransactions.map(
            ({ transaction, signatures }) => ({
              transaction: Buffer.from(transaction, 'base64'),
              signatures,
            }),
          ),
          multiHashSignatures: body.multiHashSignatures,
        },
        () => {
          checkIdentityProviderIdSyntax(idp);
          if (body.userId !== '' && !isValidUserId(body.userId)) {
            throw invalidArgument(`Invalid user id: ${userIdRegexMessage(body.userId)}`);
          }
        },
      );
      const { partyId, synchronizerId } = onboarding;
      checkIdentityProviderExists(state, idp);
      const unknownUser = () =>
        new SandboxError(
          'USER_NOT_FOUND',
          `allocating party failed for unknown user "${body.userId}"`,
          { resources: [['USER', body.userId]] },
        );
      if (body.userId !== '' && state.users.get(body.userId)?.identityProviderId !== idp) {
        throw unknownUser();
      }
      // A regular user may allocate for itself only within maxSelfAllocatedParties, default 0.
      if (self) throw permissionDenied('User quota of party allocations exhausted');
      const known = state.parties.get(partyId);
      if (known && known.identityProviderId !== idp) {
        throw permissionDenied(
          `Party ${partyId} belongs to an identity provider that differs from the one specified in the request`,
        );
      }
      const update = state.transaction(() => {
        if (state.hostingSynchronizers(partyId).includes(synchronizerId)) {
          // EXTERNAL_PARTY_ALREADY_EXISTS, whose ALREADY_EXISTS the party service rewrites.
          throw invalidArgument(
            `Party ${readableUid(partyId)} already exists on synchronizer ${readableUid(synchronizerId)}`,
          );
        }
        const grantRights = () => {
          if (body.userId === '') return;
          if (state.users.get(body.userId)?.identityProviderId !== idp) throw unknownUser();
          state.users.addRights(body.userId, [{ kind: 'CanActAs', party: partyId }]);
        };
        if (onboarding.authorization() === 'proposal') {
          // The participant keeps the PartyToParticipant as a proposal until the party signs it
          // and answers at once: nothing is hosted, though the user already gets its right.
          grantRights();
          return undefined;
        }
        const existing = state.parties.get(partyId);
        const record: PartyRecord = existing
          ? { ...existing, resourceVersion: existing.resourceVersion + 1 }
          : {
              party: partyId,
              isLocal: true,
              identityProviderId: idp,
              resourceVersion: 0,
              annotations: {},
            };
        state.parties.save(record);
        state.parties.host(partyId, synchronizerId);
        state.parties.setPermission(partyId, synchronizerId, onboarding.permission);
        state.parties.setSigningKeys(partyId, onboarding.signingKeys, onboarding.signingThreshold);
        const allocated = state.ledger.recordPartyAllocation(
          partyId,
          synchronizerId,
          onboarding.participants.map(({ participantUid, permission }) => ({
            participantId: participantUid,
            permission,
          })),
        );
        grantRights();
        return allocated;
      });
      if (update) state.ledger.announce(update);
      return c.json({ partyId });
    });
}

import { mutationOptions } from '@tanstack/react-query';
import {
  activityMeta,
  NOTHING,
  valueOf,
  registerActivitySpecs,
} from '@/lib/activity/activity-spec';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { api, unwrap } from './client';
import type { TopologyView } from '@/lib/signing/external-party-topology';
import type { PublicSigningKey } from '@/lib/signing/keys';
import { allocationSubjects, partyQueries } from './parties';
import { partyHostingQueries } from './party-hosting';
import type { Schemas } from './schema';
import { sessionQueries } from './session';
import { userQueries } from './users';

export type GenerateExternalPartyTopologyRequest = Schemas['GenerateExternalPartyTopologyRequest'];
export type GeneratedExternalPartyTopology = Schemas['GenerateExternalPartyTopologyResponse'];
export type AllocateExternalPartyRequest = Schemas['AllocateExternalPartyRequest'];
export type {
  TopologyMappingView,
  TopologySigningKeyView,
  TopologyTransactionView,
  TopologyView,
} from '@/lib/signing/external-party-topology';

/** A generated topology with what the browser decoded and recomputed from its bytes. */
export type ReadGeneratedTopology = {
  generated: GeneratedExternalPartyTopology;
  view: TopologyView;
};

// ── requests ───────────────────────────────────────────────────────────────────

/** The wire's public key: what was parsed, without the fingerprint (the participant computes it). */
export function toWirePublicKey(
  key: PublicSigningKey,
): GenerateExternalPartyTopologyRequest['publicKey'] {
  return { format: key.format, keyData: key.keyData, keySpec: key.keySpec };
}

/** POST /v2/parties/external/generate-topology, as the form sends it (Copy as… shows the same). */
export function generateExternalPartyTopologyCall(request: GenerateExternalPartyTopologyRequest) {
  return {
    method: 'POST',
    path: '/v2/parties/external/generate-topology',
    body: request,
  } satisfies LedgerApiRequest;
}

/** The topology transactions and multi-hash an external party signs; changes nothing. */
export async function generateExternalPartyTopology(
  request: GenerateExternalPartyTopologyRequest,
): Promise<GeneratedExternalPartyTopology> {
  return unwrap(
    await api.POST('/v2/parties/external/generate-topology', {
      body: generateExternalPartyTopologyCall(request).body,
    }),
  );
}

/**
 * Decodes `generated`'s transactions in the browser (a lazily loaded chunk with the protobuf
 * bindings) and recomputes its multi-hash, so what is signed is what the user saw.
 */
export async function readGeneratedTopology(
  generated: GeneratedExternalPartyTopology,
): Promise<TopologyView> {
  const { readTopology } = await import('@/lib/signing/external-party-topology');
  return readTopology(generated.topologyTransactions, generated.multiHash);
}

/** Generates the topology, then reads it: what the form's first step does. */
export async function generateAndReadTopology(
  request: GenerateExternalPartyTopologyRequest,
): Promise<ReadGeneratedTopology> {
  const generated = await generateExternalPartyTopology(request);
  return { generated, view: await readGeneratedTopology(generated) };
}

/** POST /v2/parties/external/allocate; carries signatures, never a key. */
export function allocateExternalPartyCall(request: AllocateExternalPartyRequest) {
  return {
    method: 'POST',
    path: '/v2/parties/external/allocate',
    body: request,
  } satisfies LedgerApiRequest;
}

export async function allocateExternalParty(
  request: AllocateExternalPartyRequest,
): Promise<{ partyId: string }> {
  return unwrap(
    await api.POST('/v2/parties/external/allocate', {
      body: allocateExternalPartyCall(request).body,
    }),
  );
}

// ── cache ──────────────────────────────────────────────────────────────────────

const allocateActivity = activityMeta<AllocateExternalPartyRequest, { partyId: string }>({
  action: 'party.allocate',
  call: () => ({ method: 'POST', path: '/v2/parties/external/allocate' }),
  subjects: (request, allocated) => allocationSubjects(allocated?.partyId, request),
  before: () => NOTHING,
  // The party and where it went; the signatures are not worth keeping and the key never passes.
  after: (request, allocated) =>
    valueOf({
      party: allocated.partyId,
      external: true,
      synchronizerId: request.synchronizer,
      identityProviderId: request.identityProviderId ?? '',
    }),
});

export const externalPartyMutations = {
  /** Changes nothing on the participant, so it invalidates nothing. */
  generateTopology: () =>
    mutationOptions({
      mutationKey: [...partyQueries.all(), 'external', 'generate-topology'],
      mutationFn: generateAndReadTopology,
    }),
  allocate: () =>
    mutationOptions({
      mutationKey: [...partyQueries.all(), 'external', 'allocate'],
      mutationFn: allocateExternalParty,
      // Lists and pickers show the new party; `userId` may have granted CanActAs.
      meta: {
        invalidates: [
          partyQueries.all(),
          partyHostingQueries.all(),
          userQueries.all(),
          sessionQueries.all(),
        ],
        activity: allocateActivity,
      },
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(externalPartyMutations);

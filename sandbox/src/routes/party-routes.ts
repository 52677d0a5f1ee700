import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  effectiveIdp,
  requireAdminOrIdpAdmin,
  requireAuthenticated,
  requirePartyAccess,
} from '../auth/authorizer';
import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import {
  fieldMaskSchema,
  bool,
  message,
  objectMetaSchema,
  queryInt32,
  readJsonBody,
  str,
} from '../http/decode';
import type { SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import type { PartyRecord } from '../store/parties-store';
import { mergeAnnotations } from '../validation/annotations';
import { MAX_PARTY_HINT_LENGTH } from '@ledger-console/participant/identifiers';
import { isValidUserId, partyProblem, userIdRegexMessage } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import {
  checkAnnotations,
  checkIdentityProviderExists,
  checkIdentityProviderIdSyntax,
  checkResourceVersion,
  mergeAnnotationsWithinLimit,
  nextPageToken,
  pageTokenAfter,
  parseResourceVersion,
} from './common-validation';
import { maskSets, updateMaskProblem } from './update-mask';

/** maxPartiesPageSize: the default page and, unlike users, a hard limit (§5.2). */
export const MAX_PARTIES_PAGE_SIZE = 10000;

const allocateRequest = z.object({
  partyIdHint: str(),
  localMetadata: message(objectMetaSchema),
  identityProviderId: str(),
  synchronizerId: str(),
  userId: str(),
});

const partyDetailsSchema = z.object({
  party: str(),
  isLocal: bool(),
  localMetadata: message(objectMetaSchema),
  identityProviderId: str(),
});
const updateRequest = z.object({
  partyDetails: message(partyDetailsSchema),
  updateMask: message(fieldMaskSchema),
});

const UPDATE_PATHS = [
  'party',
  'is_local',
  'identity_provider_id',
  'local_metadata',
  'local_metadata.annotations',
  'local_metadata.resource_version',
] as const;

/**
 * Party details as a caller of IdP `viewerIdp` sees them: parties hosted elsewhere or in another
 * IdP are blinded to isLocal=false, no IdP and no metadata (blindAndConvertToProto, §4.7).
 */
export function toWireParty(party: PartyRecord, viewerIdp: string): Schemas['PartyDetails'] {
  if (party.isLocal && party.identityProviderId === viewerIdp) {
    return {
      party: party.party,
      isLocal: true,
      localMetadata: {
        resourceVersion: String(party.resourceVersion),
        annotations: party.annotations,
      },
      identityProviderId: party.identityProviderId,
    };
  }
  return {
    party: party.party,
    isLocal: false,
    localMetadata: { resourceVersion: '', annotations: {} },
    identityProviderId: '',
  };
}

/** `<identifier>::<namespace>`, the shape SynchronizerId.fromString accepts. */
const isUniqueIdentifier = (id: string) => /^[^:]+::[^:]+$/.test(id);

/**
 * The synchronizer a party is allocated on, as CantonSyncService.allocateParty picks it: the one
 * asked for if connected, else the only one connected.
 */
function allocationSynchronizer(state: LedgerState, requested: string, partyId: string) {
  if (requested !== '') {
    if (!state.synchronizerIds.includes(requested)) {
      throw new SandboxError(
        'NOT_CONNECTED_TO_SYNCHRONIZER',
        `This participant is not connected to synchronizer ${requested}.`,
      );
    }
    return requested;
  }
  if (state.synchronizerIds.length > 1) {
    throw new SandboxError(
      'PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER',
      `Cannot determine the synchronizer on which to allocate party ${partyId}, because the participant is connected to multiple synchronizers and no synchronizer was specified.`,
    );
  }
  return state.synchronizerId;
}

function checkParty(party: string) {
  const problem = partyProblem(party);
  if (problem) throw invalidArgument(problem);
}

export function partyRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .get('/', (c) => {
      const pageSize = queryInt32(c, 'pageSize');
      const pageToken = c.req.query('pageToken') ?? '';
      const prefix = c.req.query('filter-party') ?? '';
      const { idp } = requireAdminOrIdpAdmin(
        c.get('caller'),
        c.req.query('identity-provider-id') ?? '',
      );
      if (pageSize !== undefined && pageSize < 0)
        throw invalidArgument('Page size must be non-negative');
      if (pageSize !== undefined && pageSize > MAX_PARTIES_PAGE_SIZE) {
        throw invalidArgument(
          `Page size must not exceed the server's maximum of ${MAX_PARTIES_PAGE_SIZE}`,
        );
      }
      const after = pageTokenAfter(pageToken, (party) => !partyProblem(party));
      // Absent or 0 means the server maximum (§5.2).
      const limit = pageSize === undefined || pageSize === 0 ? MAX_PARTIES_PAGE_SIZE : pageSize;
      const parties = state.parties.page(prefix, after, limit);
      return c.json({
        partyDetails: parties.map((party) => toWireParty(party, idp)),
        nextPageToken: nextPageToken(parties, limit, (party) => party.party),
      });
    })
    .post('/', async (c) => {
      const body = await readJsonBody(c, allocateRequest);
      const caller = c.get('caller');
      const claims = requireAuthenticated(caller);
      if (
        !claims.admin &&
        !claims.idpAdmin &&
        body.userId !== '' &&
        body.userId === claims.userId
      ) {
        // A regular user may allocate for itself only within maxSelfAllocatedParties, default 0.
        throw permissionDenied('User quota of party allocations exhausted');
      }
      const { idp } = requireAdminOrIdpAdmin(caller, body.identityProviderId);
      const hint = body.partyIdHint;
      if (hint !== '') {
        checkParty(hint);
        if (hint.includes('::') || hint.length > MAX_PARTY_HINT_LENGTH) {
          throw invalidArgument(
            `Invalid party ID: ${hint.includes('::') ? `the hint "${hint}" must not contain "::"` : `the hint "${hint}" is longer than ${MAX_PARTY_HINT_LENGTH} characters`}`,
          );
        }
      }
      if (body.localMetadata && body.localMetadata.resourceVersion !== '') {
        throw invalidArgument('field local_metadata.resource_version must be not set');
      }
      const annotations = body.localMetadata?.annotations ?? {};
      checkAnnotations(annotations, 'local_metadata.annotations', false);
      checkIdentityProviderIdSyntax(idp);
      if (body.synchronizerId !== '' && !isUniqueIdentifier(body.synchronizerId)) {
        throw invalidField(
          'synchronizer_id',
          `Invalid unique identifier \`${body.synchronizerId}\`: expected <identifier>::<namespace>`,
        );
      }
      if (body.userId !== '' && !isValidUserId(body.userId)) {
        throw invalidArgument(`Invalid user id: ${userIdRegexMessage(body.userId)}`);
      }
      const partyId = `${hint || `party-${randomUUID()}`}::${state.namespace}`;
      checkIdentityProviderExists(state, idp);
      const unknownUser = () =>
        new SandboxError(
          'USER_NOT_FOUND',
          `allocating party failed for unknown user "${body.userId}"`,
          {
            resources: [['USER', body.userId]],
          },
        );
      // The user is looked up before the sync service picks the synchronizer (§5.1).
      if (body.userId !== '' && state.users.get(body.userId)?.identityProviderId !== idp) {
        throw unknownUser();
      }
      const synchronizerId = allocationSynchronizer(state, body.synchronizerId, partyId);
      const { record: allocated, update } = state.transaction(() => {
        const existing = state.parties.get(partyId);
        if (existing && state.hostingSynchronizers(partyId).includes(synchronizerId)) {
          // The topology's ALREADY_EXISTS is rewritten to INVALID_ARGUMENT (§5.1).
          throw invalidArgument(
            `Party already exists: party ${partyId} is already allocated on this node`,
          );
        }
        if (existing && existing.identityProviderId !== idp) {
          throw permissionDenied(
            `Party ${partyId} belongs to an identity provider that differs from the one specified in the request`,
          );
        }
        // A party hosted on another synchronizer becomes hosted on this one too; its record
        // takes the new annotations like an update (updateOrCreatePartyRecord).
        const record: PartyRecord = existing
          ? {
              ...existing,
              resourceVersion: existing.resourceVersion + 1,
              annotations: mergeAnnotations(existing.annotations, annotations),
            }
          : {
              party: partyId,
              isLocal: true,
              identityProviderId: idp,
              resourceVersion: 0,
              annotations,
            };
        if (existing) {
          // Keep the party's earlier hosting explicit before adding this synchronizer.
          for (const id of state.hostingSynchronizers(partyId)) state.parties.host(partyId, id);
        }
        state.parties.save(record);
        state.parties.host(partyId, synchronizerId);
        const update = state.ledger.recordPartyAllocation(partyId, synchronizerId);
        if (body.userId !== '') {
          if (state.users.get(body.userId)?.identityProviderId !== idp) throw unknownUser();
          state.users.addRights(body.userId, [{ kind: 'CanActAs', party: partyId }]);
        }
        return { record, update };
      });
      state.ledger.announce(update);
      return c.json({ partyDetails: toWireParty(allocated, idp) });
    })
    .get('/participant-id', (c) => {
      requireAuthenticated(c.get('caller'));
      return c.json({ participantId: state.participantId });
    })
    .get('/:party', (c) => {
      const parties = [c.req.param('party'), ...(c.req.queries('parties') ?? [])];
      parties.forEach(checkParty);
      const claims = requireAuthenticated(c.get('caller'));
      const requestIdp = c.req.query('identity-provider-id') ?? '';
      let idp: string;
      if (claims.admin || claims.idpAdmin) {
        idp = requireAdminOrIdpAdmin(claims, requestIdp).idp;
      } else {
        idp = effectiveIdp(claims, requestIdp);
        requirePartyAccess(claims, parties);
      }
      // Unknown parties are silently left out (§5.3).
      const known = [...new Set(parties)]
        .map((party) => state.parties.get(party))
        .filter((party) => party !== undefined);
      return c.json({ partyDetails: known.map((party) => toWireParty(party, idp)) });
    })
    .patch('/:party', async (c) => {
      const pathParty = c.req.param('party');
      const { partyDetails: details, updateMask } = await readJsonBody(c, updateRequest);
      if (details?.party !== pathParty) {
        const rendered = details ? `Some(${details.party})` : 'None';
        throw invalidArgument(`${pathParty} does not match party in body: ${rendered}`, {
          origin: 'json',
        });
      }
      const { idp } = requireAdminOrIdpAdmin(c.get('caller'), details.identityProviderId);
      if (!updateMask) throw missingField('update_mask');
      if (details.party === '') throw missingField('party');
      checkParty(details.party);
      const annotations = details.localMetadata?.annotations ?? {};
      checkAnnotations(annotations, 'party_details.local_metadata.annotations', true);
      const expectedVersion = parseResourceVersion(
        details.localMetadata?.resourceVersion ?? '',
        'party_details.local_metadata.resource_version',
      );
      const failure = (reason: string) =>
        new SandboxError(
          'INVALID_PARTY_DETAILS_UPDATE_REQUEST',
          `Update operation for party '${details.party}' failed due to: ${reason}`,
          { resources: [['PARTY', details.party]] },
        );
      const maskProblem = updateMaskProblem(updateMask.paths, UPDATE_PATHS);
      if (maskProblem) throw failure(maskProblem);
      const paths = updateMask.paths;
      const updated = state.transaction(() => {
        const current = state.parties.get(details.party);
        if (!current?.isLocal) {
          throw new SandboxError('PARTY_NOT_FOUND', `Party not found: ${details.party}`, {
            resources: [['PARTY', details.party]],
          });
        }
        if (current.identityProviderId !== idp) {
          throw permissionDenied(`Party ${details.party} belongs to another Identity Provider`);
        }
        if (paths.includes('is_local') && details.isLocal !== current.isLocal) {
          throw failure("Update request attempted to modify not-modifiable 'is_local' attribute");
        }
        checkResourceVersion(
          expectedVersion,
          current.resourceVersion,
          'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED',
          ['PARTY', details.party],
        );
        const next: PartyRecord = { ...current, resourceVersion: current.resourceVersion + 1 };
        if (maskSets(paths, 'local_metadata.annotations', Object.keys(annotations).length === 0)) {
          next.annotations = mergeAnnotationsWithinLimit(
            current.annotations,
            annotations,
            'MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED',
            ['PARTY', details.party],
          );
        }
        state.parties.save(next);
        return next;
      });
      return c.json({ partyDetails: toWireParty(updated, idp) });
    });
}

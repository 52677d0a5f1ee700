import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  activityMeta,
  cachedBefore,
  NOTHING,
  valueOf,
  type ActivitySubject,
  registerActivitySpecs,
} from '@/lib/activity/activity-spec';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { COUNT_STALE_MS, readBounded, type BoundedCount } from './bounded-count';
import { api, unwrap, type ApiClient } from './client';
import type { Schemas } from './schema';
import { sessionQueries } from './session';
import { userQueries } from './users';

export type PartyDetails = Schemas['PartyDetails'];
export type AllocatePartyRequest = Schemas['AllocatePartyRequest'];

export type PartyPageParams = {
  pageSize: number;
  pageToken: string;
  /** `''` is the default IdP; for a participant admin that means all parties. */
  identityProviderId: string;
  /** Prefix match on the full party id. */
  filterParty?: string;
};

/**
 * A party as seen through one IdP (`''` = the default IdP). The participant shows a party's local
 * details (isLocal, IdP, annotations) only to requests of the IdP it belongs to (§4.7, §5.3).
 */
export type PartyRef = { party: string; identityProviderId: string };

// A picker offers at most this many parties; the list endpoint's own cap is far higher.
const PICKER_PAGE_SIZE = 1000;

// ── requests ───────────────────────────────────────────────────────────────────

export async function listParties(
  { pageSize, pageToken, identityProviderId, filterParty }: PartyPageParams,
  signal?: AbortSignal,
  client: ApiClient = api,
) {
  return unwrap(
    await client.GET('/v2/parties', {
      params: {
        query: {
          pageSize,
          ...(pageToken ? { pageToken } : {}),
          ...(identityProviderId ? { 'identity-provider-id': identityProviderId } : {}),
          ...(filterParty ? { 'filter-party': filterParty } : {}),
        },
      },
      ...(signal ? { signal } : {}),
    }),
  );
}

/**
 * The details of each known party among `parties`, in the order asked. The participant leaves
 * unknown parties out of its answer instead of failing (§5.3), so a missing entry means "not
 * known to this participant".
 */
export async function getParties(
  parties: readonly [string, ...string[]],
  identityProviderId: string,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<PartyDetails[]> {
  const [first, ...rest] = parties;
  const { partyDetails } = unwrap(
    await client.GET('/v2/parties/{party}', {
      params: {
        path: { party: first },
        query: {
          ...(identityProviderId ? { 'identity-provider-id': identityProviderId } : {}),
          ...(rest.length > 0 ? { parties: rest } : {}),
        },
      },
      ...(signal ? { signal } : {}),
    }),
  );
  return partyDetails;
}

/** How many parties a count reads at most; beyond it, the count says "1000+". */
export const PARTY_COUNT_LIMIT = 1000;

/** The parties the caller may list, and how many of them are local to its view. */
export type PartyCount = BoundedCount & {
  /** Hosted here and in the caller's IdP (`isLocal`, §5.2), among the parties counted. */
  hostedHere: number;
};

/**
 * The parties of the caller's view (`''` is the caller's own IdP for an IdP admin, §4.5),
 * counted without reading them all: at most two requests.
 */
export async function countParties(signal?: AbortSignal): Promise<PartyCount> {
  const { items, isComplete } = await readBounded(async (pageSize, pageToken) => {
    const { partyDetails, nextPageToken } = await listParties(
      { pageSize, pageToken, identityProviderId: '' },
      signal,
    );
    return { items: partyDetails, nextPageToken };
  }, PARTY_COUNT_LIMIT);
  return {
    count: items.length,
    isComplete,
    hostedHere: items.filter((details) => details.isLocal).length,
  };
}

/** One party's details, or null when the participant does not know the party. */
export async function getParty(
  { party, identityProviderId }: PartyRef,
  signal?: AbortSignal,
): Promise<PartyDetails | null> {
  const details = await getParties([party], identityProviderId, signal);
  return details.find((found) => found.party === party) ?? null;
}

/** POST /v2/parties, as the allocate form sends it (Copy as… shows the same). */
export function allocatePartyCall(request: AllocatePartyRequest) {
  return { method: 'POST', path: '/v2/parties', body: request } satisfies LedgerApiRequest;
}

export async function allocateParty(request: AllocatePartyRequest): Promise<PartyDetails> {
  const { partyDetails } = unwrap(
    await api.POST('/v2/parties', { body: allocatePartyCall(request).body }),
  );
  return partyDetails;
}

export type PartyAnnotationsUpdate = {
  /** The party as loaded: its IdP addresses the request, its resourceVersion guards it. */
  loaded: PartyDetails;
  /** A merge patch: new and changed keys with their values, keys to remove with `""`. */
  annotations: Record<string, string>;
};

/**
 * Updates a party's annotations, the only modifiable field of its details. The participant merges
 * `local_metadata.annotations` into the stored map and removes keys sent with `""` (§5.4, as for
 * users §2.5); the loaded resourceVersion makes it refuse the update with
 * CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED if the party changed since.
 */
export async function updatePartyAnnotations(
  update: PartyAnnotationsUpdate,
): Promise<PartyDetails> {
  const { partyDetails } = unwrap(
    await api.PATCH('/v2/parties/{party}', {
      params: { path: { party: update.loaded.party } },
      body: updatePartyAnnotationsCall(update).body,
    }),
  );
  return partyDetails;
}

/** PATCH /v2/parties/{party} with only the annotations in its update mask. */
export function updatePartyAnnotationsCall({ loaded, annotations }: PartyAnnotationsUpdate) {
  return {
    method: 'PATCH',
    path: `/v2/parties/${encodeURIComponent(loaded.party)}`,
    body: {
      partyDetails: {
        party: loaded.party,
        isLocal: loaded.isLocal ?? false,
        identityProviderId: loaded.identityProviderId ?? '',
        localMetadata: {
          resourceVersion: loaded.localMetadata?.resourceVersion ?? '',
          annotations,
        },
      },
      updateMask: { paths: ['local_metadata.annotations'], unknownFields: { fields: {} } },
    },
  } satisfies LedgerApiRequest;
}

/**
 * The IdP a party hosted here belongs to, when that is not the default IdP; undefined when no IdP
 * claims it (the party is then hosted elsewhere, or in the default IdP). Participant admins only:
 * it asks for the party through each IdP (at most 16, §3.2), because a request of any other IdP
 * sees the party blinded to non-local.
 */
export async function findPartyIdentityProvider(
  party: string,
  signal?: AbortSignal,
): Promise<string | null> {
  // The identity providers' module loads here, not with every page that counts or lists parties.
  const { listIdentityProviders } = await import('./identity-providers');
  const identityProviders = await listIdentityProviders();
  const views = await Promise.all(
    identityProviders.map(({ identityProviderId }) =>
      getParty({ party, identityProviderId }, signal),
    ),
  );
  return views.find((details) => details?.isLocal === true)?.identityProviderId ?? null;
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const partyQueries = {
  all: () => ['parties'] as const,
  lists: () => [...partyQueries.all(), 'list'] as const,
  list: (page: PartyPageParams) =>
    queryOptions({
      queryKey: [...partyQueries.lists(), page],
      queryFn: ({ signal }) => listParties(page, signal),
    }),
  /** What a party picker offers: the first page of parties, optionally of one IdP. */
  options: (identityProviderId: string) =>
    queryOptions({
      queryKey: [...partyQueries.lists(), 'options', identityProviderId],
      queryFn: async ({ signal }) => {
        const { partyDetails, nextPageToken } = await listParties(
          { pageSize: PICKER_PAGE_SIZE, pageToken: '', identityProviderId },
          signal,
        );
        return { parties: partyDetails, isComplete: !nextPageToken };
      },
    }),
  /**
   * Not under `lists()`: the list page takes a cached list as a sign it was shown before (and then
   * waits for its page); fresh for a few seconds only, so each visit to the overview counts anew.
   */
  count: () =>
    queryOptions({
      queryKey: [...partyQueries.all(), 'count'],
      staleTime: COUNT_STALE_MS,
      queryFn: ({ signal }) => countParties(signal),
    }),
  details: () => [...partyQueries.all(), 'detail'] as const,
  /** A party as its IdP's requests see it; null when the participant does not know it. */
  detail: ({ party, identityProviderId }: PartyRef) =>
    queryOptions({
      queryKey: [...partyQueries.details(), identityProviderId, party],
      queryFn: ({ signal }) => getParty({ party, identityProviderId }, signal),
    }),
  /** Which non-default IdP a party belongs to; see {@link findPartyIdentityProvider}. */
  identityProvider: (party: string) =>
    queryOptions({
      queryKey: [...partyQueries.details(), 'identity-provider', party],
      queryFn: ({ signal }) => findPartyIdentityProvider(party, signal),
    }),
};

// ── activity log ─────────────────────────────────────────────────────────────

const partySummary = (details: PartyDetails) => ({
  party: details.party,
  isLocal: details.isLocal,
  identityProviderId: details.identityProviderId ?? '',
  annotations: details.localMetadata?.annotations ?? {},
});

/**
 * Who an allocation concerns in the activity log: the party, and the user it was allocated for,
 * since allocating for a user grants it CanActAs (ledger-api-behaviour.md §5). Local and external.
 */
export function allocationSubjects(
  party: string | undefined,
  request: { userId?: string; identityProviderId?: string },
) {
  return [
    ...(party === undefined ? [] : [{ kind: 'party' as const, party }]),
    ...(request.userId
      ? [
          {
            kind: 'user' as const,
            userId: request.userId,
            identityProviderId: request.identityProviderId ?? '',
          },
        ]
      : []),
  ];
}

const allocateActivity = activityMeta<AllocatePartyRequest, PartyDetails>({
  action: 'party.allocate',
  call: () => ({ method: 'POST', path: '/v2/parties' }),
  subjects: (request, allocated) => allocationSubjects(allocated?.party, request),
  before: () => NOTHING,
  after: (request, allocated) =>
    valueOf({
      ...partySummary(allocated),
      partyIdHint: request.partyIdHint,
      userId: request.userId,
    }),
});

const updateAnnotationsActivity = activityMeta<PartyAnnotationsUpdate, PartyDetails>({
  action: 'party.update',
  call: ({ loaded }) => ({
    method: 'PATCH',
    path: `/v2/parties/${encodeURIComponent(loaded.party)}`,
  }),
  subjects: ({ loaded }): ActivitySubject[] => [{ kind: 'party', party: loaded.party }],
  // The party as the form loaded it: what the change was made against.
  before: ({ loaded }, read) => {
    const cached = cachedBefore(
      read,
      partyQueries.detail({
        party: loaded.party,
        identityProviderId: loaded.identityProviderId ?? '',
      }).queryKey,
    );
    return cached.kind === 'value'
      ? valueOf(partySummary(cached.value as PartyDetails))
      : valueOf(partySummary(loaded));
  },
  after: ({ annotations }, updated) => valueOf({ ...partySummary(updated), patch: annotations }),
});

export const partyMutations = {
  allocate: () =>
    mutationOptions({
      mutationKey: [...partyQueries.all(), 'allocate'],
      mutationFn: allocateParty,
      // Every picker reads partyQueries; `userId` may have granted CanActAs, possibly to the caller.
      meta: {
        invalidates: [partyQueries.all(), userQueries.all(), sessionQueries.all()],
        activity: allocateActivity,
      },
    }),
  updateAnnotations: () =>
    mutationOptions({
      mutationKey: [...partyQueries.all(), 'update-annotations'],
      mutationFn: updatePartyAnnotations,
      meta: { invalidates: [partyQueries.all()], activity: updateAnnotationsActivity },
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(partyMutations);

import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  isPartyRightKind,
  RIGHT_KINDS,
  rightKey,
  type PartyRightKind,
  type RightKind,
  type UserRight,
} from '@/lib/access/access-rights';
import {
  activityMeta,
  NOT_LOADED,
  NOTHING,
  valueOf,
  type ActivitySubject,
  type ActivityValue,
  type CacheReader,
  registerActivitySpecs,
} from '@/lib/activity/activity-spec';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { COUNT_STALE_MS, readBounded, type BoundedCount } from './bounded-count';
import { api, unwrap, type ApiClient } from './client';
import type { Schemas, WireRight } from './schema';

export type User = Schemas['User'];
export type Right = WireRight;
export type CreateUserRequest = Omit<Schemas['CreateUserRequest'], 'rights'> & { rights?: Right[] };

/** The package's request types know only 3.5.1's right kinds (see WireRight). */
type PackageRights = Schemas['Right'][];
export type UpdateUserRequest = Schemas['UpdateUserRequest'];

/** The API's page size cap for users (ledger-api-behaviour.md §2.6); larger sizes are capped. */
export const MAX_USERS_PAGE_SIZE = 1000;

export type UserPageParams = { pageSize: number; pageToken: string };

/** A user is addressed by id within its IdP; `''` is the default IdP. */
export type UserRef = { userId: string; identityProviderId: string };

export type RightsChange = UserRef & { rights: Right[] };

export type IdentityProviderMove = {
  userId: string;
  sourceIdentityProviderId: string;
  targetIdentityProviderId: string;
};

// ── requests: one per endpoint, no caching, no UI ──────────────────────────────

/**
 * One page of users, ordered by id. The JSON API has no IdP parameter here: a participant admin
 * sees the default IdP's users, an IdP admin its own IdP's users (ledger-api-behaviour.md §2.6).
 */
export async function listUsers({ pageSize, pageToken }: UserPageParams, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/v2/users', {
      params: { query: { pageSize, ...(pageToken ? { pageToken } : {}) } },
      ...(signal ? { signal } : {}),
    }),
  );
}

/** How many users a count reads at most; beyond it, the count says "1000+". */
export const USER_COUNT_LIMIT = 1000;

/**
 * The users of the caller's view (the default IdP's for a participant admin, its own IdP's for an
 * IdP admin, §2.6), counted without reading them all: at most two requests.
 */
export async function countUsers(signal?: AbortSignal): Promise<BoundedCount> {
  const { items, isComplete } = await readBounded(async (pageSize, pageToken) => {
    const { users, nextPageToken } = await listUsers({ pageSize, pageToken }, signal);
    return { items: users ?? [], nextPageToken };
  }, USER_COUNT_LIMIT);
  return { count: items.length, isComplete };
}

export async function getUser(
  { userId, identityProviderId }: UserRef,
  client: ApiClient = api,
): Promise<User> {
  const { user } = unwrap(
    await client.GET('/v2/users/{user-id}', {
      params: {
        path: { 'user-id': userId },
        query: identityProviderId ? { 'identity-provider-id': identityProviderId } : {},
      },
    }),
  );
  return user;
}

export async function getAuthenticatedUser(client: ApiClient = api): Promise<User> {
  const { user } = unwrap(await client.GET('/v2/authenticated-user'));
  return user;
}

// ── the exact request of each change: Copy as… shows what the mutation sends ──────

const userUrl = (userId: string) => `/v2/users/${encodeURIComponent(userId)}`;

/** POST /v2/users: the user and its rights in one request. */
export function createUserCall(request: CreateUserRequest) {
  return {
    method: 'POST',
    path: '/v2/users',
    body: { ...request, rights: request.rights as PackageRights | undefined },
  } satisfies LedgerApiRequest;
}

/** PATCH /v2/users/{id}: the fields its update mask names. */
export function updateUserCall(request: UpdateUserRequest) {
  return {
    method: 'PATCH',
    path: userUrl(request.user.id),
    body: request,
  } satisfies LedgerApiRequest;
}

/**
 * Deactivates or reactivates a user: writes only is_deactivated. No version check: whatever
 * changed meanwhile, the admin still wants the person out (or back in); an empty
 * resourceVersion skips the check (§2.5).
 */
export function activationRequest(user: User, isDeactivated: boolean): UpdateUserRequest {
  return {
    user: {
      id: user.id,
      primaryParty: user.primaryParty ?? '',
      isDeactivated,
      identityProviderId: user.identityProviderId ?? '',
      metadata: { resourceVersion: '', annotations: {} },
    },
    updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } },
  };
}

/** DELETE /v2/users/{id}: the JSON API sends no IdP here (ledger-api-behaviour.md §2.1). */
export function deleteUserCall({ userId }: UserRef) {
  return { method: 'DELETE', path: userUrl(userId) } satisfies LedgerApiRequest;
}

/** POST (grant) or PATCH (revoke) /v2/users/{id}/rights; the body repeats the id (§2.1). */
export function rightsChangeCall(action: 'grant' | 'revoke', change: RightsChange) {
  return {
    method: action === 'grant' ? 'POST' : 'PATCH',
    path: `${userUrl(change.userId)}/rights`,
    body: {
      userId: change.userId,
      identityProviderId: change.identityProviderId,
      rights: change.rights as PackageRights,
    },
  } satisfies LedgerApiRequest;
}

/** PATCH /v2/users/{id}/identity-provider-id (participant admins only). */
export function moveUserCall(move: IdentityProviderMove) {
  return {
    method: 'PATCH',
    path: `${userUrl(move.userId)}/identity-provider-id`,
    body: {
      userId: move.userId,
      sourceIdentityProviderId: move.sourceIdentityProviderId,
      targetIdentityProviderId: move.targetIdentityProviderId,
    },
  } satisfies LedgerApiRequest;
}

export async function createUser(request: CreateUserRequest): Promise<User> {
  const { user } = unwrap(await api.POST('/v2/users', { body: createUserCall(request).body }));
  return user;
}

export async function updateUser(request: UpdateUserRequest): Promise<User> {
  const { user } = unwrap(
    await api.PATCH('/v2/users/{user-id}', {
      params: { path: { 'user-id': request.user.id } },
      body: updateUserCall(request).body,
    }),
  );
  return user;
}

export async function deleteUser({ userId }: UserRef): Promise<void> {
  unwrap(await api.DELETE('/v2/users/{user-id}', { params: { path: { 'user-id': userId } } }));
}

export async function listUserRights(
  { userId }: UserRef,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<Right[]> {
  const { rights } = unwrap(
    await client.GET('/v2/users/{user-id}/rights', {
      params: { path: { 'user-id': userId } },
      ...(signal ? { signal } : {}),
    }),
  );
  return rights ?? [];
}

/** Grants rights; the answer holds only those the user did not have before. */
export async function grantUserRights(change: RightsChange): Promise<Right[]> {
  const { newlyGrantedRights } = unwrap(
    await api.POST('/v2/users/{user-id}/rights', {
      params: { path: { 'user-id': change.userId } },
      body: rightsChangeCall('grant', change).body,
    }),
  );
  return newlyGrantedRights ?? [];
}

/** Revokes rights; the answer holds only those the user really had. */
export async function revokeUserRights(change: RightsChange): Promise<Right[]> {
  const { newlyRevokedRights } = unwrap(
    await api.PATCH('/v2/users/{user-id}/rights', {
      params: { path: { 'user-id': change.userId } },
      body: rightsChangeCall('revoke', change).body,
    }),
  );
  return newlyRevokedRights ?? [];
}

export async function moveUserToIdentityProvider(move: IdentityProviderMove): Promise<void> {
  unwrap(
    await api.PATCH('/v2/users/{user-id}/identity-provider-id', {
      params: { path: { 'user-id': move.userId } },
      body: moveUserCall(move).body,
    }),
  );
}

// ── cache: keys and query functions defined together ───────────────────────────

export const userQueries = {
  all: () => ['users'] as const,
  lists: () => [...userQueries.all(), 'list'] as const,
  list: (page: UserPageParams) =>
    queryOptions({
      queryKey: [...userQueries.lists(), page],
      queryFn: ({ signal }) => listUsers(page, signal),
    }),
  /**
   * Not under `lists()`: the list page takes a cached list as a sign it was shown before (and then
   * waits for its page); fresh for a few seconds only, so each visit to the overview counts anew.
   */
  count: () =>
    queryOptions({
      queryKey: [...userQueries.all(), 'count'],
      staleTime: COUNT_STALE_MS,
      queryFn: ({ signal }) => countUsers(signal),
    }),
  details: () => [...userQueries.all(), 'detail'] as const,
  detail: ({ userId, identityProviderId }: UserRef) =>
    queryOptions({
      queryKey: [...userQueries.details(), identityProviderId, userId],
      queryFn: () => getUser({ userId, identityProviderId }),
    }),
  rights: ({ userId, identityProviderId }: UserRef) =>
    queryOptions({
      queryKey: [...userQueries.details(), identityProviderId, userId, 'rights'],
      queryFn: ({ signal }) => listUserRights({ userId, identityProviderId }, signal),
    }),
};

// ── activity log: how each change is recorded ──────────────────────────────────

const userPath = (userId: string) => `/v2/users/${encodeURIComponent(userId)}`;

/** Rights as short, stable strings ("CanActAs:alice::1220…"); unknown kinds by their name. */
function rightLabels(rights: readonly Right[] | undefined): string[] {
  return (rights ?? []).map((right) => {
    const known = toUserRight(right);
    return known ? rightKey(known) : (Object.keys(right.kind ?? {})[0] ?? 'unknown');
  });
}

function rightParties(rights: readonly Right[] | undefined): ActivitySubject[] {
  return toUserRights(rights ?? []).flatMap((right) =>
    'party' in right ? [{ kind: 'party' as const, party: right.party }] : [],
  );
}

const userSubject = ({ userId, identityProviderId }: UserRef): ActivitySubject => ({
  kind: 'user',
  userId,
  identityProviderId,
});

const userSummary = (user: User) => ({
  id: user.id,
  identityProviderId: user.identityProviderId ?? '',
  primaryParty: user.primaryParty ?? '',
  isDeactivated: user.isDeactivated,
  annotations: user.metadata?.annotations ?? {},
});

function cachedRights(read: CacheReader, ref: UserRef): ActivityValue {
  const rights = read(userQueries.rights(ref).queryKey) as Right[] | undefined;
  return rights === undefined ? NOT_LOADED : valueOf({ rights: rightLabels(rights) });
}

function cachedUser(read: CacheReader, ref: UserRef): ActivityValue {
  const user = read(userQueries.detail(ref).queryKey) as User | undefined;
  return user === undefined ? NOT_LOADED : valueOf(userSummary(user));
}

function rightsChange(action: 'user.rights.grant' | 'user.rights.revoke') {
  return activityMeta<RightsChange, Right[]>({
    action,
    call: ({ userId }) => ({
      method: action === 'user.rights.grant' ? 'POST' : 'PATCH',
      path: `${userPath(userId)}/rights`,
    }),
    subjects: (change) => [userSubject(change), ...rightParties(change.rights)],
    before: (change, read) => cachedRights(read, change),
    after: (change, changed) =>
      valueOf({
        requested: rightLabels(change.rights),
        [action === 'user.rights.grant' ? 'newlyGranted' : 'newlyRevoked']: rightLabels(changed),
      }),
  });
}

const userActivity = {
  create: activityMeta<CreateUserRequest, User>({
    action: 'user.create',
    call: () => ({ method: 'POST', path: '/v2/users' }),
    subjects: ({ user, rights }) => [
      userSubject({ userId: user.id, identityProviderId: user.identityProviderId ?? '' }),
      ...(user.primaryParty ? [{ kind: 'party' as const, party: user.primaryParty }] : []),
      ...rightParties(rights),
    ],
    before: () => NOTHING,
    after: ({ rights }, created) =>
      valueOf({ user: userSummary(created), rights: rightLabels(rights) }),
  }),
  update: activityMeta<UpdateUserRequest, User>({
    action: 'user.update',
    call: ({ user }) => ({ method: 'PATCH', path: userPath(user.id) }),
    subjects: ({ user }, updated) => [
      userSubject({ userId: user.id, identityProviderId: user.identityProviderId ?? '' }),
      ...(user.primaryParty ? [{ kind: 'party' as const, party: user.primaryParty }] : []),
      ...(updated?.primaryParty ? [{ kind: 'party' as const, party: updated.primaryParty }] : []),
    ],
    before: ({ user }, read) =>
      cachedUser(read, { userId: user.id, identityProviderId: user.identityProviderId ?? '' }),
    after: ({ updateMask }, updated) =>
      valueOf({ ...userSummary(updated), updated: updateMask.paths }),
  }),
  delete: activityMeta<UserRef, undefined>({
    action: 'user.delete',
    call: ({ userId }) => ({ method: 'DELETE', path: userPath(userId) }),
    subjects: (ref) => [userSubject(ref)],
    before: (ref, read) => cachedUser(read, ref),
    after: () => NOTHING,
  }),
  grantRights: rightsChange('user.rights.grant'),
  revokeRights: rightsChange('user.rights.revoke'),
  moveToIdentityProvider: activityMeta<IdentityProviderMove, undefined>({
    action: 'user.idp.move',
    call: ({ userId }) => ({ method: 'PATCH', path: `${userPath(userId)}/identity-provider-id` }),
    subjects: ({ userId, sourceIdentityProviderId, targetIdentityProviderId }) => [
      userSubject({ userId, identityProviderId: sourceIdentityProviderId }),
      userSubject({ userId, identityProviderId: targetIdentityProviderId }),
    ],
    before: ({ sourceIdentityProviderId }) =>
      valueOf({ identityProviderId: sourceIdentityProviderId }),
    after: ({ targetIdentityProviderId }) =>
      valueOf({ identityProviderId: targetIdentityProviderId }),
  }),
};

export const userMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'create'],
      mutationFn: createUser,
      meta: { invalidates: [userQueries.all()], activity: userActivity.create },
    }),
  update: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'update'],
      mutationFn: updateUser,
      meta: { invalidates: [userQueries.all()], activity: userActivity.update },
    }),
  // The deleted user's detail would only refetch into a 404; refresh the lists.
  delete: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'delete'],
      mutationFn: deleteUser,
      meta: { invalidates: [userQueries.lists()], activity: userActivity.delete },
    }),
  grantRights: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'grant-rights'],
      mutationFn: grantUserRights,
      meta: { invalidates: [userQueries.all()], activity: userActivity.grantRights },
    }),
  revokeRights: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'revoke-rights'],
      mutationFn: revokeUserRights,
      meta: { invalidates: [userQueries.all()], activity: userActivity.revokeRights },
    }),
  moveToIdentityProvider: () =>
    mutationOptions({
      mutationKey: [...userQueries.all(), 'move-to-identity-provider'],
      mutationFn: moveUserToIdentityProvider,
      // The old (IdP, id) address now answers 403; refresh the lists only.
      meta: { invalidates: [userQueries.lists()], activity: userActivity.moveToIdentityProvider },
    }),
};

// ── wire ↔ console shapes ──────────────────────────────────────────────────────

/** A wire right in the console's flat shape; undefined for kinds the console does not know. */
export function toUserRight(right: Right): UserRight | undefined {
  const kind = right.kind;
  if (!kind) return undefined;
  if ('CanActAs' in kind) return { kind: 'CanActAs', party: kind.CanActAs.value.party };
  if ('CanReadAs' in kind) return { kind: 'CanReadAs', party: kind.CanReadAs.value.party };
  if ('CanExecuteAs' in kind) return { kind: 'CanExecuteAs', party: kind.CanExecuteAs.value.party };
  const name = Object.keys(kind)[0];
  return RIGHT_KINDS.find(
    (known): known is Exclude<RightKind, PartyRightKind> =>
      known === name && !isPartyRightKind(known),
  )
    ? { kind: name as Exclude<RightKind, PartyRightKind> }
    : undefined;
}

export function toUserRights(rights: readonly Right[]): UserRight[] {
  return rights.map(toUserRight).filter((right): right is UserRight => right !== undefined);
}

export function toWireRight(right: UserRight): Right {
  switch (right.kind) {
    case 'CanActAs':
      return { kind: { CanActAs: { value: { party: right.party } } } };
    case 'CanReadAs':
      return { kind: { CanReadAs: { value: { party: right.party } } } };
    case 'CanExecuteAs':
      return { kind: { CanExecuteAs: { value: { party: right.party } } } };
    case 'CanActAsAnyParty':
      return { kind: { CanActAsAnyParty: { value: {} } } };
    case 'CanReadAsAnyParty':
      return { kind: { CanReadAsAnyParty: { value: {} } } };
    case 'CanExecuteAsAnyParty':
      return { kind: { CanExecuteAsAnyParty: { value: {} } } };
    case 'ParticipantAdmin':
      return { kind: { ParticipantAdmin: { value: {} } } };
    case 'IdentityProviderAdmin':
      return { kind: { IdentityProviderAdmin: { value: {} } } };
  }
}

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(userMutations);

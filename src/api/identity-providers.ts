import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  activityMeta,
  NOT_LOADED,
  NOTHING,
  valueOf,
  type CacheReader,
  registerActivitySpecs,
} from '@/lib/activity/activity-spec';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { api, unwrap } from './client';
import type { Schemas } from './schema';

export type IdentityProviderConfig = Schemas['IdentityProviderConfig'];
export type UpdateIdentityProviderConfigRequest = Schemas['UpdateIdentityProviderConfigRequest'];

/** The hard limit of IdP configs per participant (ledger-api-behaviour.md §3.2). */
export const MAX_IDENTITY_PROVIDERS = 16;

// ── requests ───────────────────────────────────────────────────────────────────

const idpPath = (id: string) => `/v2/idps/${encodeURIComponent(id)}`;

/**
 * The exact requests the mutations below send, as "Copy as…" copies them: one builder per call,
 * so the copied path and body cannot drift from what Submit sends.
 */
export function createIdentityProviderRequest(
  identityProviderConfig: IdentityProviderConfig,
): LedgerApiRequest & { body: { identityProviderConfig: IdentityProviderConfig } } {
  return { method: 'POST', path: '/v2/idps', body: { identityProviderConfig } };
}

export function updateIdentityProviderRequest(
  request: UpdateIdentityProviderConfigRequest,
): LedgerApiRequest & { body: UpdateIdentityProviderConfigRequest } {
  return {
    method: 'PATCH',
    path: idpPath(request.identityProviderConfig.identityProviderId),
    body: request,
  };
}

export function deleteIdentityProviderRequest(identityProviderId: string): LedgerApiRequest {
  return { method: 'DELETE', path: idpPath(identityProviderId) };
}

/** Every IdP config, ordered by id; the default IdP (`''`) is never listed. */
export async function listIdentityProviders(): Promise<IdentityProviderConfig[]> {
  return unwrap(await api.GET('/v2/idps')).identityProviderConfigs;
}

export async function getIdentityProvider(
  identityProviderId: string,
): Promise<IdentityProviderConfig> {
  const { identityProviderConfig } = unwrap(
    await api.GET('/v2/idps/{idp-id}', { params: { path: { 'idp-id': identityProviderId } } }),
  );
  return identityProviderConfig;
}

// openapi-fetch encodes the path parameter as idpPath does (encodeURIComponent); the builders'
// paths are pinned against what the sandbox receives in identity-providers.test.ts.
export async function createIdentityProvider(
  identityProviderConfig: IdentityProviderConfig,
): Promise<IdentityProviderConfig> {
  const { body } = createIdentityProviderRequest(identityProviderConfig);
  const created = unwrap(await api.POST('/v2/idps', { body }));
  return created.identityProviderConfig;
}

export async function updateIdentityProvider(
  request: UpdateIdentityProviderConfigRequest,
): Promise<IdentityProviderConfig> {
  const { body } = updateIdentityProviderRequest(request);
  const id = body.identityProviderConfig.identityProviderId;
  const updated = unwrap(
    await api.PATCH('/v2/idps/{idp-id}', { params: { path: { 'idp-id': id } }, body }),
  );
  return updated.identityProviderConfig;
}

export async function deleteIdentityProvider(identityProviderId: string): Promise<void> {
  unwrap(
    await api.DELETE('/v2/idps/{idp-id}', { params: { path: { 'idp-id': identityProviderId } } }),
  );
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const identityProviderQueries = {
  all: () => ['identity-providers'] as const,
  list: () =>
    queryOptions({
      queryKey: [...identityProviderQueries.all(), 'list'],
      queryFn: listIdentityProviders,
    }),
  detail: (identityProviderId: string) =>
    queryOptions({
      queryKey: [...identityProviderQueries.all(), 'detail', identityProviderId],
      queryFn: () => getIdentityProvider(identityProviderId),
    }),
};

// ── activity log ─────────────────────────────────────────────────────────────

/** The config as the console last loaded it (its page, or the list). */
function cachedConfig(read: CacheReader, id: string) {
  const detail = read(identityProviderQueries.detail(id).queryKey) as
    IdentityProviderConfig | undefined;
  const listed = (
    read(identityProviderQueries.list().queryKey) as IdentityProviderConfig[] | undefined
  )?.find((config) => config.identityProviderId === id);
  const found = detail ?? listed;
  return found === undefined ? NOT_LOADED : valueOf(found);
}

const identityProviderActivity = {
  create: activityMeta<IdentityProviderConfig, IdentityProviderConfig>({
    action: 'idp.create',
    call: () => ({ method: 'POST', path: '/v2/idps' }),
    subjects: ({ identityProviderId }) => [{ kind: 'identity-provider', identityProviderId }],
    before: () => NOTHING,
    after: (_config, created) => valueOf(created),
  }),
  update: activityMeta<UpdateIdentityProviderConfigRequest, IdentityProviderConfig>({
    action: 'idp.update',
    call: ({ identityProviderConfig }) => ({
      method: 'PATCH',
      path: idpPath(identityProviderConfig.identityProviderId),
    }),
    subjects: ({ identityProviderConfig: { identityProviderId } }) => [
      { kind: 'identity-provider', identityProviderId },
    ],
    before: ({ identityProviderConfig }, read) =>
      cachedConfig(read, identityProviderConfig.identityProviderId),
    after: ({ updateMask }, updated) => valueOf({ ...updated, updated: updateMask.paths }),
  }),
  delete: activityMeta<string, undefined>({
    action: 'idp.delete',
    call: (identityProviderId) => ({ method: 'DELETE', path: idpPath(identityProviderId) }),
    subjects: (identityProviderId) => [{ kind: 'identity-provider', identityProviderId }],
    before: (identityProviderId, read) => cachedConfig(read, identityProviderId),
    after: () => NOTHING,
  }),
};

export const identityProviderMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...identityProviderQueries.all(), 'create'],
      mutationFn: createIdentityProvider,
      meta: {
        invalidates: [identityProviderQueries.all()],
        activity: identityProviderActivity.create,
      },
    }),
  update: () =>
    mutationOptions({
      mutationKey: [...identityProviderQueries.all(), 'update'],
      mutationFn: updateIdentityProvider,
      meta: {
        invalidates: [identityProviderQueries.all()],
        activity: identityProviderActivity.update,
      },
    }),
  delete: () =>
    mutationOptions({
      mutationKey: [...identityProviderQueries.all(), 'delete'],
      mutationFn: deleteIdentityProvider,
      meta: {
        invalidates: [identityProviderQueries.all()],
        activity: identityProviderActivity.delete,
      },
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(identityProviderMutations);

import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { Schemas } from './schema';

export type IdentityProviderConfig = Schemas['IdentityProviderConfig'];
export type UpdateIdentityProviderConfigRequest = Schemas['UpdateIdentityProviderConfigRequest'];

/** The hard limit of IdP configs per participant (ledger-api-behaviour.md §3.2). */
export const MAX_IDENTITY_PROVIDERS = 16;

// ── requests ───────────────────────────────────────────────────────────────────

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

export async function createIdentityProvider(
  identityProviderConfig: IdentityProviderConfig,
): Promise<IdentityProviderConfig> {
  const created = unwrap(await api.POST('/v2/idps', { body: { identityProviderConfig } }));
  return created.identityProviderConfig;
}

export async function updateIdentityProvider(
  request: UpdateIdentityProviderConfigRequest,
): Promise<IdentityProviderConfig> {
  const id = request.identityProviderConfig.identityProviderId;
  const updated = unwrap(
    await api.PATCH('/v2/idps/{idp-id}', { params: { path: { 'idp-id': id } }, body: request }),
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

export const identityProviderMutations = {
  create: () =>
    mutationOptions({
      mutationFn: createIdentityProvider,
      meta: { invalidates: [identityProviderQueries.all()] },
    }),
  update: () =>
    mutationOptions({
      mutationFn: updateIdentityProvider,
      meta: { invalidates: [identityProviderQueries.all()] },
    }),
  delete: () =>
    mutationOptions({
      mutationFn: deleteIdentityProvider,
      meta: { invalidates: [identityProviderQueries.all()] },
    }),
};

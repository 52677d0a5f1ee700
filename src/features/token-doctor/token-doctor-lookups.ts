import { queryOptions } from '@tanstack/react-query';
import { describeError, isApiError } from '@/lib/errors/api-error';
import type { IdentityProviderInfo, Lookup, UserRecord } from './diagnosis/doctor-context';
import type { UserRight } from '@/lib/access/access-rights';
import { listIdentityProviders } from '@/api/identity-providers';
import { getUser, listUserRights, toUserRights, type UserRef } from '@/api/users';

/**
 * The token doctor's lookups, made with the console's current sign-in (never the pasted token).
 * A refusal is a finding, not a failure: 401 means nobody usable is signed in, 403 that the
 * current sign-in may not look, 404 that there is nothing; only other errors are `failed`.
 */
async function lookup<T>(read: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { status: 'found', value: await read() };
  } catch (error) {
    if (isApiError(error)) {
      if (error.status === 401) return { status: 'signed-out' };
      if (error.status === 403) return { status: 'forbidden' };
      if (error.status === 404) return { status: 'not-found' };
    }
    return { status: 'failed', message: describeError(error).message };
  }
}

export function lookUpUser(ref: UserRef): Promise<Lookup<UserRecord>> {
  return lookup(async () => {
    const user = await getUser(ref);
    return {
      id: user.id,
      isDeactivated: user.isDeactivated === true,
      identityProviderId: user.identityProviderId ?? '',
    };
  });
}

export function lookUpUserRights(ref: UserRef): Promise<Lookup<readonly UserRight[]>> {
  return lookup(async () => toUserRights(await listUserRights(ref)));
}

export function lookUpIdentityProviders(): Promise<Lookup<readonly IdentityProviderInfo[]>> {
  return lookup(async () =>
    (await listIdentityProviders()).map((config) => ({
      identityProviderId: config.identityProviderId,
      issuer: config.issuer,
      isDeactivated: config.isDeactivated === true,
      audience: config.audience ?? '',
    })),
  );
}

// ── cache ──────────────────────────────────────────────────────────────────────

// Keyed by what is looked up, never by the token; short-lived, since the point is the state now.
export const tokenDoctorQueries = {
  all: () => ['token-doctor'] as const,
  user: (ref: UserRef) =>
    queryOptions({
      queryKey: [...tokenDoctorQueries.all(), 'user', ref],
      queryFn: () => lookUpUser(ref),
      staleTime: 0,
    }),
  rights: (ref: UserRef) =>
    queryOptions({
      queryKey: [...tokenDoctorQueries.all(), 'rights', ref],
      queryFn: () => lookUpUserRights(ref),
      staleTime: 0,
    }),
  identityProviders: () =>
    queryOptions({
      queryKey: [...tokenDoctorQueries.all(), 'identity-providers'],
      queryFn: lookUpIdentityProviders,
      staleTime: 0,
    }),
};

import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { env } from '@/env';
import { ApiError, networkError, toApiError } from '@/lib/errors/api-error';
import type { Caller } from '@/lib/access/access-rights';
import { api, type ApiClient } from './client';
import { getSandboxInfo } from './sandbox-info';
import { getAuthenticatedUser, listUserRights, toUserRights } from './users';
import { isRecord } from '@/lib/values/is-record';

export type MintedToken = { token: string; userId: string; identityProviderId: string };

/** A user the sandbox can mint a token for, with the kinds of rights it holds. */
export type SandboxUser = {
  id: string;
  identityProviderId: string;
  isDeactivated: boolean;
  rightKinds: string[];
};

// ── requests ───────────────────────────────────────────────────────────────────

/**
 * Who the participant takes the caller for: the token's user and its rights, or `unidentified`
 * when the participant answers that there is no user (no auth configured, or a privileged token;
 * ledger-api-behaviour.md §2.9). 401 and 403 are thrown like any other failure.
 */
export async function getCaller(client: ApiClient = api): Promise<Caller> {
  let user;
  try {
    user = await getAuthenticatedUser(client);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && error.code === 'INVALID_TOKEN') {
      return { kind: 'unidentified' };
    }
    throw error;
  }
  const identityProviderId = user.identityProviderId ?? '';
  let rights;
  try {
    rights = await listUserRights({ userId: user.id, identityProviderId }, undefined, client);
  } catch (error) {
    // The JSON API asks for rights in the default IdP only, and does not fill in the caller's own
    // IdP for a participant admin (ledger-api-behaviour.md §4.5): such a user of another IdP gets
    // 403 on its own rights. It is signed in all the same; the participant judges each request.
    if (error instanceof ApiError && error.status === 403 && identityProviderId !== '') {
      return { kind: 'unidentified' };
    }
    throw error;
  }
  return { kind: 'user', userId: user.id, identityProviderId, rights: toUserRights(rights) };
}

/** Sandbox only: every user of every IdP, to pick whom to sign in as (no token needed). */
export async function listSandboxUsers(): Promise<SandboxUser[]> {
  const response = await sandboxControl('/__sandbox/users');
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response.status, body);
  if (!isRecord(body) || !Array.isArray(body.users)) return [];
  return body.users.filter(isRecord).map((user) => ({
    id: typeof user.id === 'string' ? user.id : '',
    identityProviderId: typeof user.identityProviderId === 'string' ? user.identityProviderId : '',
    isDeactivated: user.isDeactivated === true,
    rightKinds: Array.isArray(user.rightKinds) ? user.rightKinds.map(String) : [],
  }));
}

/** Sandbox only: a token for any of its users, so every role can be tried. */
export async function mintSandboxToken(userId: string): Promise<MintedToken> {
  const response = await sandboxControl('/__sandbox/tokens', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response.status, body);
  if (!isRecord(body) || typeof body.token !== 'string') {
    throw toApiError(response.status, 'The sandbox answered without a token');
  }
  return {
    token: body.token,
    userId: typeof body.userId === 'string' ? body.userId : userId,
    identityProviderId: typeof body.identityProviderId === 'string' ? body.identityProviderId : '',
  };
}

// The controls are not part of the Ledger API, so they are not in the typed client's paths.
async function sandboxControl(path: string, init?: RequestInit): Promise<Response> {
  try {
    return await globalThis.fetch(`${env.API_BASE_URL}${path}`, init);
  } catch (error) {
    throw networkError(error);
  }
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const sessionQueries = {
  all: () => ['session'] as const,
  caller: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'caller'],
      queryFn: () => getCaller(),
      // Rights change rarely and every change made here invalidates it; 401 must not retry.
      staleTime: 60_000,
      retry: false,
    }),
  /** Sandbox only: whom the sign-in screen can mint a token for. */
  sandboxUsers: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'sandbox-users'],
      queryFn: listSandboxUsers,
    }),
  sandboxInfo: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'sandbox-info'],
      queryFn: getSandboxInfo,
      staleTime: Infinity,
    }),
};

export const sessionMutations = {
  mintSandboxToken: () => mutationOptions({ mutationFn: mintSandboxToken }),
};

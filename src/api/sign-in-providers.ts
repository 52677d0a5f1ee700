import {
  SIGN_IN_PROVIDERS_PATH,
  type ServedSignInProvider,
} from '@ledger-console/edge/console-api';
import { queryOptions } from '@tanstack/react-query';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/errors/api-error';
import { isRecord } from '@/lib/values/is-record';
import { isWebUrl } from '@/lib/text/is-web-url';
import { personNameOf } from '@/lib/access/signed-in-identity';
import { readAccessToken } from './access-token';

/**
 * One OpenID Connect provider the console offers, as the console server serves it
 * (`GET /__console/sign-in-providers`, server/src/sign-in-providers.ts). `oidc` holds
 * oidc-client-ts settings as they are; the redirect URIs are the page's own.
 */
export type SignInProviderConfig = ServedSignInProvider;

// The server checked these at start-up, but the page still meets them as untrusted JSON: a proxy
// in between, or a different server, must not reach oidc-client-ts with surprises. Checked by
// hand: this module is in the first chunk, which has no room for a schema library.
function toProvider(value: unknown): SignInProviderConfig | undefined {
  if (!isRecord(value) || !isRecord(value.oidc)) return undefined;
  const { id, name, identityProviderId, oidc } = value;
  const { authority, client_id: clientId, scope, extraQueryParams } = oidc;
  if (!isText(id, 1, 64) || !isText(name, 1, 200) || !isText(identityProviderId, 0, 255)) {
    return undefined;
  }
  if (!isText(authority, 1, 2048) || !isWebUrl(authority)) return undefined;
  if (!isText(clientId, 1, 255) || !isText(scope, 0, 2048) || !isRecord(extraQueryParams)) {
    return undefined;
  }
  const params = Object.entries(extraQueryParams);
  if (!params.every(([key, param]) => key.length <= 255 && isText(param, 0, 2048))) {
    return undefined;
  }
  return {
    id,
    name,
    identityProviderId,
    oidc: {
      authority,
      client_id: clientId,
      scope,
      extraQueryParams: Object.fromEntries(params) as Record<string, string>,
    },
  };
}

function isText(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/**
 * The configured providers. Empty when the page is not served by the console server (the Vite dev
 * server answers 404): sign-in then offers the pasted token only.
 */
export async function listSignInProviders(): Promise<SignInProviderConfig[]> {
  let response: Response;
  try {
    response = await globalThis.fetch(`${env.API_BASE_URL}${SIGN_IN_PROVIDERS_PATH}`, {
      headers: { Accept: 'application/json' },
    });
  } catch (error) {
    throw networkError(error);
  }
  if (response.status === 404) return [];
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response.status, body);
  const list = isRecord(body) && Array.isArray(body.providers) ? body.providers : undefined;
  const providers = list?.slice(0, 32).map(toProvider);
  if (!providers?.every((provider) => provider !== undefined)) {
    throw toApiError(response.status, 'The console server sent an unreadable provider list');
  }
  return providers;
}

export const signInProviderQueries = {
  all: () => ['sign-in-providers'] as const,
  list: () =>
    queryOptions({
      queryKey: signInProviderQueries.all(),
      queryFn: listSignInProviders,
      // Fixed for the server's lifetime.
      staleTime: Infinity,
      retry: 1,
    }),
  /**
   * The provider's discovery document, checked (oidc-session.ts). Per provider, so one that is
   * unreachable is reported on its own and the others still work.
   */
  discovery: (provider: SignInProviderConfig) =>
    queryOptions({
      queryKey: [...signInProviderQueries.all(), 'discovery', provider],
      queryFn: async () => (await import('./oidc-session')).discover(provider),
      staleTime: 5 * 60_000,
      retry: false,
    }),
  /** Name and email from the ID token this tab keeps for the provider (never required). */
  profile: (provider: SignInProviderConfig | undefined) =>
    queryOptions({
      queryKey: [...signInProviderQueries.all(), 'profile', provider],
      queryFn: async (): Promise<{ name?: string; email?: string }> => {
        if (!provider) return {};
        const user = await (await import('./oidc-session')).storedUser(provider);
        const { name, email } = user?.profile ?? {};
        return {
          ...(typeof name === 'string' ? { name } : {}),
          ...(typeof email === 'string' ? { email } : {}),
        };
      },
      enabled: provider !== undefined,
      staleTime: Infinity,
    }),
  /**
   * The person's name from the ID token this tab keeps for the provider (`name`, else
   * `preferred_username`, else `email`; bounded, as text), or null: no ID token, or one that came
   * with another access token than the current one (someone else signed in since). Keyed by the
   * access token's subject, so a renewal keeps it and another person's sign-in asks again.
   */
  personName: (provider: SignInProviderConfig | undefined, subject: string | undefined) =>
    queryOptions({
      queryKey: [...signInProviderQueries.all(), 'person-name', provider, subject],
      queryFn: async (): Promise<string | null> => {
        if (!provider) return null;
        const user = await (await import('./oidc-session')).storedUser(provider);
        if (!user || user.access_token !== readAccessToken()) return null;
        return personNameOf(user.profile) ?? null;
      },
      enabled: provider !== undefined,
      staleTime: Infinity,
    }),
};

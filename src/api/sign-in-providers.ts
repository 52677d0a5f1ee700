import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/api-error';

/**
 * One OpenID Connect provider the console offers, as the console server serves it
 * (`GET /__console/sign-in-providers`, server/src/sign-in-providers.ts). `oidc` holds
 * oidc-client-ts settings as they are; the redirect URIs are the page's own.
 */
export type SignInProviderConfig = {
  id: string;
  name: string;
  /** The Canton IdP its users belong to: '' for the participant's default IdP. */
  identityProviderId: string;
  oidc: {
    authority: string;
    client_id: string;
    scope: string;
    extraQueryParams: Record<string, string>;
  };
};

export const SIGN_IN_PROVIDERS_PATH = '/__console/sign-in-providers';

// The server checked these at start-up, but the page still meets them as untrusted JSON: a proxy
// in between, or a different server, must not reach oidc-client-ts with surprises.
const providerSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  identityProviderId: z.string().max(255),
  oidc: z.object({
    authority: z.url({ protocol: /^https?$/ }).max(2048),
    client_id: z.string().min(1).max(255),
    scope: z.string().max(2048),
    extraQueryParams: z.record(z.string().max(255), z.string().max(2048)),
  }),
});
const responseSchema = z.object({ providers: z.array(providerSchema).max(32) });

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
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    throw toApiError(response.status, 'The console server sent an unreadable provider list');
  }
  return parsed.data.providers;
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
};

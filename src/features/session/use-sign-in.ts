import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  isAccessTokenRemembered,
  readAccessToken,
  readSignInProviderId,
  writeAccessToken,
} from '@/api/access-token';
import { getCaller } from '@/api/session';
import { allowTokenlessRequests } from '@/api/tokenless-access';
import { signInProviderQueries } from '@/api/sign-in-providers';

export type SignInRequest = {
  /** Undefined: continue without a token (a participant without authentication). */
  token: string | undefined;
  remember: boolean;
  /** The OpenID provider that issued the token (renewal and sign-out go there). */
  providerId?: string;
};

/**
 * Switches the console to another token and asks the participant who that is. A token the
 * participant refuses (401/403) is not kept: the previous one stays in force, so a typo never signs
 * the user out. Every cached answer belonged to the previous identity, so all queries are reset.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ token, remember, providerId }: SignInRequest) => {
      const previous = {
        token: readAccessToken(),
        remember: isAccessTokenRemembered(),
        providerId: readSignInProviderId(),
      };
      writeAccessToken(token, { remember, ...(providerId === undefined ? {} : { providerId }) });
      // Going on without a token is a sign-in attempt of its own: the participant is asked, even
      // if the console concluded it needs a token (a provider configured for a participant that
      // turns out to run without auth).
      if (token === undefined) allowTokenlessRequests();
      try {
        return await getCaller();
      } catch (error) {
        writeAccessToken(previous.token, {
          remember: previous.remember,
          ...(previous.providerId === undefined ? {} : { providerId: previous.providerId }),
        });
        throw error;
      }
    },
    onSuccess: () => queryClient.resetQueries(),
    meta: { errorDisplay: 'inline' },
  });
}

/**
 * Signs out: forgets the token and everything kept for it, then, for a token from an OpenID
 * provider that offers `end_session_endpoint`, ends the session there too (the page leaves for
 * the provider, which sends the browser back to the sign-in page). Otherwise `onSignedOut` runs.
 */
export function useSignOut(onSignedOut: () => void) {
  const queryClient = useQueryClient();
  return async () => {
    const providerId = readSignInProviderId();
    const providers =
      providerId === undefined
        ? []
        : await queryClient.query(signInProviderQueries.list()).catch(() => []);
    const provider = providers.find((candidate) => candidate.id === providerId);
    writeAccessToken(undefined);
    void queryClient.resetQueries();
    if (provider) {
      const oidc = await import('@/api/oidc-session');
      // A provider that cannot be reached still leaves the console signed out.
      const isLeaving = await oidc.signOutAtProvider(provider).catch(() => false);
      if (isLeaving) return;
    }
    onSignedOut();
  };
}

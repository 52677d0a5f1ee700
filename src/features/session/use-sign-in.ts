import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isAccessTokenRemembered, readAccessToken, writeAccessToken } from '@/api/access-token';
import { getCaller } from '@/api/session';

export type SignInRequest = {
  /** Undefined: continue without a token (a participant without authentication). */
  token: string | undefined;
  remember: boolean;
};

/**
 * Switches the console to another token and asks the participant who that is. A token the
 * participant refuses (401/403) is not kept: the previous one stays in force, so a typo never signs
 * the user out. Every cached answer belonged to the previous identity, so all queries are reset.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ token, remember }: SignInRequest) => {
      const previous = { token: readAccessToken(), remember: isAccessTokenRemembered() };
      writeAccessToken(token, { remember });
      try {
        return await getCaller();
      } catch (error) {
        writeAccessToken(previous.token, { remember: previous.remember });
        throw error;
      }
    },
    onSuccess: () => queryClient.resetQueries(),
    meta: { errorDisplay: 'inline' },
  });
}

/** Forgets the token; the next request goes without one. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return () => {
    writeAccessToken(undefined);
    void queryClient.resetQueries();
  };
}

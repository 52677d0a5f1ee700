import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  readAccessToken,
  readSignInProviderId,
  subscribeAccessToken,
  writeAccessToken,
} from '@/api/access-token';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { describeError } from '@/lib/errors/api-error';

export type RenewalState =
  | { kind: 'idle' }
  /** The token could not be renewed without the person: sign in again (the page stays). */
  | { kind: 'needs-sign-in'; providerName: string; reason: string; hasExpired: boolean };

const IDLE: RenewalState = { kind: 'idle' };

/**
 * Keeps a sign-in through an OpenID provider alive: about a minute before the access token
 * expires it is renewed with the refresh token, in the background; when the provider gave none,
 * or refuses it (expired, revoked), the state says so and the page asks for a sign-in in a
 * dialog, over whatever the person is doing.
 */
export function useOidcRenewal(): RenewalState {
  const providerId = useSyncExternalStore(subscribeAccessToken, readSignInProviderId);
  const token = useSyncExternalStore(subscribeAccessToken, readAccessToken);
  const providers = useQuery({
    ...signInProviderQueries.list(),
    enabled: providerId !== undefined,
    meta: { errorDisplay: 'inline' },
  });
  const provider = providers.data?.find((candidate) => candidate.id === providerId);
  // Kept with the token it is about: a new token (a renewal, another sign-in) starts from idle.
  const [state, setState] = useState<{ token: string | undefined; state: RenewalState }>();

  useEffect(() => {
    if (!provider) return;
    let isCurrent = true;
    let stop: (() => void) | undefined;
    let isRenewing = false;
    // `token`: the token the failure is about. A renewal that fails after the person has signed in
    // again (in the dialog, while it was in flight) concerns the old token and must not bring the
    // prompt back over the new one.
    const needsSignIn = (reason: string, hasExpired: boolean, token = readAccessToken()) => {
      if (!isCurrent) return;
      setState({
        token,
        state: { kind: 'needs-sign-in', providerName: provider.name, reason, hasExpired },
      });
    };
    void import('@/api/oidc-session').then(async (oidc) => {
      const renew = async () => {
        if (isRenewing) return;
        isRenewing = true;
        const renewing = readAccessToken();
        try {
          const user = await oidc.renewWithRefreshToken(provider);
          if (!isCurrent) return;
          writeAccessToken(user.access_token, { providerId: provider.id });
        } catch (error) {
          needsSignIn(describeError(error).message, false, renewing);
        } finally {
          isRenewing = false;
        }
      };
      const watch = await oidc.watchExpiry(provider, {
        onExpiring: () => void renew(),
        onExpired: () => {
          needsSignIn(`Your sign-in with ${provider.name} has expired.`, true);
        },
      });
      if (isCurrent) stop = watch.stop;
      else watch.stop();
    });
    return () => {
      isCurrent = false;
      stop?.();
    };
  }, [provider]);

  return state !== undefined && provider !== undefined && state.token === token
    ? state.state
    : IDLE;
}

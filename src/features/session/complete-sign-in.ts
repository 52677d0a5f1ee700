import type { QueryClient } from '@tanstack/react-query';
import {
  isAccessTokenRemembered,
  readAccessToken,
  readSignInProviderId,
  writeAccessToken,
} from '@/api/access-token';
import { getCaller } from '@/api/session';
import type { SignInProviderConfig } from '@/api/sign-in-providers';
import { DescribedError, isApiError } from '@/lib/errors/api-error';
import { decodeToken } from '@/lib/access/token-claims';

export type SignInOutcome =
  /** The participant knows the user: go back to where the sign-in started. */
  | { kind: 'signed-in'; returnTo: string | undefined; providerName: string }
  /**
   * The provider vouched for the person, the participant has no user for them (403): the token is
   * kept so the page can say who they are and offer the access-request link.
   */
  | { kind: 'not-onboarded'; returnTo: string | undefined; providerName: string };

/** The participant refused the provider's token outright (401): the previous sign-in stays. */
export class TokenRefusedError extends DescribedError {
  override name = 'TokenRefusedError';
  readonly title = 'The participant does not accept this provider’s tokens';
}

// The authorization code works once, and React runs effects twice in development: one exchange
// per callback URL, whoever asks.
const completions = new Map<string, Promise<SignInOutcome>>();

/**
 * Finishes the redirect back from an OpenID provider at `url`: the code for tokens, then who the
 * participant takes the token for. A refusal or a broken answer leaves the previous sign-in (and
 * everything the console kept for it) as it was.
 */
export function completeSignIn(
  providers: readonly SignInProviderConfig[],
  url: string,
  queryClient: QueryClient,
): Promise<SignInOutcome> {
  let completion = completions.get(url);
  if (!completion) {
    completion = run(providers, url, queryClient);
    completions.set(url, completion);
  }
  return completion;
}

async function run(
  providers: readonly SignInProviderConfig[],
  url: string,
  queryClient: QueryClient,
): Promise<SignInOutcome> {
  const oidc = await import('@/api/oidc-session');
  const { provider, user, returnTo } = await oidc.completeRedirectSignIn(providers, url);
  const previous = {
    token: readAccessToken(),
    remember: isAccessTokenRemembered(),
    providerId: readSignInProviderId(),
  };
  writeAccessToken(user.access_token, { providerId: provider.id });
  try {
    await getCaller();
    await queryClient.resetQueries();
    return { kind: 'signed-in', returnTo, providerName: provider.name };
  } catch (error) {
    if (isApiError(error) && error.status === 403) {
      await queryClient.resetQueries();
      return { kind: 'not-onboarded', returnTo, providerName: provider.name };
    }
    writeAccessToken(previous.token, {
      remember: previous.remember,
      ...(previous.providerId === undefined ? {} : { providerId: previous.providerId }),
    });
    await oidc.managerFor(provider).removeUser();
    if (isApiError(error) && error.status === 401) {
      throw new TokenRefusedError(refusalMessage(provider, user.access_token));
    }
    throw error;
  }
}

function refusalMessage(provider: SignInProviderConfig, token: string): string {
  const decoded = decodeToken(token);
  const claims = decoded.kind === 'jwt' ? decoded.claims : undefined;
  const issuer = claims?.issuer ?? '(none)';
  const audience = claims?.audiences.length ? claims.audiences.join(', ') : '(none)';
  return [
    `${provider.name} signed you in, but the participant answered 401 to its access token (issuer ${issuer}, audience ${audience}).`,
    'Canton accepts a token when an auth service or an active IdP configuration has this issuer, its JWKS holds the signing key, and the audience (or the daml_ledger_api scope) is the one it expects.',
    'Nothing changed here; the Token doctor checks a token against these rules.',
  ].join(' ');
}

import { SIGN_IN_PROVIDERS_PATH } from '@ledger-console/edge/console-api';
import type { SignInProviderConfig } from '@/api/sign-in-providers';

/** An OpenID provider of the participant's default IdP, as an operator would configure it. */
export const CORP_PROVIDER = {
  id: 'corp',
  name: 'Corp login',
  identityProviderId: '',
  oidc: {
    authority: 'https://login.corp.example',
    client_id: 'ledger-console',
    scope: 'openid',
    extraQueryParams: {},
  },
} satisfies SignInProviderConfig;

/**
 * The console server's provider list for `request` when it asks for it, as `npm start --auth
 * oidc` serves it in front of the participant; undefined for any other request.
 */
export function signInProvidersAnswer(
  request: Request,
  providers: readonly SignInProviderConfig[] = [CORP_PROVIDER],
): Promise<Response> | undefined {
  return new URL(request.url).pathname === SIGN_IN_PROVIDERS_PATH
    ? Promise.resolve(Response.json({ providers }))
    : undefined;
}

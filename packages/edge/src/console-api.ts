/**
 * The console server's own endpoints, as it serves them and the SPA reads them. Browser-safe (no
 * Node modules): the SPA imports this module, and only this one, of the edge package.
 */

/** Answered by the console server itself: never proxied, never the SPA's index.html. */
export const CONSOLE_PATH_PREFIX = '/__console';

/** `GET`: the sign-in page's OpenID Connect providers, `{ providers: ServedSignInProvider[] }`. */
export const SIGN_IN_PROVIDERS_PATH = '/__console/sign-in-providers';

/** `GET ?issuer=<url>`, participant admins only: an {@link OidcDiscoveryResult}. */
export const OIDC_DISCOVERY_PATH = '/__console/oidc-discovery';

/** One sign-in provider as the SPA gets it: `oidc` is oidc-client-ts's UserManager settings as they are. */
export type ServedSignInProvider = {
  /** Stable key: the SPA names its stored session and callback state after it. */
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

export type DiscoveredKey = { kid?: string; kty?: string; alg?: string; use?: string };

export type DiscoveryCheck = { name: string; status: 'ok' | 'warning'; detail: string };

/** An issuer's discovery document and the JWKS it names, summed up and checked by the server. */
export type OidcDiscoveryResult = {
  issuer: string;
  jwksUrl: string;
  jwks: { keys: DiscoveredKey[] };
  checks: DiscoveryCheck[];
};

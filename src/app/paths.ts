/** Route patterns and typed link builders, so no component spells a URL by hand. */

/** A user is addressed by id and IdP (`''` = default); the IdP travels as a search param. */
function userPath(userId: string, identityProviderId = ''): string {
  const base = `/users/${encodeURIComponent(userId)}`;
  return identityProviderId ? `${base}?idp=${encodeURIComponent(identityProviderId)}` : base;
}

export const paths = {
  overview: { pattern: '/', to: () => '/' },
  signIn: {
    pattern: '/sign-in',
    /** `from`: where to return after signing in. */
    to: (from?: string) => (from ? `/sign-in?from=${encodeURIComponent(from)}` : '/sign-in'),
  },
  users: { pattern: '/users', to: () => '/users' },
  newUser: { pattern: '/users/new', to: () => '/users/new' },
  user: { pattern: '/users/:userId', to: userPath },
  identityProviders: { pattern: '/identity-providers', to: () => '/identity-providers' },
  newIdentityProvider: {
    pattern: '/identity-providers/new',
    to: () => '/identity-providers/new',
  },
  identityProvider: {
    pattern: '/identity-providers/:identityProviderId',
    to: (identityProviderId: string) =>
      `/identity-providers/${encodeURIComponent(identityProviderId)}`,
  },
} as const;

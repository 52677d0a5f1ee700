/** The app's routes this feature links to; features cannot import the app's paths. */
export type IdentityProviderLinks = {
  identityProviders: string;
  newIdentityProvider: string;
  identityProvider: (identityProviderId: string) => string;
  user: (userId: string, identityProviderId: string) => string;
};

import type { Sandbox } from './sandbox-network';

export type SeedIdentityProvider = {
  identityProviderId: string;
  issuer?: string;
  jwksUrl?: string;
  audience?: string;
  isDeactivated?: boolean;
};

/**
 * Puts IdP configs straight into the sandbox's store (no token needed, also in jwt mode), with
 * issuer and JWKS URL derived from the id unless given.
 */
export function seedIdentityProviders(
  sandbox: Sandbox,
  configs: readonly SeedIdentityProvider[],
): void {
  sandbox.state.transaction(() => {
    for (const config of configs) {
      const id = config.identityProviderId;
      sandbox.state.idps.save({
        identityProviderId: id,
        issuer: config.issuer ?? `https://${id}.example.com`,
        jwksUrl: config.jwksUrl ?? `https://${id}.example.com/jwks.json`,
        audience: config.audience ?? '',
        isDeactivated: config.isDeactivated ?? false,
      });
    }
  });
}

/**
 * Who issued the token (iss), and so which IdP configuration verifies it and which IdP its user is
 * looked up in (ledger-api-behaviour.md §4.4).
 */
import type { TokenClaims } from '@/lib/access/token-claims';
import type { DoctorContext, IdentityProviderInfo } from './doctor-context';
import { verdictMaker, type Verdict } from './verdict';
import { idpName, quote, trimSlash } from './wording';

/**
 * The IdP Canton takes the token's user from (§4.4): the active IdP configuration with the
 * token's issuer, else the default IdP (`''`). `certain` is false when the IdP configurations
 * could not be read and a sign-in provider's word (or the default) stands in for them.
 */
export function identityProviderOfToken(
  claims: Pick<TokenClaims, 'issuer'>,
  context: Pick<DoctorContext, 'providers' | 'identityProviders'>,
): { identityProviderId: string; certain: boolean } {
  const issuer = claims.issuer;
  if (issuer === undefined) return { identityProviderId: '', certain: true };
  const configs = context.identityProviders;
  if (configs?.status === 'found') {
    const active = configs.value.find((idp) => idp.issuer === issuer && !idp.isDeactivated);
    return { identityProviderId: active?.identityProviderId ?? '', certain: true };
  }
  const provider = context.providers?.find((p) => p.issuer === issuer);
  return { identityProviderId: provider?.identityProviderId ?? '', certain: false };
}

/** The active IdP configuration with the token's issuer, when the configurations could be read. */
export function matchedIdentityProvider(
  claims: Pick<TokenClaims, 'issuer'>,
  context: Pick<DoctorContext, 'identityProviders'>,
): IdentityProviderInfo | undefined {
  return context.identityProviders?.status === 'found' && claims.issuer !== undefined
    ? context.identityProviders.value.find(
        (config) => config.issuer === claims.issuer && !config.isDeactivated,
      )
    : undefined;
}

export function issuerVerdict(
  claims: TokenClaims,
  header: Record<string, unknown>,
  context: DoctorContext,
): Verdict {
  const verdict = verdictMaker('issuer', 'Issuer (iss)');
  const issuer = claims.issuer;
  const providers = context.providers;
  const configs = context.identityProviders;
  if (issuer === undefined) {
    return verdict(
      'ok',
      "No iss: no IdP configuration can match it, so only the participant's own auth services (its configuration file) can verify it, and its user is looked up in the default IdP.",
    );
  }
  const provider = providers?.find((p) => p.issuer === issuer);
  const nearProvider = provider
    ? undefined
    : providers?.find((p) => trimSlash(p.issuer) === trimSlash(issuer));
  const providerNote = provider
    ? ` It is the issuer of this console's sign-in provider ${quote(provider.name)}.`
    : '';

  if (configs?.status === 'found') {
    const active = configs.value.find((c) => c.issuer === issuer && !c.isDeactivated);
    const inactive = configs.value.find((c) => c.issuer === issuer && c.isDeactivated);
    const near = configs.value.find(
      (c) => c.issuer !== issuer && trimSlash(c.issuer) === trimSlash(issuer),
    );
    if (active) {
      if (provider && provider.identityProviderId !== active.identityProviderId) {
        return verdict(
          'warning',
          `Canton picks IdP configuration ${quote(active.identityProviderId)} for ${quote(issuer)}, but this console's sign-in provider ${quote(provider.name)} says its users are in ${idpName(provider.identityProviderId)}.`,
          `Set the sign-in provider's identityProviderId to ${quote(active.identityProviderId)} in the console's sign-in configuration.`,
        );
      }
      return verdict(
        'ok',
        `Canton picks IdP configuration ${quote(active.identityProviderId)}: its issuer is ${quote(issuer)}; the token is verified with that configuration's JWKS keys and its user is looked up in that IdP.${providerNote}`,
      );
    }
    if (inactive) {
      return verdict(
        'problem',
        `IdP configuration ${quote(inactive.identityProviderId)} has issuer ${quote(issuer)} but is deactivated, so Canton ignores it: the participant answers 401 unless its own auth services verify the token.`,
        `Reactivate IdP configuration ${quote(inactive.identityProviderId)} (Identity providers), or use a token of an active issuer.`,
      );
    }
    if (near) {
      return verdict(
        'problem',
        `No active IdP configuration has issuer ${quote(issuer)}; ${quote(near.identityProviderId)} has ${quote(near.issuer)}, and Canton compares issuers exactly (401).`,
        `Make IdP configuration ${quote(near.identityProviderId)}'s issuer exactly ${quote(issuer)}, trailing slash included.`,
      );
    }
    if (header.alg === 'HS256') {
      return verdict(
        'warning',
        `No IdP configuration has issuer ${quote(issuer)}; an unsafe-jwt-hmac-256 service ignores iss, so only the shared secret decides.${providerNote}`,
      );
    }
    if (provider?.identityProviderId === '') {
      return verdict(
        'ok',
        `No IdP configuration has this issuer; this console's sign-in provider ${quote(provider.name)} signs in to the default IdP, which the participant's own auth services (its configuration file) must trust.`,
      );
    }
    if (provider) {
      return verdict(
        'problem',
        `This console's sign-in provider ${quote(provider.name)} says its users are in IdP ${quote(provider.identityProviderId)}, but no active IdP configuration has issuer ${quote(issuer)}: the participant answers 401.`,
        `Create IdP configuration ${quote(provider.identityProviderId)} with issuer ${quote(issuer)} and the provider's JWKS URL (Identity providers → New).`,
      );
    }
    return verdict(
      'problem',
      `Unknown issuer ${quote(issuer)}: no active IdP configuration has it, so unless the participant's own auth services verify this token's signature, the participant answers 401.`,
      'Add an IdP configuration with this issuer and its JWKS URL, or get a token from an issuer this participant trusts.',
    );
  }

  const whyUnknown =
    configs?.status === 'forbidden'
      ? 'Your current sign-in may not list IdP configurations (a participant admin can).'
      : configs?.status === 'signed-out'
        ? 'Sign in as a participant admin to check it against the IdP configurations.'
        : configs?.status === 'failed'
          ? `The IdP configurations could not be read: ${configs.message}`
          : 'Only a participant admin can check it against the IdP configurations.';
  if (provider) {
    return verdict(
      'ok',
      `${quote(issuer)} is the issuer of this console's sign-in provider ${quote(provider.name)}, whose users are in ${idpName(provider.identityProviderId)}. ${whyUnknown}`,
    );
  }
  if (nearProvider) {
    return verdict(
      'warning',
      `${quote(issuer)} differs from sign-in provider ${quote(nearProvider.name)}'s issuer ${quote(nearProvider.issuer)} only by a trailing slash; Canton compares issuers exactly.`,
      'Make the issuer in the console and IdP configurations exactly the one the tokens carry.',
    );
  }
  if (providers !== undefined && providers.length > 0) {
    return verdict(
      'warning',
      `${quote(issuer)} is not the issuer of any of this console's sign-in providers. ${whyUnknown}`,
      'Check that the participant has an active IdP configuration with this exact issuer; otherwise it answers 401.',
    );
  }
  return verdict('unknown', `Issuer ${quote(issuer)}. ${whyUnknown}`);
}

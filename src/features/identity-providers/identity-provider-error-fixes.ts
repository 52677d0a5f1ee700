import type { IdentityProviderConfig } from '@/api/identity-providers';
import { isApiError } from '@/lib/errors/api-error';

/**
 * IdP admin failures in the user's terms, with the action that fixes them when the caller may
 * take it (issue 16 item 3). Pure: the forms render the sentence and turn the fix into a link or a
 * button inside their error area.
 */
export type IdentityProviderFix =
  /** Opens an existing IdP's page (the one whose id or issuer the submission collided with). */
  | { kind: 'openIdentityProvider'; identityProviderId: string }
  /** Activates a deactivated IdP (a participant admin only). */
  | { kind: 'activate'; identityProviderId: string };

export type IdentityProviderFailure = {
  cause: string;
  fix?: IdentityProviderFix;
};

export type SubmissionFacts = {
  /** The id the form sent (create) or edits (update). */
  identityProviderId: string;
  /** The issuer the form sent; '' when it did not change it. */
  issuer: string;
  /** The participant's IdP configs as far as they are loaded, to name an issuer's owner. */
  configs?: readonly IdentityProviderConfig[];
};

/** The `"…"` the participant quotes after `prefix` in a cause, e.g. the issuer it refused. */
function quotedAfter(cause: string, prefix: string): string | undefined {
  const start = cause.indexOf(`${prefix} "`);
  if (start < 0) return undefined;
  const from = start + prefix.length + 2;
  const end = cause.indexOf('" already exists', from);
  return end < 0 ? undefined : cause.slice(from, end);
}

/**
 * What a failed create or update of an IdP config means, or undefined when the participant's own
 * message (shown as it is) says all there is:
 * - IDP_CONFIG_ALREADY_EXISTS: the id is taken; open that IdP.
 * - IDP_CONFIG_ISSUER_ALREADY_EXISTS: another IdP has the issuer (issuers are unique); name it and
 *   open it, when the loaded configs say which one it is.
 */
export function identityProviderFailure(
  error: unknown,
  facts: SubmissionFacts,
): IdentityProviderFailure | undefined {
  if (!isApiError(error)) return undefined;
  if (error.code === 'IDP_CONFIG_ALREADY_EXISTS') {
    const id = quotedAfter(error.body.cause, 'identity provider') ?? facts.identityProviderId;
    return {
      cause: `An identity provider “${id}” already exists. Open it to change its settings, or choose another id.`,
      fix: { kind: 'openIdentityProvider', identityProviderId: id },
    };
  }
  if (error.code === 'IDP_CONFIG_ISSUER_ALREADY_EXISTS') {
    const issuer = quotedAfter(error.body.cause, 'with issuer') ?? facts.issuer;
    const owner = facts.configs?.find(
      (config) =>
        config.issuer === issuer && config.identityProviderId !== facts.identityProviderId,
    );
    if (owner === undefined) {
      return {
        cause: `Another identity provider already has the issuer ${issuer}: the participant matches tokens to identity providers by issuer, so each issuer belongs to one only.`,
      };
    }
    return {
      cause: `Identity provider “${owner.identityProviderId}” already has the issuer ${issuer}: the participant matches tokens to identity providers by issuer, so each issuer belongs to one only.`,
      fix: { kind: 'openIdentityProvider', identityProviderId: owner.identityProviderId },
    };
  }
  return undefined;
}

/**
 * A deactivated IdP blocks all its users: the participant refuses every token of its issuer
 * (ledger-api-behaviour.md §3.3). The fix, activating it, is a participant admin's only.
 */
export function deactivatedIdentityProvider(
  config: IdentityProviderConfig,
  canManageIdentityProviders: boolean,
): IdentityProviderFailure | undefined {
  if (config.isDeactivated !== true) return undefined;
  const cause = `Identity provider “${config.identityProviderId}” is deactivated: the participant refuses every token from its issuer, so none of its users can sign in.`;
  return canManageIdentityProviders
    ? { cause, fix: { kind: 'activate', identityProviderId: config.identityProviderId } }
    : { cause: `${cause} A participant admin can activate it.` };
}

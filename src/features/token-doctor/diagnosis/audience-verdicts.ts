/**
 * Whom the token is for: its form (a participant audience or the deprecated daml_ledger_api scope),
 * this participant, and the audiences an IdP configuration or this console's sign-in provider ask for
 * (ledger-api-behaviour.md §4.3).
 */
import type { TokenClaims } from '@/lib/access/token-claims';
import type { IdentityProviderInfo, SignInProviderInfo } from './doctor-context';
import { verdictMaker, type Verdict } from './verdict';
import { list, quote } from './wording';

export const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

const LEDGER_API_SCOPE = 'daml_ledger_api';

export function tokenFormVerdict(
  claims: TokenClaims,
  matchedConfig: IdentityProviderInfo | undefined,
): Verdict {
  const verdict = verdictMaker('token-form', 'Audience or scope');
  const participantAudiences = claims.audiences.filter((a) =>
    a.startsWith(PARTICIPANT_AUDIENCE_PREFIX),
  );
  const hasScope = claims.scopes.includes(LEDGER_API_SCOPE);
  if (participantAudiences.length === 1) {
    return verdict(
      'ok',
      'Audience-based: aud holds one participant audience, the form Canton recommends.',
    );
  }
  if (participantAudiences.length > 1) {
    return verdict(
      'problem',
      `aud holds ${String(participantAudiences.length)} participant audiences; Canton wants exactly one, so it does not read this as an audience-based token${hasScope ? ', and a scope-based token may have at most one aud' : ''} (401).`,
      'Request a token for this participant only: one https://daml.com/jwt/aud/participant/<id> audience.',
    );
  }
  if (hasScope) {
    if (claims.audiences.length > 1) {
      return verdict(
        'problem',
        `Scope-based (daml_ledger_api), but aud holds ${String(claims.audiences.length)} values; a scope-based token may carry at most one (401).`,
        'Request a token with the participant audience https://daml.com/jwt/aud/participant/<id> instead of the scope.',
      );
    }
    return verdict(
      'warning',
      'Scope-based: scope holds daml_ledger_api. Canton 3.5 deprecates scope-based tokens and 3.7 removes them.',
      'Request the audience https://daml.com/jwt/aud/participant/<participant id> from the identity provider instead of the daml_ledger_api scope.',
    );
  }
  if (matchedConfig?.audience && claims.audiences.includes(matchedConfig.audience)) {
    return verdict(
      'ok',
      `No participant audience and no daml_ledger_api scope, but aud holds ${quote(matchedConfig.audience)}, the audience IdP configuration ${quote(matchedConfig.identityProviderId)} requires, and that is the form it checks.`,
    );
  }
  return verdict(
    'problem',
    `Neither form: no https://daml.com/jwt/aud/participant/… audience and no daml_ledger_api scope (aud: ${list(claims.audiences)}; scope: ${list(claims.scopes)}). Unless the participant's auth service sets a target-audience or target-scope this token carries, it is refused (401).`,
    'Request the audience https://daml.com/jwt/aud/participant/<participant id> from the identity provider.',
  );
}

export function participantAudienceVerdict(
  claims: TokenClaims,
  participantId: string | undefined,
  identityProviderId: string,
): Verdict {
  const verdict = verdictMaker('participant-audience', 'Participant audience');
  const expected =
    participantId === undefined ? undefined : `${PARTICIPANT_AUDIENCE_PREFIX}${participantId}`;
  const expectedText = expected ?? `${PARTICIPANT_AUDIENCE_PREFIX}<participant id>`;
  const participantAudiences = claims.audiences.filter((a) =>
    a.startsWith(PARTICIPANT_AUDIENCE_PREFIX),
  );
  let named: string | undefined;
  if (participantAudiences.length === 1) {
    named = participantAudiences[0]?.slice(PARTICIPANT_AUDIENCE_PREFIX.length);
    if (!named) {
      return verdict(
        'problem',
        'The participant audience names no participant id, so Canton does not read it as audience-based (401).',
        `Request the audience ${quote(expectedText)}.`,
      );
    }
  } else if (participantAudiences.length > 1) {
    const others = participantAudiences.filter((a) => a !== expected);
    return verdict(
      'problem',
      `Several participant audiences (${list(participantAudiences)}); the token is not meant for one participant${expected && others.length < participantAudiences.length ? ', though one of them is this one' : ''}.`,
      `Request a token whose only participant audience is ${quote(expectedText)}.`,
    );
  } else if (claims.scopes.includes(LEDGER_API_SCOPE) && claims.audiences.length === 1) {
    // A scope-based token's single aud is taken as the participant id (§4.3).
    if (identityProviderId === '') named = claims.audiences[0];
  }
  if (named === undefined) {
    return verdict(
      'ok',
      'The token names no participant, so any participant that trusts its signer accepts it.',
    );
  }
  if (participantId === undefined) {
    return verdict(
      'unknown',
      `The token is for participant ${quote(named)}; this participant's id could not be read to compare.`,
    );
  }
  if (named !== participantId) {
    return verdict(
      'problem',
      `The token is for participant ${quote(named)}, but this is ${quote(participantId)}: the participant answers 403.`,
      `Request the audience ${quote(expectedText)} for this participant.`,
    );
  }
  return verdict('ok', `The token is for this participant (${quote(participantId)}).`);
}

export function idpAudienceVerdict(claims: TokenClaims, config: IdentityProviderInfo): Verdict {
  const has = claims.audiences.includes(config.audience);
  return has
    ? {
        id: 'idp-audience',
        title: 'IdP audience',
        status: 'ok',
        finding: `aud holds ${quote(config.audience)}, which IdP configuration ${quote(config.identityProviderId)} requires.`,
      }
    : {
        id: 'idp-audience',
        title: 'IdP audience',
        status: 'problem',
        finding: `IdP configuration ${quote(config.identityProviderId)} requires the audience ${quote(config.audience)}, which aud does not hold (401).`,
        fix: `Request the audience ${quote(config.audience)} from the identity provider, or clear the audience of IdP configuration ${quote(config.identityProviderId)}.`,
      };
}

/** For the sign-in provider that issued the token, when this console asks it for an audience. */
export function providerAudienceVerdicts(
  claims: TokenClaims,
  providers: readonly SignInProviderInfo[] | undefined,
): Verdict[] {
  const provider = providers?.find((p) => p.issuer === claims.issuer);
  if (provider?.audience === undefined) return [];
  const title = 'Sign-in provider audience';
  return claims.audiences.includes(provider.audience)
    ? [
        {
          id: 'provider-audience',
          title,
          status: 'ok',
          finding: `aud holds ${quote(provider.audience)}, the audience this console asks ${quote(provider.name)} for.`,
        },
      ]
    : [
        {
          id: 'provider-audience',
          title,
          status: 'warning',
          finding: `This console asks ${quote(provider.name)} for the audience ${quote(provider.audience)}, which aud does not hold: the token was issued for another client or API.`,
          fix: `Sign in through this console's ${quote(provider.name)} provider, or request the audience ${quote(provider.audience)}.`,
        },
      ];
}

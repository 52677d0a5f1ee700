/**
 * The token doctor (issue 14): Canton-specific verdicts on a bearer token, each with its fix.
 * Canton answers every authentication failure with a masked 401/403, so this is where a person
 * learns why. Pure: the feature gathers the context (providers, IdP configurations, the user and
 * its rights) and renders the verdicts as plain text; the token is untrusted and never verified.
 * Canton's rules: ledger-api-behaviour.md §4.2–4.4 and §2.2 (user ids).
 *
 * This module orders the verdicts; each family judges its part of the token in its own module:
 * structure (inspect-token), signature, issuer, audience, time and user, in the doctor's words
 * (wording).
 */
import {
  idpAudienceVerdict,
  participantAudienceVerdict,
  providerAudienceVerdicts,
  tokenFormVerdict,
} from './audience-verdicts';
import type { DoctorContext } from './doctor-context';
import { inspectToken } from './inspect-token';
import { identityProviderOfToken, issuerVerdict, matchedIdentityProvider } from './issuer-verdicts';
import { algorithmVerdict, headerVerdict } from './signature-verdicts';
import {
  DEFAULT_CLOCK_SKEW_SECONDS,
  expiryVerdict,
  issuedAtVerdict,
  notBeforeVerdict,
} from './time-verdicts';
import { rightsVerdict, subjectVerdict, userVerdict } from './user-verdicts';
import type { Verdict } from './verdict';

const PARTICIPANT_IGNORES_TOKENS: Verdict = {
  id: 'participant-auth',
  title: 'Participant authentication',
  status: 'warning',
  finding:
    'This participant answers requests without any token as if they had every right: it runs without auth services and ignores tokens, so it accepts this one whatever it holds. The verdicts below say what a participant with auth would make of it.',
  fix: 'Nothing to fix in the token here; configure auth services on the participant before anyone depends on it.',
};

/** Every verdict on `token` in order, from its structure to the rights of its user. */
export function diagnoseToken(token: string, context: DoctorContext): Verdict[] {
  const inspected = inspectToken(token);
  if (inspected.kind === 'unreadable') return inspected.verdicts;
  const skew = context.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const { header, payload, claims } = inspected;
  const idp = identityProviderOfToken(claims, context);
  const matchedConfig = matchedIdentityProvider(claims, context);
  const subject = subjectVerdict(payload);
  return [
    ...inspected.verdicts,
    ...(context.participantIgnoresTokens ? [PARTICIPANT_IGNORES_TOKENS] : []),
    algorithmVerdict(header, matchedConfig),
    headerVerdict(header),
    issuerVerdict(claims, header, context),
    tokenFormVerdict(claims, matchedConfig),
    participantAudienceVerdict(claims, context.participantId, idp.identityProviderId),
    ...(matchedConfig?.audience ? [idpAudienceVerdict(claims, matchedConfig)] : []),
    ...providerAudienceVerdicts(claims, context.providers),
    expiryVerdict(payload, context.now, skew),
    notBeforeVerdict(payload, context.now, skew),
    issuedAtVerdict(payload, context.now, skew),
    subject,
    userVerdict(claims, subject.status === 'ok', idp, context),
    rightsVerdict(context.user, context.rights),
  ];
}

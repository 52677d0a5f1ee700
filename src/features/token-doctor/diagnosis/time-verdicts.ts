/** When the token is valid: expiry (exp), not before (nbf) and issued at (iat). */
import { verdictMaker, type Verdict, type VerdictId } from './verdict';
import { duration, instant } from './wording';

/**
 * How far this browser's clock may be from the participant's. Canton verifies `exp`, `nbf` and
 * `iat` with no leeway unless its `jwt-timestamp-leeway` is configured, so a time within this
 * margin of now may go either way; beyond it the verdict is certain.
 */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/** A token that expires within this is still accepted, but not for long. */
export const EXPIRES_SOON_SECONDS = 5 * 60;

export function expiryVerdict(
  payload: Record<string, unknown>,
  now: number,
  skew: number,
): Verdict {
  const verdict = verdictMaker('expiry', 'Expiry (exp)');
  const exp = payload.exp;
  if (exp === undefined) {
    return verdict(
      'warning',
      'No exp: the token never expires. A participant with max-token-lifetime refuses it, and anyone who copies it keeps access.',
      'Have the identity provider issue tokens with an expiry (minutes to hours).',
    );
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    return verdict(
      'problem',
      'exp is not a number of seconds, so the verifier refuses the token (401).',
      'Use a token whose exp is seconds since 1970 (a JSON number).',
    );
  }
  const left = exp - now / 1000;
  const at = instant(exp);
  if (left <= -skew) {
    return verdict(
      'problem',
      `Expired ${duration(-left)} ago (${at}): the participant answers 401.`,
      'Get a fresh token from your identity provider (sign in again).',
    );
  }
  if (left <= skew) {
    return verdict(
      'warning',
      `Expires ${at}, within ${String(skew)} s of this browser's clock: the participant may already refuse it (401).`,
      'Get a fresh token from your identity provider (sign in again).',
    );
  }
  if (left <= EXPIRES_SOON_SECONDS) {
    return verdict(
      'warning',
      `Expires in ${duration(left)} (${at}).`,
      'Get a fresh token before long-running work (sign in again).',
    );
  }
  return verdict('ok', `Valid for ${duration(left)} more (until ${at}).`);
}

export function notBeforeVerdict(
  payload: Record<string, unknown>,
  now: number,
  skew: number,
): Verdict {
  return futureTimeVerdict(payload.nbf, now, skew, {
    id: 'not-before',
    title: 'Not before (nbf)',
    absent: 'No nbf: usable from the moment it was issued.',
    early: 'is not valid before',
  });
}

export function issuedAtVerdict(
  payload: Record<string, unknown>,
  now: number,
  skew: number,
): Verdict {
  return futureTimeVerdict(payload.iat, now, skew, {
    id: 'issued-at',
    title: 'Issued at (iat)',
    absent: 'No iat (Canton does not need one).',
    early: 'claims to be issued at',
  });
}

function futureTimeVerdict(
  value: unknown,
  now: number,
  skew: number,
  words: { id: VerdictId; title: string; absent: string; early: string },
): Verdict {
  const verdict = verdictMaker(words.id, words.title);
  if (value === undefined) return verdict('ok', words.absent);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return verdict(
      'problem',
      'Not a number of seconds, so the verifier refuses the token (401).',
      'Use a token whose time claims are seconds since 1970 (JSON numbers).',
    );
  }
  const ahead = value - now / 1000;
  if (ahead > skew) {
    return verdict(
      'problem',
      `The token ${words.early} ${instant(value)}, ${duration(ahead)} ahead of this browser's clock: the participant answers 401 until then.`,
      "Correct the clock of the identity provider's server or of this computer (NTP), or wait until then.",
    );
  }
  if (ahead > 0) {
    return verdict(
      'warning',
      `The token ${words.early} ${instant(value)}, ${duration(ahead)} ahead of this browser's clock: a participant whose clock is behind refuses it for now.`,
      'If the participant refuses it, wait a minute or synchronise the clocks (NTP).',
    );
  }
  return verdict('ok', `${instant(value)}, in the past.`);
}

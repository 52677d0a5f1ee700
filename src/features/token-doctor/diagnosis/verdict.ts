/** A verdict of the token doctor: what it found about one aspect of a token, and the fix. */

export type VerdictStatus = 'ok' | 'warning' | 'problem' | 'unknown';

export type Verdict = {
  id: VerdictId;
  title: string;
  status: VerdictStatus;
  /** What the doctor found, in plain text (claim values quoted, never markup). */
  finding: string;
  /** One sentence: what to do about it; set for every problem and most warnings. */
  fix?: string;
};

export type VerdictId =
  | 'size'
  | 'structure'
  | 'participant-auth'
  | 'algorithm'
  | 'header'
  | 'issuer'
  | 'token-form'
  | 'participant-audience'
  | 'idp-audience'
  | 'provider-audience'
  | 'expiry'
  | 'not-before'
  | 'issued-at'
  | 'subject'
  | 'user'
  | 'rights';

/**
 * The verdicts of one kind, with their id and title fixed: `verdict(status, finding, fix?)`. A
 * verdict without a fix has no `fix` key at all.
 */
export function verdictMaker(
  id: VerdictId,
  title: string,
): (status: VerdictStatus, finding: string, fix?: string) => Verdict {
  return (status, finding, fix) => ({ id, title, status, finding, ...(fix ? { fix } : {}) });
}

import type { Verdict as ListedVerdict, VerdictStatus } from '@/components/verdict-list';

export type { VerdictStatus };

/**
 * A verdict of the token doctor: what it found about one aspect of a token, in plain text (claim
 * values quoted, never markup), and the fix, set for every problem and most warnings. The verdict
 * list shows it; its ids are the doctor's own.
 */
export type Verdict = Omit<ListedVerdict, 'id'> & { id: VerdictId };

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

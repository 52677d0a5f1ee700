/**
 * Whose token it is: the user id in sub (ledger-api-behaviour.md §2.2), that user on the participant,
 * and its rights.
 */
import { idStringProblem, USER_ID_STRING } from '@ledger-console/participant/identifiers';
import type { UserRight } from '@/lib/access/access-rights';
import type { TokenClaims } from '@/lib/access/token-claims';
import type { DoctorContext, Lookup, UserRecord } from './doctor-context';
import { identityProviderOfToken } from './issuer-verdicts';
import { verdictMaker, type Verdict } from './verdict';
import { describeChar, idpName, quote, sentence } from './wording';

/**
 * The user to look up for a token: its valid `sub` in the IdP the token selects, or undefined
 * when there is no user id a participant would accept.
 */
export function userToLookUp(
  claims: Pick<TokenClaims, 'issuer' | 'subject'>,
  context: Pick<DoctorContext, 'providers' | 'identityProviders'>,
): { userId: string; identityProviderId: string } | undefined {
  const userId = claims.subject;
  if (userId === undefined || idStringProblem(USER_ID_STRING, userId) !== undefined) {
    return undefined;
  }
  return {
    userId,
    identityProviderId: identityProviderOfToken(claims, context).identityProviderId,
  };
}

export function subjectVerdict(payload: Record<string, unknown>): Verdict {
  const verdict = verdictMaker('subject', 'User id (sub)');
  const sub = payload.sub;
  if (sub === undefined) {
    return verdict(
      'problem',
      'No sub: Canton takes the user id from sub, so it cannot tell whose rights apply.',
      'Have the identity provider put the Canton user id in sub.',
    );
  }
  if (typeof sub !== 'string') {
    return verdict(
      'problem',
      'sub is not a string.',
      'Have the identity provider put the Canton user id in sub.',
    );
  }
  const problem = idStringProblem(USER_ID_STRING, sub);
  const rule = `1 to ${String(USER_ID_STRING.maxLength)} ASCII letters, digits and @^$.!\`-#+'~_|:()`;
  if (problem === undefined) return verdict('ok', `User ${quote(sub)}: a valid Canton user id.`);
  const why =
    problem.kind === 'empty'
      ? 'sub is empty'
      : problem.kind === 'too-long'
        ? `sub is ${String(problem.length)} characters long`
        : `sub holds ${describeChar(problem.char)}`;
  return verdict(
    'problem',
    `${why}; a Canton user id is ${rule}. The participant answers 400 INVALID_TOKEN ("missing a user-id").`,
    "Map the identity provider's subject to a valid user id (a claim mapper), and create that user on the participant.",
  );
}

export function userVerdict(
  claims: TokenClaims,
  hasValidSubject: boolean,
  idp: { identityProviderId: string; certain: boolean },
  context: DoctorContext,
): Verdict {
  const verdict = verdictMaker('user', 'User record');
  if (!hasValidSubject || claims.subject === undefined) {
    return verdict('unknown', 'Without a valid sub there is no user to look up.');
  }
  const userId = quote(claims.subject);
  const where = `${idpName(idp.identityProviderId)}${idp.certain ? '' : ' (assumed: the IdP configurations could not be read)'}`;
  const lookup = context.user;
  switch (lookup?.status) {
    case undefined:
      return verdict('unknown', 'The user was not looked up.');
    case 'signed-out':
      return verdict(
        'unknown',
        `Sign in to look up user ${userId}; lookups use your current sign-in, never the pasted token.`,
      );
    case 'failed':
      return verdict('unknown', `User ${userId} could not be looked up: ${lookup.message}`);
    case 'not-found':
      return verdict(
        'problem',
        `There is no user ${userId} in ${where}: the participant answers 403 to every request with this token.`,
        `Create user ${userId} in ${idpName(idp.identityProviderId)} (Users → New user), or fix the token's sub.`,
      );
    case 'forbidden':
      return context.callerIsParticipantAdmin && idp.certain
        ? verdict(
            'problem',
            `User ${userId} exists in another IdP than ${where}, the one the token's issuer selects: the participant answers 403.`,
            `Move user ${userId} to ${idpName(idp.identityProviderId)} (its page: Identity provider), or use a token from its own IdP's issuer.`,
          )
        : verdict(
            'unknown',
            `Your current sign-in may not read user ${userId} in ${where}; a participant admin or that IdP's admin can.`,
          );
    case 'found': {
      const user = lookup.value;
      if (user.identityProviderId !== idp.identityProviderId) {
        return verdict(
          'problem',
          `User ${userId} belongs to ${idpName(user.identityProviderId)}, but the token's issuer selects ${where}: the participant answers 403.`,
          `Move the user to ${idpName(idp.identityProviderId)}, or use a token from its own IdP's issuer.`,
        );
      }
      if (user.isDeactivated) {
        return verdict(
          'problem',
          `User ${userId} in ${where} is deactivated: the participant answers 403 to every request with this token.`,
          `Reactivate user ${userId} (its page: Edit, Active), or use another user's token.`,
        );
      }
      return verdict('ok', `User ${userId} exists in ${where} and is active.`);
    }
  }
}

export function rightsVerdict(
  user: Lookup<UserRecord> | undefined,
  rights: Lookup<readonly UserRight[]> | undefined,
): Verdict {
  const verdict = verdictMaker('rights', 'Rights');
  if (user?.status !== 'found') {
    return verdict('unknown', 'Known once the user is found.');
  }
  switch (rights?.status) {
    case undefined:
    case 'signed-out':
      return verdict('unknown', 'The rights were not looked up.');
    case 'forbidden':
    case 'not-found':
      return verdict(
        'unknown',
        "Your current sign-in may not read this user's rights (the JSON API lists rights in the default IdP only, for a participant admin).",
      );
    case 'failed':
      return verdict('unknown', `The rights could not be read: ${rights.message}`);
    case 'found':
      break;
  }
  const summary = summarizeRights(rights.value);
  if (summary.length === 0) {
    return verdict(
      'warning',
      'No rights: the participant accepts the token for public reads only (version, packages), so the console is read-only and shows no party data.',
      'Grant the user the rights it needs (its page: Rights), e.g. CanReadAs or CanActAs for its parties.',
    );
  }
  return verdict('ok', `${sentence(summary)}.`);
}

/** The rights in short: admin kinds first, then party rights by count. */
export function summarizeRights(rights: readonly UserRight[]): string[] {
  const kinds = new Set(rights.map((right) => right.kind));
  const parties = (kind: UserRight['kind']) =>
    new Set(
      rights.flatMap((right) => (right.kind === kind && 'party' in right ? [right.party] : [])),
    ).size;
  const summary: string[] = [];
  if (kinds.has('ParticipantAdmin')) summary.push('participant admin');
  if (kinds.has('IdentityProviderAdmin')) summary.push('IdP admin');
  if (kinds.has('CanActAsAnyParty')) summary.push('acts as any party');
  if (kinds.has('CanReadAsAnyParty')) summary.push('reads as any party');
  if (kinds.has('CanExecuteAsAnyParty')) summary.push('executes as any party');
  const counted = [
    ['CanActAs', 'acts as'],
    ['CanReadAs', 'reads as'],
    ['CanExecuteAs', 'executes as'],
  ] as const;
  for (const [kind, words] of counted) {
    const count = parties(kind);
    if (count > 0) summary.push(`${words} ${String(count)} ${count === 1 ? 'party' : 'parties'}`);
  }
  return summary;
}

import type { Caller } from '@/lib/access/access-rights';

/** The parties a submission may name: `any`, or exactly these. */
export type PartyScope = { kind: 'any' } | { kind: 'only'; parties: readonly string[] };

export type SubmitterScope = {
  actAs: PartyScope;
  readAs: PartyScope;
  /** The caller's user id, the default of the request's `userId`; undefined when unknown. */
  userId: string | undefined;
  /** Without a user behind the session the request must name one (§4.2). */
  userIdRequired: boolean;
};

/**
 * Whom the caller may act and read as, the way the participant authorizes a submission: CanActAs
 * per party (or CanActAsAnyParty) for actAs; CanReadAs, CanActAs or the any-party rights for
 * readAs. An unidentified caller (no auth, or a privileged token) may name anyone.
 */
export function submitterScope(caller: Caller): SubmitterScope {
  if (caller.kind === 'unidentified') {
    return {
      actAs: { kind: 'any' },
      readAs: { kind: 'any' },
      userId: undefined,
      userIdRequired: true,
    };
  }
  const kinds = new Set(caller.rights.map((right) => right.kind));
  const partiesWith = (...wanted: string[]) => [
    ...new Set(
      caller.rights.flatMap((right) =>
        'party' in right && wanted.includes(right.kind) ? [right.party] : [],
      ),
    ),
  ];
  const canActAsAny = kinds.has('CanActAsAnyParty');
  const canReadAsAny = canActAsAny || kinds.has('CanReadAsAnyParty');
  return {
    actAs: canActAsAny ? { kind: 'any' } : { kind: 'only', parties: partiesWith('CanActAs') },
    readAs: canReadAsAny
      ? { kind: 'any' }
      : { kind: 'only', parties: partiesWith('CanActAs', 'CanReadAs') },
    userId: caller.userId,
    userIdRequired: false,
  };
}

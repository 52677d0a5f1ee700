import type { Mutation, MutationKey, QueryClient } from '@tanstack/react-query';
import { identityScopedKey, readAccessToken } from '@/api/access-token';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import type { Caller } from '@/lib/access/access-rights';
import {
  type ActivityActor,
  type ActivityMeta,
  type ActivityValue,
  activitySpecByKey,
} from '@/lib/activity/activity-spec';
import { decodeToken } from '@/lib/access/token-claims';
import { activityPlace, type ActivityPlace } from './activity-place';

// The mutation cache hands over mutations of any types; the recorder reads only meta and state.
type AnyMutation = Mutation<unknown, unknown>;

/** What is known as the call starts: who makes it, where it is logged, the state before it. */
export type Started = {
  spec: ActivityMeta;
  at: string;
  actor: ActivityActor;
  participantId: string | undefined;
  place: ActivityPlace | undefined;
  /** Who was signed in, to file a late-placed entry only under the same identity. */
  identity: string;
  before: ActivityValue;
};

export type Outcome = { data: unknown } | { error: unknown };

function specOf(mutation: AnyMutation): ActivityMeta | undefined {
  const own = mutation.meta?.activity;
  if (own) return own;
  const key: MutationKey | undefined = mutation.options.mutationKey;
  return key ? activitySpecByKey(key) : undefined;
}

/** The caller as the console knows it: its user, else the token's claims, else anonymous. */
function actorOf(caller: Caller | undefined): ActivityActor {
  if (caller?.kind === 'user') {
    return { kind: 'user', userId: caller.userId, identityProviderId: caller.identityProviderId };
  }
  const token = readAccessToken();
  if (!token) return { kind: 'anonymous' };
  // Only the claims are kept, never the token.
  const decoded = decodeToken(token);
  return decoded.kind === 'jwt'
    ? {
        kind: 'token',
        subject: decoded.claims.subject ?? null,
        issuer: decoded.claims.issuer ?? null,
      }
    : { kind: 'token', subject: null, issuer: null };
}

export function safely<T>(describe: () => T, fallback: T): T {
  try {
    return describe();
  } catch {
    return fallback;
  }
}

/**
 * Records every mutation whose meta has an `activity` spec: `start` as it begins (the cache still
 * holds the state before), `settle` with its data or error. A failure to describe or store an
 * entry never affects the mutation itself.
 *
 * What must be read as the call starts is read here, synchronously. Writing the entry is
 * `recordActivity`, loaded by the first recorded call: a mutation takes a round trip to the
 * participant, in which the module arrives; `settle` waits for it otherwise.
 */
export function createActivityRecorder(client: () => QueryClient) {
  const started = new WeakMap<AnyMutation, Started>();
  let writer: Promise<typeof import('./record-activity')> | undefined;

  return {
    start(mutation: AnyMutation, variables: unknown): void {
      const spec = specOf(mutation);
      if (!spec) return;
      writer ??= import('./record-activity');
      const queryClient = client();
      const participantId = queryClient.getQueryData(participantQueries.participantId().queryKey);
      started.set(mutation, {
        spec,
        at: new Date().toISOString(),
        actor: actorOf(queryClient.getQueryData(sessionQueries.caller().queryKey)),
        participantId,
        // Fixed now: a sign-out before the answer must not move the entry to someone else's log.
        place: participantId === undefined ? undefined : activityPlace(participantId),
        identity: identityScopedKey('activity.log', ''),
        before: safely(
          () =>
            spec.before(variables, (queryKey) => {
              // Data a change has invalidated and nothing has refetched is known to be out of date.
              const state = queryClient.getQueryState(queryKey);
              return state?.isInvalidated === true ? undefined : state?.data;
            }),
          { kind: 'unknown', reason: 'could not be read' },
        ),
      });
    },

    settle(mutation: AnyMutation, outcome: Outcome): void {
      const begun = started.get(mutation);
      if (!begun) return;
      started.delete(mutation);
      const { variables } = mutation.state;
      void writer
        ?.then(({ recordActivity }) => recordActivity(client(), variables, begun, outcome))
        // The call it records has happened either way; an entry that cannot be written is lost.
        .catch(() => undefined);
    },
  };
}

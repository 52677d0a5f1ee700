import type { Mutation, MutationKey, QueryClient } from '@tanstack/react-query';
import { identityScopedKey, readAccessToken } from '@/api/access-token';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import type { Caller } from '@/lib/access/access-rights';
import { activitySpecByKey } from '@/lib/activity/activity-specs';
import {
  createEntry,
  errorResult,
  type ActivityActor,
  type ActivityMeta,
  type ActivityValue,
} from '@/lib/activity/activity-log';
import { decodeToken } from '@/lib/access/token-claims';
import { activityPlace, appendActivity, type ActivityPlace } from './activity-store';

// The mutation cache hands over mutations of any types; the recorder reads only meta and state.
type AnyMutation = Mutation<unknown, unknown>;

/** What is known as the call starts: who makes it, where it is logged, the state before it. */
type Started = {
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

let sequence = 0;

function specOf(mutation: AnyMutation): ActivityMeta | undefined {
  const own = mutation.meta?.activity;
  if (own) return own;
  const key: MutationKey | undefined = mutation.options.mutationKey;
  return key ? activitySpecByKey(key) : undefined;
}

function entryId(): string {
  sequence += 1;
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2);
  return `${Date.now().toString(36)}-${sequence}-${random}`;
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

function safely<T>(describe: () => T, fallback: T): T {
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
 */
export function createActivityRecorder(client: () => QueryClient) {
  const started = new WeakMap<AnyMutation, Started>();

  return {
    start(mutation: AnyMutation, variables: unknown): void {
      const spec = specOf(mutation);
      if (!spec) return;
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
      void record(client(), begun.spec, mutation.state.variables, begun, outcome);
    },
  };
}

async function record(
  queryClient: QueryClient,
  spec: ActivityMeta,
  variables: unknown,
  begun: Started,
  outcome: Outcome,
): Promise<void> {
  let { participantId, place } = begun;
  if (participantId === undefined) {
    try {
      participantId = await queryClient.query(participantQueries.participantId());
    } catch {
      // Nowhere to file it: logs are per participant, and this one did not say who it is.
      return;
    }
    // Someone else signed in meanwhile: their log is not the place for this call.
    if (identityScopedKey('activity.log', '') !== begun.identity) return;
    place = activityPlace(participantId);
  }
  const data = 'data' in outcome ? outcome.data : undefined;
  const entry = createEntry({
    id: entryId(),
    at: begun.at,
    actor: begun.actor,
    participantId,
    action: spec.action,
    call: safely(() => spec.call(variables), { method: '?', path: '?' }),
    subjects: safely(() => spec.subjects(variables, data), []),
    before: begun.before,
    after:
      'data' in outcome
        ? safely(() => spec.after(variables, outcome.data), {
            kind: 'unknown',
            reason: 'could not be read',
          })
        : { kind: 'unknown', reason: 'the call failed; see its result' },
    result: 'data' in outcome ? { kind: 'ok' } : errorResult(outcome.error),
  });
  if (place) appendActivity(place, entry);
}

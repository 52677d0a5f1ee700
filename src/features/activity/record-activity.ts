import type { QueryClient } from '@tanstack/react-query';
import { identityScopedKey } from '@/api/access-token';
import { participantQueries } from '@/api/participant';
import { createEntry, errorResult } from '@/lib/activity/activity-log';
import { activityPlace } from './activity-place';
import { appendActivity } from './activity-store';
import { safely, type Outcome, type Started } from './activity-recorder';

let sequence = 0;

function entryId(): string {
  sequence += 1;
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2);
  return `${Date.now().toString(36)}-${sequence}-${random}`;
}

/**
 * Writes the entry of a settled mutation into the log it was started in. This half of the
 * recorder (the entry's shape, the bounded store) is loaded by the first recorded mutation, not
 * by the first route, which shows no log.
 */
export async function recordActivity(
  queryClient: QueryClient,
  variables: unknown,
  begun: Started,
  outcome: Outcome,
): Promise<void> {
  const { spec } = begun;
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

import { useQueries, useQuery } from '@tanstack/react-query';
import { fleetReadQueries, type FleetSearchId } from '@/api/fleet-reads';
import { pageParticipantOf, participantListQueries } from '@/api/participants';
import { describeError } from '@/lib/errors/api-error';
import {
  fleetSearchGroup,
  MAX_SEARCHED_PARTICIPANTS,
  type FleetLookupState,
  type FleetSearchLinks,
} from './fleet-search';
import type { SearchGroup } from './search-results';

/**
 * Looks `id` up on every participant of the console at once (at most MAX_SEARCHED_PARTICIPANTS,
 * each within FLEET_LOOKUP_TIMEOUT_MS), as the user signed in on each; the group lists each
 * answer as it comes. Undefined for a console of one participant or no id.
 */
export function useFleetSearch(
  id: FleetSearchId | undefined,
  links: FleetSearchLinks,
): SearchGroup | undefined {
  const { data: fleet } = useQuery({
    ...participantListQueries.list(),
    meta: { errorDisplay: 'inline' },
  });
  const participants = fleet?.participants ?? [];
  const isFleet = participants.length > 1 && id !== undefined;
  const asked = isFleet ? participants.slice(0, MAX_SEARCHED_PARTICIPANTS) : [];
  const answers = useQueries({
    queries: asked.map((participant) => ({
      // `id` is defined whenever anyone is asked.
      ...fleetReadQueries.find(participant.name, id ?? { kind: 'user', userId: '' }),
      meta: { errorDisplay: 'inline' as const },
    })),
  });
  if (!isFleet || !fleet) return undefined;
  const here = pageParticipantOf(fleet);
  const stateOf = (name: string): FleetLookupState => {
    const answer = answers[asked.findIndex((participant) => participant.name === name)];
    if (!answer || answer.isPending) return { status: 'checking' };
    if (answer.isError) {
      const { title, message } = describeError(answer.error);
      return { status: 'failed', title, message };
    }
    return answer.data;
  };
  return fleetSearchGroup(
    id,
    participants.map((participant) => ({
      name: participant.name,
      pagePath: participant.pagePath,
      isCurrent: participant === here,
    })),
    stateOf,
    links,
  );
}

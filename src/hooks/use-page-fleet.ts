import { useQuery } from '@tanstack/react-query';
import {
  pageParticipantOf,
  participantListQueries,
  type FleetParticipant,
} from '@/api/participants';

export type PageFleet = {
  /** The participant whose pages these are. */
  current: FleetParticipant;
  /** Every participant of the console, in its order. */
  participants: FleetParticipant[];
};

/**
 * The console's fleet as this page sees it, once the participant list is read and names two
 * participants or more; undefined for a single-participant console (which shows no fleet at all),
 * while the list loads, and when it cannot be read.
 */
export function usePageFleet(): PageFleet | undefined {
  const list = useQuery({ ...participantListQueries.list(), meta: { errorDisplay: 'inline' } });
  if (!list.data || list.data.participants.length < 2) return undefined;
  const current = pageParticipantOf(list.data);
  if (!current) return undefined;
  return { current, participants: list.data.participants };
}

import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getLiveness, getParticipantId, getReadiness, getVersion } from './participant';
import { listParties } from './parties';
import { prefetch } from './prefetch';
import { participantClient, participantKey } from './participants';
import { listConnectedSynchronizers } from './synchronizers';
import { getLedgerEnd } from './updates';

/*
 * What the fleet overview reads of each participant, through that participant's own client and
 * token (participants.ts). One query per participant and fact, so a participant that is down or
 * refuses the caller holds up nothing of the others.
 */

/** Parties read per page of `/v2/parties`. */
const PARTY_PAGE_SIZE = 200;
/** The most parties read of one participant; the overview says when a participant has more. */
export const MAX_FLEET_PARTIES = 1000;

export type HostedParties = {
  /** The parties hosted on the participant (`isLocal`) among those read. */
  parties: string[];
  /** Whether the participant knows more parties than {@link MAX_FLEET_PARTIES}, left unread. */
  isCapped: boolean;
};

/** The participant's hosted parties, at most {@link MAX_FLEET_PARTIES} of its known ones read. */
export async function listHostedParties(
  name: string,
  signal?: AbortSignal,
): Promise<HostedParties> {
  const client = participantClient(name);
  const hosted: string[] = [];
  let pageToken = '';
  for (let read = 0; read < MAX_FLEET_PARTIES;) {
    const page = await listParties(
      {
        pageSize: Math.min(PARTY_PAGE_SIZE, MAX_FLEET_PARTIES - read),
        pageToken,
        identityProviderId: '',
      },
      signal,
      client,
    );
    const details = page.partyDetails;
    read += details.length;
    for (const party of details) if (party.isLocal) hosted.push(party.party);
    pageToken = page.nextPageToken ?? '';
    if (!pageToken || details.length === 0) return { parties: hosted, isCapped: false };
  }
  return { parties: hosted, isCapped: true };
}

/** How often the overview reads each participant's ledger end and health. */
export const FLEET_POLL_MS = 2_000;

export const fleetQueries = {
  /** Everything the console reads of participant `name` from another page than its own. */
  all: (name: string) => participantKey(name),
  liveness: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'health', 'liveness'],
      queryFn: () => getLiveness(participantClient(name)),
    }),
  readiness: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'health', 'readiness'],
      queryFn: () => getReadiness(participantClient(name)),
    }),
  version: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'version'],
      queryFn: () => getVersion(participantClient(name)),
      staleTime: 60_000,
    }),
  participantId: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'participant-id'],
      queryFn: () => getParticipantId(participantClient(name)),
      staleTime: Infinity,
    }),
  ledgerEnd: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'ledger-end'],
      queryFn: ({ signal }) => getLedgerEnd(signal, participantClient(name)),
    }),
  synchronizers: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'synchronizers', 'connected'],
      queryFn: ({ signal }) => listConnectedSynchronizers(signal, participantClient(name)),
      staleTime: 30_000,
    }),
  hostedParties: (name: string) =>
    queryOptions({
      queryKey: [...participantKey(name), 'parties', 'hosted'],
      queryFn: ({ signal }) => listHostedParties(name, signal),
      staleTime: 30_000,
    }),
};

/** Starts every read of the overview for participant `name` (a route loader's head start). */
export function prefetchParticipant(queryClient: QueryClient, name: string): void {
  void prefetch(queryClient, fleetQueries.liveness(name));
  void prefetch(queryClient, fleetQueries.readiness(name));
  void prefetch(queryClient, fleetQueries.version(name));
  void prefetch(queryClient, fleetQueries.participantId(name));
  void prefetch(queryClient, fleetQueries.ledgerEnd(name));
  void prefetch(queryClient, fleetQueries.synchronizers(name));
  void prefetch(queryClient, fleetQueries.hostedParties(name));
}

import { queryOptions } from '@tanstack/react-query';
import { PARTICIPANTS_PATH } from '@ledger-console/edge/console-api';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/errors/api-error';
import {
  checkedApiPath,
  isParticipantName,
  participantApiBase,
  participantPageBase,
} from '@/lib/fleet/participant-path';
import { isRecord } from '@/lib/values/is-record';
import { readParticipantAccessToken } from './access-token';
import { createApiClient, type ApiClient } from './client';
import { setPageParticipantIsDefault } from './participant-scope';

/** More than any console fronts; a longer list is cut here. */
const MAX_PARTICIPANTS = 64;

/** One participant of the console's fleet. */
export type FleetParticipant = {
  name: string;
  /** Its API on this console's origin: `/participants/NAME`, or '' for a lone participant. */
  apiPath: string;
  /** Its pages: `/p/NAME`, or '' for a lone participant. */
  pagePath: string;
  /** The first participant: also at the unprefixed paths, sharing their sign-in. */
  isDefault: boolean;
};

export type Fleet = {
  participants: FleetParticipant[];
  /**
   * Whether the console server lists participants at all; false when the page is served by
   * something else (the Vite dev server, a static host), where this origin is the one participant.
   */
  isListed: boolean;
};

/** The console as a single participant: what a host without the participant list is. */
const LONE_PARTICIPANT: FleetParticipant = {
  name: 'participant',
  apiPath: '',
  pagePath: '',
  isDefault: true,
};

function toParticipant(value: unknown): FleetParticipant | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || !isParticipantName(value.name)) {
    return undefined;
  }
  const { name } = value;
  return {
    name,
    // The server's own paths when they are plain same-origin paths; ours otherwise.
    apiPath: checkedApiPath(value.apiPath) ?? participantApiBase(name),
    pagePath: checkedApiPath(value.pagePath) ?? participantPageBase(name),
    isDefault: value.default === true,
  };
}

/**
 * The console's participants, in its order, exactly one of them the default (the first when the
 * server marks none). A 404 is a host without the console server: one participant, this origin.
 */
export async function listParticipants(): Promise<Fleet> {
  let response: Response;
  try {
    response = await globalThis.fetch(`${env.CONSOLE_BASE_URL}${PARTICIPANTS_PATH}`, {
      headers: { Accept: 'application/json' },
    });
  } catch (error) {
    throw networkError(error);
  }
  if (response.status === 404)
    return remember({ participants: [LONE_PARTICIPANT], isListed: false });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response.status, body);
  const list = isRecord(body) && Array.isArray(body.participants) ? body.participants : undefined;
  const participants = list?.slice(0, MAX_PARTICIPANTS).map(toParticipant);
  if (
    !participants?.length ||
    !participants.every((participant) => participant !== undefined) ||
    new Set(participants.map((participant) => participant.name)).size !== participants.length
  ) {
    throw toApiError(response.status, 'The console server sent an unreadable participant list');
  }
  const defaultIndex = Math.max(
    0,
    participants.findIndex((participant) => participant.isDefault),
  );
  return remember({
    participants: participants.map((participant, index) => ({
      ...participant,
      isDefault: index === defaultIndex,
    })),
    isListed: true,
  });
}

/** The last list read, so a client for a name knows its path and whether it is the default. */
const known = new Map<string, FleetParticipant>();

function remember(fleet: Fleet): Fleet {
  known.clear();
  for (const participant of fleet.participants) known.set(participant.name, participant);
  return fleet;
}

/** The participant as last listed; one with the usual paths when no list named it. */
function participantNamed(name: string): FleetParticipant {
  return (
    known.get(name) ?? {
      name,
      apiPath: participantApiBase(name),
      pagePath: participantPageBase(name),
      isDefault: false,
    }
  );
}

/** The storage scope of a participant's sign-in (access-token.ts): undefined for the default. */
function storageParticipantOf(participant: FleetParticipant): string | undefined {
  return participant.isDefault ? undefined : participant.name;
}

/** Whether a token is stored for the participant (signing in is per participant). */
export function isSignedInOn(name: string): boolean {
  return readParticipantAccessToken(storageParticipantOf(participantNamed(name))) !== undefined;
}

export type ParticipantClient = ApiClient;

const clients = new Map<string, ParticipantClient>();

/**
 * A typed client for another participant of the fleet than the page's own: its API base, and the
 * token stored for it (never the page's, unless it is the same participant's). For pages that read
 * several participants (fleet overview, compare); their query keys start with
 * {@link participantKey}.
 */
export function participantClient(name: string): ParticipantClient {
  const participant = participantNamed(name);
  const baseUrl = `${env.CONSOLE_BASE_URL}${participant.apiPath}`;
  const cacheKey = JSON.stringify([baseUrl, participant.isDefault]);
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const scope = storageParticipantOf(participant);
  const client = createApiClient(baseUrl, () => readParticipantAccessToken(scope));
  clients.set(cacheKey, client);
  return client;
}

/** The start of every query key about a named participant read from another's page. */
export function participantKey(name: string) {
  return ['participant', name] as const;
}

export const participantListQueries = {
  all: () => ['fleet', 'participants'] as const,
  /** The console's participants; fixed for the server's lifetime. */
  list: () =>
    queryOptions({
      queryKey: participantListQueries.all(),
      queryFn: listParticipants,
      staleTime: Infinity,
      retry: 1,
    }),
};

/**
 * On a `/p/NAME/…` page, before the first request: reads the participant list and tells the
 * sign-in storage whether NAME is the default participant (which shares the unprefixed keys).
 * Resolves to the list, or undefined when it could not be read (the page then keeps NAME's own
 * keys, the safe side: no token of another participant is sent).
 */
export async function resolvePageParticipant(): Promise<Fleet | undefined> {
  if (env.PARTICIPANT === undefined) return undefined;
  try {
    const fleet = await listParticipants();
    setPageParticipantIsDefault(
      fleet.participants.some(
        (participant) => participant.name === env.PARTICIPANT && participant.isDefault,
      ),
    );
    return fleet;
  } catch {
    return undefined;
  }
}

/** The participant whose pages these are, in `fleet`: named in the URL, or the default one. */
export function pageParticipantOf(fleet: Fleet): FleetParticipant | undefined {
  if (env.PARTICIPANT === undefined) {
    return fleet.participants.find((participant) => participant.isDefault);
  }
  return fleet.participants.find((participant) => participant.name === env.PARTICIPANT);
}

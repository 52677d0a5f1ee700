import {
  IconAlertTriangle,
  IconCircleCheck,
  IconCircleDashed,
  IconCircleX,
  IconLogin,
} from '@tabler/icons-react';
import type { FleetSearchId, FoundThere } from '@/api/fleet-reads';
import type { RecognizedId } from '@/lib/values/id-recognition';
import { idText } from './recent-items';
import type { SearchGroup, SearchItem, SearchLinks } from './search-results';

/**
 * "On every participant" (issue 28): an id typed in the search box, looked up on each participant
 * of the console, each answer listed with a link to that participant's page for it. A participant
 * that fails, refuses or does not answer in time is listed so, never left out: "not found" is
 * said only where a participant said it. Pure; the palette runs the lookups.
 */

/** A participant as the search lists it. */
export type FleetSearchParticipant = {
  name: string;
  /** Where its pages are: `/p/NAME`, or '' for a lone participant. */
  pagePath: string;
  /** The participant of the page the search was opened on. */
  isCurrent: boolean;
};

/** One participant's answer so far. */
export type FleetLookupState =
  { status: 'checking' } | FoundThere | { status: 'failed'; title: string; message: string };

/** At most this many participants are asked for one id; the rest are named as not asked. */
export const MAX_SEARCHED_PARTICIPANTS = 8;

const KIND_WORDS: Record<FleetSearchId['kind'], string> = {
  update: 'update',
  contract: 'contract',
  party: 'party',
  user: 'user',
};

/**
 * The reading of the input looked up everywhere: its first update, contract or party id, or a
 * user id once the palette has waited for typing to pause (nearly any word is a user id).
 */
export function fleetSearchId(
  candidates: readonly RecognizedId[],
  settledUserId: string | undefined,
): FleetSearchId | undefined {
  for (const candidate of candidates) {
    switch (candidate.kind) {
      case 'update':
      case 'contract':
      case 'party':
        return candidate;
      case 'user':
        if (candidate.userId === settledUserId) return candidate;
        break;
      default:
        break;
    }
  }
  return undefined;
}

/** The participant's own page of `id`, relative to its page path. */
function pageOf(id: FleetSearchId, links: SearchLinks): string {
  switch (id.kind) {
    case 'update':
      return links.update(id.updateId);
    case 'contract':
      return links.contract(id.contractId);
    case 'party':
      return links.party(id.party);
    case 'user':
      return links.user(id.userId, '');
  }
}

export type FleetSearchLinks = {
  /** Where each id leads on a participant, below its page path. */
  ids: SearchLinks;
  /** The sign-in page, coming back to `from` (below the same page path). */
  signIn: (from: string) => string;
};

/**
 * The "On every participant" group for `id`: one item per participant asked, in the console's
 * order, each a document link to that participant's page (its pages are another app root).
 * Undefined with fewer than two participants: the usual results say all there is.
 */
export function fleetSearchGroup(
  id: FleetSearchId,
  participants: readonly FleetSearchParticipant[],
  stateOf: (name: string) => FleetLookupState,
  links: FleetSearchLinks,
): SearchGroup | undefined {
  if (participants.length < 2) return undefined;
  const what = KIND_WORDS[id.kind];
  const value = idText(id);
  const asked = participants.slice(0, MAX_SEARCHED_PARTICIPANTS);
  const items = asked.map((participant): SearchItem => {
    const state = stateOf(participant.name);
    const name = participant.isCurrent
      ? `${participant.name} (this participant)`
      : participant.name;
    const page = pageOf(id, links.ids);
    const base = {
      key: `fleet:${participant.name}:${id.kind}:${value}`,
      to: `${participant.pagePath}${page}`,
      isDocumentLink: true,
    };
    switch (state.status) {
      case 'checking':
        return {
          ...base,
          title: `Asking ${name}…`,
          icon: IconCircleDashed,
        };
      case 'found':
        return {
          ...base,
          title: `Found on ${name}`,
          description: state.detail,
          icon: IconCircleCheck,
        };
      case 'missing':
        return {
          ...base,
          title: `Not on ${name}`,
          description: `No such ${what} that you may see there`,
          icon: IconCircleX,
        };
      case 'signed-out':
        return {
          ...base,
          to: `${participant.pagePath}${links.signIn(page)}`,
          title: `Not signed in on ${participant.name}`,
          description: `Sign in there to look the ${what} up`,
          icon: IconLogin,
        };
      case 'failed':
        return {
          ...base,
          title: `${participant.name}: ${state.title}`,
          description: state.message,
          icon: IconAlertTriangle,
        };
    }
  });
  const notAsked = participants.length - asked.length;
  return {
    label:
      notAsked > 0
        ? `On every participant (the first ${String(asked.length)}; ${String(notAsked)} not asked)`
        : 'On every participant',
    items,
  };
}

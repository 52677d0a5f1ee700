import { env } from '@/env';
import { participantApiBase } from '@/lib/fleet/participant-path';

/*
 * Which participant's sign-in this page uses. Unprefixed pages are the default participant's and
 * keep the keys a single-participant console always had; `/p/NAME/…` pages of the default
 * participant share them (it is the same node), so the page learns at boot, from the console's
 * participant list, whether NAME is the default. Any other participant has keys of its own.
 */

let sharesDefaultKeys = env.PARTICIPANT === undefined;

/**
 * The participant whose stored token and sign-in this page uses: undefined for the default
 * participant's (the unprefixed keys).
 */
export function pageStorageParticipant(): string | undefined {
  return sharesDefaultKeys ? undefined : env.PARTICIPANT;
}

/**
 * Called once at boot, before the first request, on a `/p/NAME/…` page: whether NAME is the
 * console's default participant (its storage keys are the unprefixed ones).
 */
export function setPageParticipantIsDefault(isDefault: boolean): void {
  sharesDefaultKeys = env.PARTICIPANT === undefined || isDefault;
}

/** The API base of a named participant, as this console's server proxies it. */
export function participantApiBaseUrl(participant: string): string {
  return `${env.CONSOLE_BASE_URL}${participantApiBase(participant)}`;
}

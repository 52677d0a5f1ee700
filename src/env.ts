import {
  participantApiBase,
  participantOfPagePath,
  participantPageBase,
} from '@/lib/fleet/participant-path';

/**
 * Build-time settings from `import.meta.env`, checked at module load so a bad setting fails at
 * start-up, not on the first request. Checked by hand rather than with zod: this module is in the
 * first chunk every route loads, and zod would add ~15 KB gzip to it for one field.
 */
function apiBaseUrl(value: unknown): string {
  // Empty = same origin, which is how `npm start` and the Vite dev proxy serve the API. Tests set an
  // absolute origin because Node's Request cannot resolve relative URLs.
  if (value === undefined || value === '') return '';
  if (typeof value === 'string' && /^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) {
    return value.replace(/\/+$/, '');
  }
  throw new Error(
    `VITE_API_BASE_URL must be empty or an http(s) URL, got ${JSON.stringify(value)}`,
  );
}

/**
 * The participant whose pages these are: `/p/NAME/…` names one of a fleet (issue 28); an
 * unprefixed page is the default participant's, addressed as a single-participant console always
 * was. Read once at load: switching participant is a document navigation, so one page never holds
 * two participants' caches, streams or tokens.
 */
function pageParticipant(): string | undefined {
  // Node (the api tests) has no location.
  const pathname = typeof location === 'undefined' ? '/' : location.pathname;
  return participantOfPagePath(pathname)?.participant;
}

const CONSOLE_BASE_URL = apiBaseUrl(import.meta.env.VITE_API_BASE_URL);
const PARTICIPANT = pageParticipant();

export const env = {
  /** The console server itself: its fleet-wide endpoints (`/__console/participants`). */
  CONSOLE_BASE_URL,
  /** The participant named in the page URL; undefined on unprefixed pages. */
  PARTICIPANT,
  /** The router's basename: `/p/NAME` on a named participant's pages, '' otherwise. */
  PAGE_BASE: PARTICIPANT === undefined ? '' : participantPageBase(PARTICIPANT),
  /** This page's participant's API (REST, websockets, `/__console`, `/__sandbox`). */
  API_BASE_URL:
    PARTICIPANT === undefined
      ? CONSOLE_BASE_URL
      : `${CONSOLE_BASE_URL}${participantApiBase(PARTICIPANT)}`,
} as const;

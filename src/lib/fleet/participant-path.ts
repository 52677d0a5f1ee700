/**
 * Where a fleet participant lives in the console's URLs (issue 28): its pages under
 * `/p/NAME/…`, its API under `/participants/NAME/…`. Pure, so the boot code, the router and the
 * tests agree on one reading of a path.
 */

/** A participant name as the console server accepts it (lower case, 1–63 characters). */
const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The page prefix's first segment. */
const PAGE_SEGMENT = 'p';
/** The API prefix's first segment. */
const API_SEGMENT = 'participants';

export function isParticipantName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** Why `name` is not a participant name, worded for the user; undefined when it is one. */
export function participantNameProblem(name: string): string | undefined {
  if (isParticipantName(name)) return undefined;
  return `"${name.slice(0, 80)}" is not a participant name: use 1 to 63 lower-case letters, digits, "-" or "_", starting with a letter or digit.`;
}

export type ParticipantPage = {
  /** The participant the page belongs to. */
  participant: string;
  /** The page's path within that participant's console (starts with `/`). */
  path: string;
};

/**
 * The participant a page path belongs to: `/p/NAME` or `/p/NAME/…` with a valid name; undefined
 * for an unprefixed path (the default participant's) or a prefix with an invalid name.
 */
export function participantOfPagePath(pathname: string): ParticipantPage | undefined {
  const match = /^\/p\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return undefined;
  const participant = match[1] ?? '';
  if (!isParticipantName(participant)) return undefined;
  return { participant, path: match[2] ?? '/' };
}

/** `/p/NAME`: the router's basename on that participant's pages. */
export function participantPageBase(participant: string): string {
  return `/${PAGE_SEGMENT}/${participant}`;
}

/** `/participants/NAME`: the console server's prefix for that participant's API. */
export function participantApiBase(participant: string): string {
  return `/${API_SEGMENT}/${participant}`;
}

/**
 * The same page on another participant: `/p/OTHER/<path>` kept with its search and hash. `path`
 * is the page's path within its participant (the router's pathname, without basename).
 */
export function pageOnParticipant(participant: string, path: string, rest = ''): string {
  const within = path.startsWith('/') ? path : `/${path}`;
  return `${participantPageBase(participant)}${within === '/' ? '/' : within}${rest}`;
}

/**
 * The path of a participant's API as the console server lists it (`apiPath`), checked: a
 * same-origin absolute path of plain segments, so a list answer cannot send requests (and
 * tokens) elsewhere. Undefined for anything else.
 */
export function checkedApiPath(apiPath: unknown): string | undefined {
  if (typeof apiPath !== 'string' || apiPath.length > 200) return undefined;
  if (!/^(\/[A-Za-z0-9_-]+)+$/.test(apiPath)) return undefined;
  return apiPath;
}

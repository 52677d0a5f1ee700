/** Only to parse a location; never shown or requested. */
const BASE = 'http://console.invalid';

/**
 * A location of this console (a path with its query, as the router and the history keep it) as a
 * URL to read; undefined when it does not parse or names another origin. Pure.
 */
export function parseOwnLocation(location: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(location, BASE);
  } catch {
    return undefined;
  }
  return url.origin === BASE ? url : undefined;
}

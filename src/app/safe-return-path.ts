import { paths } from './paths';

/**
 * Only same-origin paths are followed after signing in. Resolved as a URL, so `//host`, `/\host`
 * and the like, which browsers read as other origins, fall back to the overview.
 */
export function safeReturnPath(from: string | null): string {
  if (!from?.startsWith('/')) return paths.overview.to();
  const url = new URL(from, window.location.origin);
  if (url.origin !== window.location.origin || url.pathname.startsWith(paths.signIn.pattern)) {
    return paths.overview.to();
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

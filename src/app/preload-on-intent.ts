import { matchRoutes, type RouteObject } from 'react-router';

/** What of the data router this needs: its route tree (lazy routes not yet loaded) and base. */
export type PreloadableRouter = { routes: readonly RouteObject[]; basename: string | undefined };

const MATCHES_KEPT = 200;

/**
 * Starts loading a page's code when the pointer comes onto a link to it, or focus reaches one:
 * the route's `lazy` is called then, so its chunks (dozens for some pages) are on their way while
 * the user decides, instead of from the click on. The click's own task then no longer appends a
 * preload link per chunk (20-60 ms for the package page's in traces) before it navigates.
 *
 * Only links of this origin are read, and only routes of the tree are loaded; nothing is
 * navigated and no API request is made (a route's loader still runs on the click alone).
 * Returns a function that stops listening.
 */
export function preloadRoutesOnIntent(router: PreloadableRouter, target: Document = document) {
  const started = new WeakSet<RouteObject>();
  // Matching ranks the whole route tree (a few ms on a slow machine), and the pointer passes over
  // the same links again and again: the routes of the paths seen last are kept.
  const matched = new Map<string, RouteObject[]>();
  const routesOf = (pathname: string) => {
    let routes = matched.get(pathname);
    if (routes === undefined) {
      const matches = matchRoutes([...router.routes], pathname, router.basename) ?? [];
      routes = matches.map((match) => match.route);
      if (matched.size >= MATCHES_KEPT) matched.clear();
      matched.set(pathname, routes);
    }
    return routes;
  };
  const onIntent = (event: Event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(anchor instanceof HTMLAnchorElement)) return;
    if (anchor.origin !== target.location.origin) return;
    for (const route of routesOf(anchor.pathname)) {
      const { lazy } = route;
      if (typeof lazy !== 'function' || started.has(route)) continue;
      started.add(route);
      // In a task of its own, not the pointer's: the import adds a preload link per chunk. A
      // chunk that failed to load is tried again by the next intent, and by the click.
      setTimeout(() => {
        lazy().catch(() => {
          started.delete(route);
        });
      }, 0);
    }
  };
  target.addEventListener('pointerover', onIntent, { passive: true });
  target.addEventListener('focusin', onIntent);
  return () => {
    target.removeEventListener('pointerover', onIntent);
    target.removeEventListener('focusin', onIntent);
  };
}

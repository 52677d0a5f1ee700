import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { paths } from './paths';
import { appRoutes, linkNavigationOf } from './router';

function patternsOf(routes: readonly RouteObject[]): string[] {
  return routes.flatMap((route) => [
    ...(route.path === undefined ? [] : [route.path]),
    ...patternsOf(route.children ?? []),
  ]);
}

describe('the route table', () => {
  // e2e/accessibility.spec.ts scans a page per entry of `paths` (its list is typed by them), so a
  // route the router has but `paths` lacks would go unscanned.
  it('has exactly the routes paths.ts names, and the catch-all', () => {
    const routed = patternsOf(appRoutes(new QueryClient()));
    expect(routed).toHaveLength(new Set(routed).size);
    expect([...routed].sort()).toEqual(
      [...Object.values(paths).map((path) => path.pattern), '*'].sort(),
    );
  });
});

describe('linkNavigationOf', () => {
  it('puts the router’s basename before a link’s path, and navigates within it', async () => {
    const routes = [{ path: '*', element: null }];
    const fleet = createMemoryRouter(routes, {
      basename: '/p/north',
      initialEntries: ['/p/north/users'],
    });
    const links = linkNavigationOf(fleet);
    expect(links.href('/parties/alice')).toBe('/p/north/parties/alice');
    links.navigate('/parties/alice');
    await vi.waitFor(() => {
      // The router adds its basename to the path it is given, as for its own links.
      expect(fleet.state.location.pathname).toBe('/p/north/parties/alice');
    });

    const single = createMemoryRouter(routes, { initialEntries: ['/users'] });
    expect(linkNavigationOf(single).href('/parties/alice')).toBe('/parties/alice');
  });
});

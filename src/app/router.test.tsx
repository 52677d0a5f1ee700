import { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from './paths';
import { appRoutes } from './router';

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

import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './pages/not-found-page';
import { RouteErrorPage } from './pages/route-error-page';
import { paths } from './paths';

/** The route tree, shared by the browser router and the component tests' memory router. */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      element: <AppLayout />,
      // Shown while the first route's code loads.
      HydrateFallback: SectionSkeleton,
      children: [
        {
          // Pathless, so a failing page keeps the shell and its navigation.
          errorElement: <RouteErrorPage />,
          children: [
            {
              path: paths.overview.pattern,
              lazy: async () => {
                const page = await import('./pages/participant-overview-page');
                return {
                  loader: page.participantOverviewLoader(queryClient),
                  Component: page.ParticipantOverviewPage,
                };
              },
            },
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}

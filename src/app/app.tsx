import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { LinkNavigationContext } from '@/components/link-navigation';
import { whenIdle } from '@/lib/scheduling/when-idle';
import { prepareTimeFormats } from '@/lib/text/format';
import { AppProviders } from './app-providers';
import { preloadRoutesOnIntent } from './preload-on-intent';
import { createQueryClient } from './query-client';
import { createAppRouter, linkNavigationOf } from './router';

export function App() {
  // One client and router for the app's lifetime; useState keeps them stable across renders.
  const [queryClient] = useState(() => createQueryClient());
  const [router] = useState(() => createAppRouter(queryClient));
  useEffect(() => preloadRoutesOnIntent(router), [router]);
  // Off the first render of the first table of times (see prepareTimeFormats).
  useEffect(() => whenIdle(prepareTimeFormats), []);
  const [linkNavigation] = useState(() => linkNavigationOf(router));

  return (
    <AppProviders queryClient={queryClient}>
      <LinkNavigationContext value={linkNavigation}>
        <RouterProvider router={router} />
      </LinkNavigationContext>
    </AppProviders>
  );
}

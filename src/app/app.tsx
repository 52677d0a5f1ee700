import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { whenIdle } from '@/lib/scheduling/when-idle';
import { prepareTimeFormats } from '@/lib/text/format';
import { AppProviders } from './app-providers';
import { preloadRoutesOnIntent } from './preload-on-intent';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

export function App() {
  // One client and router for the app's lifetime; useState keeps them stable across renders.
  const [queryClient] = useState(() => createQueryClient());
  const [router] = useState(() => createAppRouter(queryClient));
  useEffect(() => preloadRoutesOnIntent(router), [router]);
  // Off the first render of the first table of times (see prepareTimeFormats).
  useEffect(() => whenIdle(prepareTimeFormats), []);

  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { createQueryClient } from '@/app/query-client';
import { appRoutes } from '@/app/router';
import { routeFetchToSandbox, type SandboxNetworkOptions } from './sandbox-network';

/**
 * Renders the whole app at `path` against an in-process sandbox: the real router, loaders,
 * queries and API client, with only `fetch` pointed at the sandbox instead of the network.
 */
export function renderRoute(path: string, options: SandboxNetworkOptions = {}) {
  const network = routeFetchToSandbox(options);
  const app = renderApp(path);
  // After the app's own clean-up is registered, so the sandbox outlives the unmount.
  onTestFinished(() => {
    network.sandbox.close();
  });
  return {
    ...app,
    sandbox: network.sandbox,
    sandboxFetch: network.sandboxFetch,
    interceptNetwork: network.intercept,
    /** Drops every open websocket stream, as a lost connection would (reconnect tests). */
    dropStreams: network.dropStreams,
  };
}

/** The app at `path` with the real router, loaders and query client, on whatever fetch is routed to. */
export function renderApp(path: string) {
  const queryClient = createQueryClient({ retries: 0 });
  const router = createMemoryRouter(appRoutes(queryClient), { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  onTestFinished(() => {
    view.unmount();
    queryClient.clear();
  });
  return { ...view, user, router, queryClient };
}

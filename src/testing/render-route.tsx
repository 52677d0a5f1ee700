import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { onTestFinished } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { createQueryClient } from '@/app/query-client';
import { appRoutes, linkNavigationOf } from '@/app/router';
import { LinkNavigationContext } from '@/components/link-navigation';
import {
  routeFetchToParticipants,
  routeFetchToSandbox,
  type FleetTestMember,
  type ParticipantsNetworkOptions,
  type SandboxNetworkOptions,
} from './sandbox-network';

/**
 * Renders the whole app at `path` against an in-process sandbox: the real router, loaders,
 * queries and API client, with only `fetch` pointed at the sandbox instead of the network.
 */
export function renderRoute(path: string, options: SandboxNetworkOptions = {}) {
  const network = routeFetchToSandbox(options);
  const app = mountApp(path, () => {
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

/**
 * Renders the whole app at `path` against several in-process participants, routed as the console
 * server routes a fleet (routeFetchToParticipants): the page is the first member's unless the
 * modules were loaded for a `/p/NAME/…` location.
 */
export function renderFleetRoute(
  path: string,
  members: readonly FleetTestMember[],
  options: ParticipantsNetworkOptions = {},
) {
  const network = routeFetchToParticipants(members, options);
  return { ...mountApp(path), network };
}

/**
 * The app at `path` in a memory router, unmounted (its cache cleared, then `cleanUp` run) when
 * the test ends.
 */
function mountApp(path: string, cleanUp?: () => void) {
  const queryClient = createQueryClient({ retries: 0 });
  const router = createMemoryRouter(appRoutes(queryClient), { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <LinkNavigationContext value={linkNavigationOf(router)}>
        <RouterProvider router={router} />
      </LinkNavigationContext>
    </AppProviders>,
  );
  onTestFinished(() => {
    view.unmount();
    queryClient.clear();
    cleanUp?.();
  });
  return { ...view, user, router, queryClient };
}

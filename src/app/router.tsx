import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { env } from '@/env';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import type { LinkNavigation } from '@/components/link-navigation';
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
            {
              path: paths.signIn.pattern,
              lazy: async () => {
                const page = await import('./pages/sign-in-page');
                return { Component: page.SignInPage };
              },
            },
            {
              path: paths.signInCallback.pattern,
              lazy: async () => {
                const page = await import('./pages/sign-in-callback-page');
                return { Component: page.SignInCallbackPage };
              },
            },
            {
              path: paths.accessRequest.pattern,
              lazy: async () => {
                const page = await import('./pages/access-request-page');
                return { Component: page.AccessRequestPage };
              },
            },
            {
              path: paths.users.pattern,
              lazy: async () => {
                const page = await import('./pages/users-page');
                return {
                  loader: page.usersPageLoader(queryClient),
                  shouldRevalidate: page.usersPageShouldRevalidate(queryClient),
                  Component: page.UsersPage,
                };
              },
            },
            {
              path: paths.newUser.pattern,
              lazy: async () => {
                const page = await import('./pages/new-user-page');
                return { Component: page.NewUserPage };
              },
            },
            {
              path: paths.onboard.pattern,
              lazy: async () => {
                const page = await import('./pages/onboard-page');
                return { Component: page.OnboardPage };
              },
            },
            {
              path: paths.usersImport.pattern,
              lazy: async () => {
                const page = await import('./pages/users-import-page');
                return { Component: page.UsersImportPage };
              },
            },
            {
              path: paths.user.pattern,
              lazy: async () => {
                const page = await import('./pages/user-page');
                return { loader: page.userPageLoader(queryClient), Component: page.UserPage };
              },
            },
            {
              path: paths.identityProviders.pattern,
              lazy: async () => {
                const page = await import('./pages/identity-providers-page');
                return {
                  loader: page.identityProvidersPageLoader(queryClient),
                  Component: page.IdentityProvidersPage,
                };
              },
            },
            {
              path: paths.newIdentityProvider.pattern,
              lazy: async () => {
                const page = await import('./pages/new-identity-provider-page');
                return { Component: page.NewIdentityProviderPage };
              },
            },
            {
              path: paths.identityProvider.pattern,
              lazy: async () => {
                const page = await import('./pages/identity-provider-page');
                return {
                  loader: page.identityProviderPageLoader(queryClient),
                  Component: page.IdentityProviderPage,
                };
              },
            },
            {
              path: paths.parties.pattern,
              lazy: async () => {
                const page = await import('./pages/parties-page');
                return {
                  loader: page.partiesPageLoader(queryClient),
                  shouldRevalidate: page.partiesPageShouldRevalidate(queryClient),
                  Component: page.PartiesPage,
                };
              },
            },
            {
              path: paths.newParty.pattern,
              lazy: async () => {
                const page = await import('./pages/new-party-page');
                return { Component: page.NewPartyPage };
              },
            },
            {
              path: paths.newExternalParty.pattern,
              lazy: async () => {
                const page = await import('./pages/new-external-party-page');
                return { Component: page.NewExternalPartyPage };
              },
            },
            {
              path: paths.party.pattern,
              lazy: async () => {
                const page = await import('./pages/party-page');
                return { loader: page.partyPageLoader(queryClient), Component: page.PartyPage };
              },
            },
            {
              path: paths.packages.pattern,
              lazy: async () => {
                const page = await import('./pages/packages-page');
                return {
                  loader: page.packagesPageLoader(queryClient),
                  Component: page.PackagesPage,
                };
              },
            },
            {
              path: paths.uploadDar.pattern,
              lazy: async () => {
                const page = await import('./pages/upload-dar-page');
                return { Component: page.UploadDarPage };
              },
            },
            {
              path: paths.vettingPlan.pattern,
              lazy: async () => {
                const page = await import('./pages/vetting-plan-page');
                return {
                  loader: page.vettingPlanPageLoader(queryClient),
                  Component: page.VettingPlanPage,
                };
              },
            },
            {
              path: paths.package.pattern,
              lazy: async () => {
                const page = await import('./pages/package-page');
                return { loader: page.packagePageLoader(queryClient), Component: page.PackagePage };
              },
            },
            {
              path: paths.composer.pattern,
              lazy: async () => {
                const page = await import('./pages/composer-page');
                return { Component: page.ComposerPage };
              },
            },
            {
              path: paths.transactions.pattern,
              lazy: async () => {
                const page = await import('./pages/transactions-page');
                // No loader: selecting a node changes the search params, which would re-run it.
                return { Component: page.TransactionsPage };
              },
            },
            {
              path: paths.contracts.pattern,
              lazy: async () => {
                const page = await import('./pages/contracts-page');
                return { Component: page.ContractsPage };
              },
            },
            {
              path: paths.live.pattern,
              lazy: async () => {
                const page = await import('./pages/live-page');
                return { Component: page.LivePage };
              },
            },
            {
              path: paths.contract.pattern,
              lazy: async () => {
                const page = await import('./pages/contract-page');
                return { Component: page.ContractPage };
              },
            },
            {
              path: paths.tokenDoctor.pattern,
              lazy: async () => {
                const page = await import('./pages/token-doctor-page');
                return { Component: page.TokenDoctorPage };
              },
            },
            {
              path: paths.activity.pattern,
              lazy: async () => {
                const page = await import('./pages/activity-page');
                return { Component: page.ActivityPage };
              },
            },
            {
              path: paths.traffic.pattern,
              lazy: async () => {
                const page = await import('./pages/traffic-page');
                return { Component: page.TrafficPage };
              },
            },
            {
              path: paths.fleet.pattern,
              lazy: async () => {
                const page = await import('./pages/fleet-page');
                return { loader: page.fleetPageLoader(queryClient), Component: page.FleetPage };
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
  // A fleet participant's pages live under `/p/NAME` (env.ts); links stay participant-relative.
  return createBrowserRouter(
    appRoutes(queryClient),
    env.PAGE_BASE === '' ? {} : { basename: env.PAGE_BASE },
  );
}

/**
 * What PlainLinks (ADR 029) need of a router: its basename for their hrefs, its navigate for their
 * clicks. The router object's, not a hook's: `useNavigate` reads the route context, so a component
 * calling it (the shell) would render again on every navigation.
 */
export function linkNavigationOf(router: {
  basename: string | undefined;
  navigate: (to: string) => Promise<void>;
}): LinkNavigation {
  const base = (router.basename ?? '').replace(/\/$/, '');
  return {
    href: (to) => `${base}${to}`,
    navigate: (to) => {
      void router.navigate(to);
    },
  };
}

import type { QueryClient } from '@tanstack/react-query';
import { prefetchParticipant } from '@/api/fleet-overview';
import { participantListQueries } from '@/api/participants';
import { prefetch } from '@/api/prefetch';
import { PageHeader } from '@/components/page-header';
import { FleetOverview } from '@/features/fleet/fleet-overview';
import { paths } from '@/app/paths';

/** Starts every participant's reads as soon as the route is known, without waiting for them. */
export function fleetPageLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, participantListQueries.list()).then((fleet) => {
      for (const { name } of fleet?.participants ?? []) prefetchParticipant(queryClient, name);
    });
    return null;
  };
}

export function FleetPage() {
  return (
    <>
      <PageHeader
        title="Fleet"
        description="Every participant this console addresses: health, version, ledger end and its movement, synchronizers and hosted parties. Each is read with its own sign-in."
      />
      <FleetOverview returnPath={paths.fleet.to()} signInPath={paths.signIn.to} />
    </>
  );
}

import { PageHeader } from '@/components/page-header';
import { FleetOverview } from '@/features/fleet/fleet-overview';
import { paths } from '@/app/paths';

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

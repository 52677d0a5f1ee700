import { Stack } from '@mantine/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { packageQueries } from '@/api/packages';
import { participantQueries } from '@/api/participant';
import { partyQueries } from '@/api/parties';
import { prefetch } from '@/api/prefetch';
import { pruningQueries } from '@/api/pruning';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { isEmptyScope, readScopeOf, updateQueries } from '@/api/updates';
import { userQueries } from '@/api/users';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import {
  PackagesStat,
  PartiesStat,
  PruningStat,
  SynchronizersStat,
  UsersStat,
} from '@/features/dashboard/counts';
import { LatestActivity } from '@/features/dashboard/latest-activity';
import { LedgerEndStat } from '@/features/dashboard/ledger-end-stat';
import { StatCard } from '@/features/dashboard/stat-card';
import { ParticipantHealth } from '@/features/participant/participant-health';
import { ParticipantInfo } from '@/features/participant/participant-info';
import { accessOf } from '@/lib/access/access-rights';
import { paths } from '@/app/paths';
import classes from './participant-overview-page.module.css';

/**
 * Starts every request of the page at once, without waiting: each card owns its loading and
 * error state, so a participant whose version call fails still shows its health. Only the counts
 * an admin may read and the caller's transactions wait for the caller, which the app shell has
 * asked for already.
 */
export function participantOverviewLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, participantQueries.version());
    void prefetch(queryClient, participantQueries.participantId());
    void prefetch(queryClient, participantQueries.liveness());
    void prefetch(queryClient, participantQueries.readiness());
    void prefetch(queryClient, updateQueries.ledgerEnd());
    void prefetch(queryClient, pruningQueries.offset());
    void prefetch(queryClient, packageQueries.ids());
    void prefetch(queryClient, synchronizerQueries.connected());
    void prefetch(queryClient, sessionQueries.caller()).then((caller) => {
      if (caller === undefined) return;
      if (accessOf(caller).canManageUsers) {
        void prefetch(queryClient, userQueries.count());
        void prefetch(queryClient, partyQueries.count());
      }
      const scope = readScopeOf(caller);
      // Failures are kept by the query and shown by the card, as prefetch does.
      if (!isEmptyScope(scope)) {
        void queryClient.infiniteQuery(updateQueries.recent(scope)).catch(() => undefined);
      }
    });
    return null;
  };
}

const latestLinks = { update: (updateId: string) => paths.transactions.to(updateId) };

export function ParticipantOverviewPage() {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  // The admin changes log is for those who make them, as in the navigation.
  const mayReadActivity = caller.data !== undefined && accessOf(caller.data).canManageUsers;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Participant overview"
        description="The participant this console is connected to, and what it holds."
      />
      <div className={classes.stats}>
        <StatCard title="Ledger end" links={[{ to: paths.live.to(), label: 'Watch live' }]}>
          <LedgerEndStat />
        </StatCard>
        <StatCard title="Users" links={[{ to: paths.users.to(), label: 'All users' }]}>
          <UsersStat />
        </StatCard>
        <StatCard title="Parties" links={[{ to: paths.parties.to(), label: 'All parties' }]}>
          <PartiesStat />
        </StatCard>
        <StatCard title="Packages" links={[{ to: paths.packages.to(), label: 'All packages' }]}>
          <PackagesStat />
        </StatCard>
        <StatCard title="Connected synchronizers">
          <SynchronizersStat />
        </StatCard>
        <StatCard title="Pruned up to" links={[{ to: paths.transactions.to(), label: 'History' }]}>
          <PruningStat />
        </StatCard>
      </div>
      <div className={classes.sections}>
        <SectionCard title="Participant">
          <QueryBoundary>
            <ParticipantInfo />
          </QueryBoundary>
        </SectionCard>
        <SectionCard title="Health">
          <QueryBoundary>
            <ParticipantHealth />
          </QueryBoundary>
        </SectionCard>
      </div>
      <StatCard
        title="Latest activity"
        links={[
          { to: paths.transactions.to(), label: 'All transactions' },
          ...(mayReadActivity ? [{ to: paths.activity.to(), label: 'Admin changes' }] : []),
        ]}
      >
        <LatestActivity links={latestLinks} />
      </StatCard>
    </Stack>
  );
}

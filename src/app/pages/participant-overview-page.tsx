import { SimpleGrid } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { prefetch } from '@/api/prefetch';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { ParticipantHealth } from '@/features/participant/participant-health';
import { ParticipantInfo } from '@/features/participant/participant-info';

/**
 * Starts every request of the page at once, without waiting: each section owns its loading and
 * error state, so a participant whose version call fails still shows its health.
 */
export function participantOverviewLoader(queryClient: QueryClient) {
  return () => {
    void prefetch(queryClient, participantQueries.version());
    void prefetch(queryClient, participantQueries.participantId());
    void prefetch(queryClient, participantQueries.liveness());
    void prefetch(queryClient, participantQueries.readiness());
    return null;
  };
}

export function ParticipantOverviewPage() {
  return (
    <>
      <PageHeader
        title="Participant overview"
        description="The participant this console is connected to."
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
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
      </SimpleGrid>
    </>
  );
}

import { SimpleGrid } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { ParticipantHealth } from '@/features/participant/participant-health';
import { ParticipantInfo } from '@/features/participant/participant-info';

// A failed prefetch is not lost: the query keeps its error and the section's boundary shows it.
const ignore = () => undefined;

/**
 * Starts every request of the page at once, without waiting: each section owns its loading and
 * error state, so a participant whose version call fails still shows its health.
 */
export function participantOverviewLoader(queryClient: QueryClient) {
  return () => {
    void queryClient.query(participantQueries.version()).catch(ignore);
    void queryClient.query(participantQueries.participantId()).catch(ignore);
    void queryClient.query(participantQueries.liveness()).catch(ignore);
    void queryClient.query(participantQueries.readiness()).catch(ignore);
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

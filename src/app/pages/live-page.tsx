import { Stack } from '@mantine/core';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { LiveUpdates } from '@/features/live/live-updates';
import { paths } from '@/app/paths';

const liveLinks = { update: (updateId: string) => paths.transactions.to(updateId) };

export function LivePage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Live" description="Updates as the participant commits them." />
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>
        <LiveUpdates links={liveLinks} />
      </QueryBoundary>
    </Stack>
  );
}

import { PageHeader } from '@/components/page-header';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { ActivityLogPanel } from '@/features/activity/activity-log-panel';

export function ActivityPage() {
  return (
    <>
      <PageHeader
        title="Activity"
        description="The admin changes made from this console by you, on this participant: who, when, which call, before and after, and the result. Kept in this browser only."
      />
      <QueryBoundary>
        <ActivityLogPanel />
      </QueryBoundary>
    </>
  );
}

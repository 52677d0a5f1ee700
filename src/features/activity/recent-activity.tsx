import { Anchor, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { participantQueries } from '@/api/participant';
import { SectionCard } from '@/components/section-card';
import { concerns } from '@/lib/activity/activity-log';
import { type ActivitySubject } from '@/lib/activity/activity-spec';
import { useActivityLog } from './use-activity-log';
import { ActivityTable } from './activity-table';

const RECENT = 5;

export type RecentActivityProps = {
  /** The user (by id and IdP) or party whose entries to show. */
  subject: ActivitySubject;
  /** The activity page's search for the shared log's entries that mention the user or party. */
  activityHref: string;
};

/** The latest changes this console made to one user or party, from the local activity log. */
export function RecentActivity({ subject, activityHref }: RecentActivityProps) {
  const { data: participantId } = useSuspenseQuery(participantQueries.participantId());
  const { entries } = useActivityLog(participantId);
  const own = entries.filter((entry) => concerns(entry, subject));
  return (
    <SectionCard title="Recent activity">
      {own.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes made from this browser.
        </Text>
      ) : (
        <ActivityTable label="Recent activity" entries={own.slice(0, RECENT)} isCompact />
      )}
      <Anchor component={Link} to={activityHref} size="sm" mt="sm" display="block">
        {subject.kind === 'party'
          ? 'Audit log entries that mention this party'
          : 'Audit log entries that mention this user'}
      </Anchor>
    </SectionCard>
  );
}

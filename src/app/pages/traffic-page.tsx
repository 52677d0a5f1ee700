import { Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { sessionQueries } from '@/api/session';
import { isTrafficWindow, type TrafficWindow } from '@/api/traffic';
import { isEmptyScope, readScopeOf } from '@/api/updates';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { TrafficPanel } from '@/features/traffic/traffic-panel';
import { accessOf } from '@/lib/access/access-rights';
import { paths } from '@/app/paths';

const DEFAULT_WINDOW: TrafficWindow = 'day';
const updateHref = (updateId: string) => paths.transactions.to(updateId);

/** The window is in the URL (`?window=week`), so a report can be shared and reloaded. */
export function TrafficPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const given = searchParams.get('window');
  const window = isTrafficWindow(given) ? given : DEFAULT_WINDOW;
  const handleWindowChange = useCallback(
    (next: TrafficWindow) => {
      setSearchParams(next === DEFAULT_WINDOW ? {} : { window: next });
    },
    [setSearchParams],
  );
  return (
    <Stack gap="lg">
      <PageHeader
        title="Traffic"
        description="The traffic cost this participant paid for the commands it submitted, by user, party, template and choice."
      />
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>
        <TrafficForCaller window={window} onWindowChange={handleWindowChange} />
      </QueryBoundary>
    </Stack>
  );
}

function TrafficForCaller({
  window,
  onWindowChange,
}: {
  window: TrafficWindow;
  onWindowChange: (window: TrafficWindow) => void;
}) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const scope = readScopeOf(caller);
  const access = accessOf(caller);
  if (!access.canReadCompletions || isEmptyScope(scope)) {
    return <NoReadScopeState title="You may not read any command completions" />;
  }
  return (
    <TrafficPanel
      updateHref={updateHref}
      window={window}
      onWindowChange={onWindowChange}
      scope={scope}
      caller={caller}
      canListUsers={access.canManageUsers}
    />
  );
}

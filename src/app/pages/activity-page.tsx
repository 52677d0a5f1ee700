import { Tabs } from '@mantine/core';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { ActivityLogPanel } from '@/features/activity/activity-log-panel';
import { AuditLogPanel } from '@/features/activity/audit-log-panel';
import {
  parseAuditView,
  toAuditSearchParams,
  type AuditView,
} from '@/features/activity/audit-view';

type LogTab = 'shared' | 'browser';

/**
 * The shared audit log of the console server first; this browser's own log (with before and after
 * of what it changed) on its own tab, `?log=browser`, which is all there is without the server.
 */
export function ActivityPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: LogTab = searchParams.get('log') === 'browser' ? 'browser' : 'shared';
  const view = parseAuditView(searchParams);
  const showTab = useCallback(
    (next: LogTab) => {
      setSearchParams((current) => {
        const params = new URLSearchParams(current);
        if (next === 'browser') params.set('log', 'browser');
        else params.delete('log');
        return params;
      });
    },
    [setSearchParams],
  );
  const handleViewChange = useCallback(
    (next: AuditView) => {
      setSearchParams(toAuditSearchParams(next));
    },
    [setSearchParams],
  );

  return (
    <>
      <PageHeader
        title="Activity"
        description="Who changed what on this participant through this console, when, and with which result: the console server's shared log of everyone's calls, and what this browser recorded of its own."
      />
      <Tabs
        value={tab}
        onChange={(value) => {
          showTab(value === 'browser' ? 'browser' : 'shared');
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="shared">Shared log</Tabs.Tab>
          <Tabs.Tab value="browser">This browser</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="shared">
          <AuditLogPanel
            view={view}
            onViewChange={handleViewChange}
            onShowBrowserLog={() => {
              showTab('browser');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="browser">
          <QueryBoundary>
            <ActivityLogPanel />
          </QueryBoundary>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

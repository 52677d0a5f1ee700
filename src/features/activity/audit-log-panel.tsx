import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { auditMutations, auditQueries, type AuditPageRequest } from '@/api/audit';
import { participantQueries } from '@/api/participant';
import { PageSizeSelect } from '@/components/data-table/page-size-select';
import { TokenPage } from '@/components/data-table/token-page';
import { EmptyState } from '@/components/feedback/empty-state';
import { notify } from '@/components/feedback/notify';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import {
  auditScopeText,
  auditStoreText,
  hasAuditFilter,
  MAX_AUDIT_EXPORT_ENTRIES,
  pairBrowserEntries,
  toAuditQuery,
  type AuditFilter,
  type AuditQuery,
} from '@/lib/activity/audit-log';
import { currentPageToken } from '@/lib/navigation/page-trail';
import type { ActivityEntry } from '@/lib/activity/activity-log';
import type { ActivityExportFormat } from './activity-export';
import { AuditFilters } from './audit-filters';
import { downloadAudit } from './audit-export';
import { AuditTable } from './audit-table';
import { AUDIT_PAGE_SIZES, withAuditFilter, type AuditView } from './audit-view';
import { useActivityLog } from './use-activity-log';
import { buttonBusy } from '@/components/form/button-busy';

export type AuditLogPanelProps = {
  /** Filters and page, from the URL. */
  view: AuditView;
  onViewChange: (view: AuditView) => void;
  /** Shows this browser's own log instead (when the console server keeps no shared one). */
  onShowBrowserLog: () => void;
};

/**
 * The console server's shared audit log: every state-changing call that went through it, by
 * anyone the caller may see, filtered and paged by the server, exportable as a file.
 */
export function AuditLogPanel({ view, onViewChange, onShowBrowserLog }: AuditLogPanelProps) {
  // "Last hour" ends when it is chosen (or the page opened): its pages then share one start.
  const [anchor, setAnchor] = useState(() => Date.now());
  const query = toAuditQuery(view, anchor);
  const requestKey = JSON.stringify([query, view.pageSize, currentPageToken(view)]);
  const request = useMemo<AuditPageRequest>(
    () => ({ ...query, pageSize: view.pageSize, pageToken: currentPageToken(view) }),
    // The key stands for exactly these values; a new object per render would refetch nothing
    // but would make the deferred value below look stale.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- requestKey holds query and view's paging
    [requestKey],
  );
  const handleFilterChange = (change: Partial<AuditFilter>) => {
    setAnchor(Date.now());
    onViewChange(withAuditFilter(view, change));
  };

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <AuditFilters filter={view} onFilterChange={handleFilterChange} />
        <PageSizeSelect sizes={AUDIT_PAGE_SIZES} page={view} onPageChange={onViewChange} />
      </Group>
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>
        <AuditLogResults
          request={request}
          query={query}
          view={view}
          onViewChange={onViewChange}
          onShowBrowserLog={onShowBrowserLog}
        />
      </QueryBoundary>
    </Stack>
  );
}

type AuditLogResultsProps = {
  request: AuditPageRequest;
  query: AuditQuery;
  view: AuditView;
  onViewChange: (view: AuditView) => void;
  onShowBrowserLog: () => void;
};

function AuditLogResults({
  request,
  query,
  view,
  onViewChange,
  onShowBrowserLog,
}: AuditLogResultsProps) {
  // A new filter or page keeps the current rows on screen, marked as refreshing, until it is in.
  const deferred = useDeferredValue(request);
  const { data, isFetching } = useSuspenseQuery(auditQueries.page(deferred));
  // Only to pair entries with this browser's own log; a user who may not ask still sees the log.
  const { data: participantId } = useQuery(participantQueries.participantId());
  const { entries: browserLog } = useActivityLog(participantId ?? '');
  const pairs = useMemo(
    () =>
      data.kind === 'log' && participantId !== undefined
        ? pairBrowserEntries(data.page.entries, browserLog)
        : new Map<string, ActivityEntry>(),
    [data, browserLog, participantId],
  );
  const collect = useMutation(auditMutations.collect());
  const [exporting, setExporting] = useState<ActivityExportFormat>();

  if (data.kind === 'not-offered') {
    return (
      <Alert color="gray" title="No shared audit log here" role="status">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            This console is served without the console server (for example by Vite’s dev server), so
            there is no shared log of what everyone did. Start it with npm start to record every
            change that goes through it. This browser’s own log is still here.
          </Text>
          <Button size="xs" variant="default" onClick={onShowBrowserLog}>
            Show this browser’s log
          </Button>
        </Stack>
      </Alert>
    );
  }
  const { page } = data;

  const handleExport = (format: ActivityExportFormat) => {
    setExporting(format);
    collect.mutate(query, {
      onSuccess: (collected) => {
        downloadAudit(format, collected, query);
        if (collected.isTruncated) {
          notify.success(
            `Exported the newest ${MAX_AUDIT_EXPORT_ENTRIES.toLocaleString('en-US')} matching entries; narrow the filters for older ones.`,
          );
        }
      },
      onSettled: () => {
        setExporting(undefined);
      },
    });
  };

  const exportButtons = (
    <Group gap="xs">
      {(['csv', 'json'] as const).map((format) => (
        <Button
          key={format}
          size="xs"
          variant="default"
          disabled={page.entries.length === 0 || (collect.isPending && exporting !== format)}
          loading={buttonBusy(collect.isPending && exporting === format)}
          onClick={() => {
            handleExport(format);
          }}
        >
          Export {format.toUpperCase()}
        </Button>
      ))}
    </Group>
  );

  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Text size="sm">{auditScopeText(page)}</Text>
        <Text size="sm" c="dimmed">
          {auditStoreText(page)}
        </Text>
      </Stack>
      <TokenPage
        page={view}
        onPageChange={onViewChange}
        rowsNoun="entries"
        pagerLabel="Audit log pages"
        rowCount={page.entries.length}
        matchCount={undefined}
        nextPageToken={page.nextPageToken}
        isRefreshing={deferred !== request || isFetching}
        actions={exportButtons}
        empty={
          hasAuditFilter(view) ? (
            <EmptyState
              title="No entries match these filters"
              description="Widen the time or clear a filter to see more."
            />
          ) : (
            <EmptyState
              title="No entries yet"
              description="Every change made through this console server — users, rights, parties, identity providers, packages, commands — is listed here once the participant has answered it."
            />
          )
        }
        noMatchText="No entries match these filters."
      >
        <AuditTable label="Audit log" entries={page.entries} browserEntries={pairs} />
      </TokenPage>
    </Stack>
  );
}

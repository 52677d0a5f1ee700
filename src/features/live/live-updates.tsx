import { Badge, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import type { LedgerStreamStatus } from '@/api/ledger-stream';
import {
  getLedgerEnd,
  isEmptyScope,
  readScopeKey,
  watchUpdates,
  type ReadScope,
} from '@/api/updates';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { EmptyState } from '@/components/feedback/empty-state';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { updateSummaryColumns } from '@/components/update-summary-columns';
import { describeError, networkError, isApiError } from '@/lib/errors/api-error';
import { formatCount } from '@/lib/text/format';
import type {
  UpdateFilter,
  UpdateKind,
  UpdateSummary,
} from '@/lib/transaction-tree/update-summary';
import { PartyInput } from '@/pickers/party-select';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import { LIVE_BUFFER_SIZE, LiveFeed, type LiveSnapshot } from './live-feed';
import { LIVE_KINDS, liveFilterOf, MAX_FILTER_TEXT, withLiveFilter } from './live-filter-params';

export type LiveUpdatesLinks = {
  /** The transaction viewer with this update open. */
  update: (updateId: string) => string;
};

/**
 * The update stream from the ledger end as it happens (`/v2/updates` over a websocket): one line
 * per update, filtered by party, template and kind (in the URL), paused and resumed without losing
 * what arrives meanwhile. A dropped connection resumes after the last offset seen.
 */
export function LiveUpdates({ links }: { links: LiveUpdatesLinks }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) return <NoReadScopeState title="You may not read any party’s updates" />;
  // A new scope is a new stream, and a new list.
  return <LiveStream key={readScopeKey(scope).join('\n')} scope={scope} links={links} />;
}

/** The stream's status, and when it was reported (a reconnect's countdown runs from then). */
type StreamState = (LedgerStreamStatus | { kind: 'starting' }) & { at?: number };

function LiveStream({ scope: scopeAsGiven, links }: { scope: ReadScope; links: LiveUpdatesLinks }) {
  // Each render reads the scope anew; the stream must not reopen for an equal one (the key
  // above gives a different scope a new stream).
  const [scope] = useState(scopeAsGiven);
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = useMemo(() => liveFilterOf(searchParams), [searchParams]);
  const [feed] = useState(() => new LiveFeed(filter));
  const snapshot = useSyncExternalStore(feed.subscribe, feed.getSnapshot);
  const [status, setStatus] = useState<StreamState>({ kind: 'starting' });
  // Bumped by "Reconnect" after a failure: the stream opens again after the last offset seen.
  const [run, setRun] = useState(0);

  useEffect(() => {
    feed.setFilter(filter);
  }, [feed, filter]);

  useEffect(() => {
    let isCancelled = false;
    let stream: { close(): void } | undefined;
    const open = (beginExclusive: number) => {
      feed.start(beginExclusive);
      stream = watchUpdates({
        scope,
        beginExclusive: feed.getSnapshot().lastOffset ?? beginExclusive,
        onBatch: (batch) => {
          feed.push(batch);
        },
        onStatus: (next) => {
          setStatus({ ...next, at: Date.now() });
        },
      });
    };
    const resumeAt = feed.getSnapshot().lastOffset;
    if (resumeAt === undefined) {
      getLedgerEnd()
        .then((end) => {
          if (!isCancelled) open(end);
        })
        .catch((error: unknown) => {
          if (isCancelled) return;
          setStatus({
            kind: 'failed',
            error: isApiError(error) ? error : networkError(error),
          });
        });
    } else {
      open(resumeAt);
    }
    return () => {
      isCancelled = true;
      stream?.close();
    };
  }, [feed, scope, run]);

  const setFilter = (next: UpdateFilter) => {
    setSearchParams((current) => withLiveFilter(current, next), { replace: true });
  };
  const columns = useMemo(() => liveColumns(links), [links]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <StreamStatus status={status} snapshot={snapshot} />
        <Group gap="xs">
          {status.kind === 'failed' && (
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setStatus({ kind: 'starting' });
                setRun((value) => value + 1);
              }}
            >
              Reconnect
            </Button>
          )}
          {snapshot.isPaused ? (
            <Button
              size="xs"
              onClick={() => {
                feed.resume();
              }}
            >
              Resume
            </Button>
          ) : (
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                feed.pause();
              }}
            >
              Pause
            </Button>
          )}
        </Group>
      </Group>
      {status.kind === 'failed' && <ErrorAlert error={status.error} />}
      <LiveFilters filter={filter} onChange={setFilter} />
      <BufferNote snapshot={snapshot} />
      {snapshot.rows.length === 0 ? (
        <EmptyState
          title="No updates yet"
          description={
            snapshot.received > 0
              ? 'None of the updates received matches the filters.'
              : 'Updates show here as the participant commits them.'
          }
        />
      ) : (
        <DataTable
          label="Live updates"
          columns={columns}
          rows={snapshot.rows}
          rowKey={(update) => update.updateId}
          // New rows arrive on top all the time; the reader's place is theirs to keep.
          scrollResetKey={filter}
        />
      )}
    </Stack>
  );
}

function StreamStatus({ status, snapshot }: { status: StreamState; snapshot: LiveSnapshot }) {
  const now = useNow(status.kind === 'reconnecting');
  let label: string;
  let color: string;
  switch (status.kind) {
    case 'starting':
    case 'connecting':
      label = 'Connecting…';
      color = 'gray';
      break;
    case 'open':
      label = snapshot.isPaused ? 'Paused' : 'Live';
      color = snapshot.isPaused ? 'yellow' : 'teal';
      break;
    case 'reconnecting':
      label = `Reconnecting in ${String(Math.ceil(retryLeft(status, now) / 1000))} s (attempt ${String(status.attempt)}): ${status.reason}`;
      color = 'orange';
      break;
    case 'ended':
      label = 'The participant ended the stream';
      color = 'gray';
      break;
    case 'failed':
      label = `Failed: ${describeError(status.error).title}`;
      color = 'red';
      break;
    case 'closed':
      label = 'Stopped';
      color = 'gray';
      break;
  }
  return (
    <Group gap="sm" wrap="wrap">
      <Badge role="status" color={color} variant="light" size="lg" tt="none">
        {label}
      </Badge>
      {/* Outside the status: an offset moving ten times a second is no announcement. */}
      <Text
        size="sm"
        c="dimmed"
        data-last-offset={snapshot.lastOffset ?? ''}
        data-last-shown-offset={snapshot.lastShownOffset ?? ''}
      >
        {snapshot.lastOffset === undefined ? '' : `Last offset seen ${String(snapshot.lastOffset)}`}
      </Text>
    </Group>
  );
}

function retryLeft(status: { retryInMs: number; at?: number }, now: number): number {
  const left = (status.at ?? now) + status.retryInMs - now;
  return Math.min(status.retryInMs, Math.max(0, left));
}

/** The time, re-read every 250 ms while `isTicking` (a countdown on screen). */
function useNow(isTicking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 250);
    return () => {
      clearInterval(timer);
    };
  }, [isTicking]);
  return now;
}

function BufferNote({ snapshot }: { snapshot: LiveSnapshot }) {
  const parts: string[] = [];
  if (snapshot.isPaused) {
    parts.push(
      `Paused: ${formatCount(snapshot.newWhilePaused, 'new update', 'new updates')}; Resume shows them.`,
    );
  }
  if (snapshot.dropped > 0) {
    parts.push(
      `Showing the newest ${LIVE_BUFFER_SIZE.toLocaleString('en')}; ${formatCount(snapshot.dropped, 'older update was', 'older updates were')} dropped.`,
    );
  }
  if (parts.length === 0) return null;
  return (
    // Not a live region: the count moves with every batch; the status says "Paused".
    <Text size="sm">{parts.join(' ')}</Text>
  );
}

function LiveFilters({
  filter,
  onChange,
}: {
  filter: UpdateFilter;
  onChange: (filter: UpdateFilter) => void;
}) {
  const kinds = filter.kinds ?? LIVE_KINDS.map(({ kind }) => kind);
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <PartyInput
        label="Party"
        placeholder="Any party"
        value={filter.party ?? ''}
        onChange={(party) => {
          onChange({ ...filter, party });
        }}
        maxLength={MAX_FILTER_TEXT}
        w={320}
      />
      <TextInput
        label="Template"
        placeholder="Any template, e.g. Iou"
        value={filter.template ?? ''}
        onChange={(event) => {
          onChange({ ...filter, template: event.currentTarget.value });
        }}
        maxLength={MAX_FILTER_TEXT}
        autoComplete="off"
        spellCheck={false}
        w={240}
      />
      <Checkbox.Group
        label="Show"
        value={[...kinds]}
        onChange={(value) => {
          onChange({
            ...filter,
            kinds: LIVE_KINDS.map(({ kind }) => kind).filter((kind) => value.includes(kind)),
          });
        }}
      >
        <Group gap="md" mih={36} align="center">
          {LIVE_KINDS.map(({ kind, label }) => (
            <Checkbox key={kind} value={kind} label={label} />
          ))}
        </Group>
      </Checkbox.Group>
    </Group>
  );
}

const KIND_LABELS: Readonly<Record<UpdateKind, string>> = {
  transaction: 'Transaction',
  reassignment: 'Reassignment',
  topology: 'Topology',
};

function liveColumns(links: LiveUpdatesLinks): DataTableColumn<UpdateSummary>[] {
  const columns = updateSummaryColumns(links.update);
  return [
    { ...columns.summary, width: '50%' },
    { key: 'kind', header: 'Kind', width: '12%', cell: (update) => KIND_LABELS[update.kind] },
    { ...columns.offset, width: '10%' },
    { ...columns.recordTime, width: '16%' },
    { ...columns.open, width: '12%' },
  ];
}

import { Badge, Button, Checkbox, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { useSearchParams } from 'react-router';
import type { LedgerStreamStatus } from '@/api/ledger-stream';
import { getLedgerEnd, isEmptyScope, readScopeKey, type ReadScope } from '@/api/updates';
import { listLatestUpdates, watchUpdates, type LatestUpdates } from '@/api/update-stream';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { preloadVirtualizer } from '@/components/data-table/load-virtualizer';
import { EmptyState } from '@/components/feedback/empty-state';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { updateSummaryColumns } from '@/components/update-summary-columns';
import { TimeDisplayControl } from '@/components/time-display-control';
import { describeError, networkError, isApiError } from '@/lib/errors/api-error';
import { formatCount } from '@/lib/text/format';
import type { UpdateFilter, UpdateSummary } from '@/lib/transaction-tree/update-summary';
import { PartyInput } from '@/pickers/party-select';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import { LIVE_BUFFER_SIZE, LiveFeed, type LiveSnapshot } from './live-feed';
import { LIVE_KINDS, liveFilterOf, MAX_FILTER_TEXT, withLiveFilter } from './live-filter-params';
import {
  LIVE_START_CHOICES,
  LIVE_START_LABELS,
  liveStartSetting,
  type LiveStartChoice,
} from './live-start-setting';

/**
 * At most four redraws a second while updates pour in (the first after a quiet spell shows at
 * once): at hundreds of updates a second nobody reads faster, and each redraw replaces the screen.
 */
const LIVE_BATCH_MS = 250;
/** Rows rendered below the screen: at the top of a busy ledger each batch replaces them all. */
const LIVE_OVERSCAN = 4;

export type LiveUpdatesLinks = {
  /** The transaction viewer with this update open. */
  update: (updateId: string) => string;
};

/**
 * The update stream as it happens (`/v2/updates` over a websocket), beginning with the last few
 * updates before the ledger end (the user's choice, remembered): one line per update, filtered by
 * party, template and kind (in the URL), paused and resumed without losing what arrives meanwhile.
 * The stream continues from exactly where the first read ended, and a dropped connection resumes
 * after the last offset seen, so no update is missed or shown twice.
 */
export function LiveUpdates({ links }: { links: LiveUpdatesLinks }) {
  const scope = useReadScope();
  const startWith = useSyncExternalStore(liveStartSetting.subscribe, liveStartSetting.read);
  if (isEmptyScope(scope)) return <NoReadScopeState title="You may not read any party’s updates" />;
  // A new scope is a new stream, and a new list; so is another choice of where to begin.
  return (
    <LiveStream
      key={`${readScopeKey(scope).join('\n')}\n${startWith}`}
      scope={scope}
      links={links}
      startWith={Number(startWith)}
    />
  );
}

/** What the view began with: the last updates read, or why none could be. */
type Start = { kind: 'read'; latest: LatestUpdates } | { kind: 'unread'; error: unknown };

/** The stream's status, and when it was reported (a reconnect's countdown runs from then). */
type StreamState = (LedgerStreamStatus | { kind: 'starting' }) & { at?: number };

function LiveStream({
  scope: scopeAsGiven,
  links,
  startWith,
}: {
  scope: ReadScope;
  links: LiveUpdatesLinks;
  startWith: number;
}) {
  // Each render reads the scope anew; the stream must not reopen for an equal one (the key
  // above gives a different scope a new stream).
  const [scope] = useState(scopeAsGiven);
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = useMemo(() => liveFilterOf(searchParams), [searchParams]);
  const [feed] = useState(() => new LiveFeed(filter));
  const snapshot = useSyncExternalStore(feed.subscribe, feed.getSnapshot);
  const [status, setStatus] = useState<StreamState>({ kind: 'starting' });
  const [start, setStart] = useState<Start>();
  // Bumped by "Reconnect" after a failure: the stream opens again after the last offset seen.
  const [run, setRun] = useState(0);

  useEffect(() => {
    feed.setFilter(filter);
  }, [feed, filter]);

  useEffect(preloadVirtualizer, []);

  useEffect(() => {
    let isCancelled = false;
    let stream: { close(): void } | undefined;
    const open = (beginExclusive: number) => {
      feed.start(beginExclusive);
      stream = watchUpdates({
        scope,
        beginExclusive: feed.getSnapshot().lastOffset ?? beginExclusive,
        batchMs: LIVE_BATCH_MS,
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
      readStart(scope, startWith)
        .then(({ start: begun, endInclusive }) => {
          if (isCancelled) return;
          // The past first, then the stream from exactly where that read ended: no gap.
          if (begun.kind === 'read') feed.backfill(begun.latest.updates);
          setStart(begun);
          open(endInclusive);
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
  }, [feed, scope, run, startWith]);

  // Stable, like the controls below (memo): a batch re-renders the list and the status line, not
  // the filters' inputs.
  const setFilter = useCallback(
    (next: UpdateFilter) => {
      setSearchParams((current) => withLiveFilter(current, next), { replace: true });
    },
    [setSearchParams],
  );
  const columns = useMemo(() => updateSummaryColumns(links.update), [links]);
  // The list takes each batch as a background render, in slices between frames: under load a
  // batch replaces a screenful of rows, too much for one task. The status line stays urgent.
  const shownSnapshot = useDeferredValue(snapshot);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <StreamStatus
          status={status}
          snapshot={snapshot}
          shownOffset={shownSnapshot.lastShownOffset}
        />
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
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <StartWithSelect value={String(startWith)} />
        <TimeDisplay />
      </Group>
      {start && <StartNote start={start} startWith={startWith} />}
      <LiveList snapshot={shownSnapshot} columns={columns} filter={filter} />
    </Stack>
  );
}

/** The rows and what the buffer let go, as of the batch last rendered. */
const LiveList = memo(function LiveList({
  snapshot,
  columns,
  filter,
}: {
  snapshot: LiveSnapshot;
  columns: DataTableColumn<UpdateSummary>[];
  filter: UpdateFilter;
}) {
  return (
    <>
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
          // Virtual from the first row (its code fetched with the page): never switched mid-stream.
          virtualizeAbove={0}
          overscan={LIVE_OVERSCAN}
          // New rows arrive on top all the time; the reader's place is theirs to keep.
          scrollResetKey={filter}
        />
      )}
    </>
  );
});

/**
 * The last `count` updates and the offset the stream continues after. When they cannot be read
 * (a participant refusing the list), the view still begins, live from the ledger end, and says so.
 */
async function readStart(
  scope: ReadScope,
  count: number,
): Promise<{ start: Start; endInclusive: number }> {
  try {
    const latest = await listLatestUpdates(scope, count);
    return { start: { kind: 'read', latest }, endInclusive: latest.endInclusive };
  } catch (error) {
    if (count === 0) throw error;
    return { start: { kind: 'unread', error }, endInclusive: await getLedgerEnd() };
  }
}

const TimeDisplay = memo(TimeDisplayControl);

const StartWithSelect = memo(function StartWithSelect({ value }: { value: string }) {
  return (
    <Select
      label="Start with"
      description="Past updates shown before the live ones; changing it starts again"
      data={LIVE_START_CHOICES.map((choice) => ({
        value: choice,
        label: LIVE_START_LABELS[choice],
      }))}
      value={value}
      onChange={(next) => {
        if (next !== null) liveStartSetting.write(next as LiveStartChoice);
      }}
      allowDeselect={false}
      w={300}
    />
  );
});

/** How the view began: how many past updates it read, and why fewer than asked. */
function StartNote({ start, startWith }: { start: Start; startWith: number }) {
  if (start.kind === 'unread') {
    return (
      <Text size="sm" c="dimmed">
        The last {startWith} updates could not be read ({describeError(start.error).title}); showing
        updates from now on.
      </Text>
    );
  }
  const { updates, endInclusive, shortBecause, offsetsRead } = start.latest;
  const count = formatCount(updates.length, 'past update', 'past updates');
  const upTo = `up to offset ${String(endInclusive)}`;
  let text: string;
  if (startWith === 0) text = `Live from offset ${String(endInclusive)}, without past updates.`;
  else if (shortBecause === 'start')
    text = `Began with ${count} ${upTo}: all the ledger holds for you.`;
  else if (shortBecause === 'bound') {
    text = `Began with ${count} ${upTo}: no more for you in the ${offsetsRead.toLocaleString('en')} offsets before it.`;
  } else text = `Began with the last ${count} ${upTo}.`;
  return (
    <Text size="sm" c="dimmed">
      {text}
    </Text>
  );
}

function StreamStatus({
  status,
  snapshot,
  shownOffset,
}: {
  status: StreamState;
  snapshot: LiveSnapshot;
  /** The newest row on screen, which may trail the snapshot while the list renders. */
  shownOffset: number | undefined;
}) {
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
        data-last-shown-offset={shownOffset ?? ''}
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

const LiveFilters = memo(function LiveFilters({
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
});

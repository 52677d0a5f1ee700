import { Text, type TextProps } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { formatAbsoluteTime, formatExactTime, formatRelativeTime } from '@/lib/text/format';
import { useLazyTooltip } from './lazy-tooltip';
import { useTimeDisplay } from './time-display';

// One clock for every relative time on screen, ticking while any is mounted: a table of 200 rows
// must not start 200 intervals.
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

// Without a running clock, read the time afresh, but only once per task: React calls a snapshot
// twice in one render and warns (and may loop) when the two answers differ, as Date.now() can.
let isFreshRead = false;
function readNow(): number {
  if (timer === undefined && !isFreshRead) {
    now = Date.now();
    isFreshRead = true;
    queueMicrotask(() => {
      isFreshRead = false;
    });
  }
  return now;
}

export type RelativeTimeProps = {
  /** An ISO-8601 timestamp (the ledger's record time, an event's effective time) or epoch ms. */
  value: string | number;
} & Omit<TextProps, 'children'>;

/**
 * The one way the console shows a time: "5 minutes ago" or "24 Nov 2026, 14:03:27" as the user
 * chose (TimeDisplayControl), the other form and the exact time with its zone on hover and focus,
 * and the ISO time in the `<time>` element's `datetime` (docs/design-system.md §Times). An
 * unreadable timestamp is shown as it came.
 */
export function RelativeTime({ value, ...textProps }: RelativeTimeProps) {
  const nowMs = useSyncExternalStore(subscribe, readNow, readNow);
  const display = useTimeDisplay();
  const epochMs = typeof value === 'number' ? value : Date.parse(value);
  const isReadable = Number.isFinite(epochMs);
  const exact = isReadable ? formatExactTime(epochMs) : '';
  const relative = isReadable ? formatRelativeTime(epochMs, nowMs) : '';
  const shown = display === 'absolute' && isReadable ? formatAbsoluteTime(epochMs) : relative;
  const hover = display === 'absolute' ? `${relative} · ${exact}` : exact;
  // Lazily: a table shows a time per row, and scrolling mounts a screenful of rows at a time.
  const { trigger, tooltip } = useLazyTooltip<HTMLTimeElement>({ label: hover, openDelay: 300 });
  if (!isReadable) {
    return (
      <Text span size="sm" {...textProps}>
        {String(value)}
      </Text>
    );
  }
  return (
    <>
      <Text
        span
        size="sm"
        {...textProps}
        {...trigger}
        component="time"
        dateTime={new Date(epochMs).toISOString()}
        tabIndex={0}
        aria-label={`${shown} (${hover})`}
      >
        {shown}
      </Text>
      {tooltip}
    </>
  );
}

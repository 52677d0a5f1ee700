import { formatCount } from '@/lib/text/format';

/** The ledger end as one poll saw it: when (epoch ms) and which offset. */
export type LedgerEndSample = { at: number; offset: number };

/** How far back the trend looks. */
export const TREND_WINDOW_MS = 60_000;

// Polls every few seconds fill a minute with a few dozen samples; other readers of the same query
// may add more, so the list is capped as well.
const MAX_SAMPLES = 120;

/**
 * `samples` with `sample` added (when it is newer), trimmed to the window: the samples within
 * `windowMs` of the newest, plus the newest one before them, so the trend spans the full window
 * once it has been watched that long. A ledger end that went back (a participant reset) starts over.
 */
export function addSample(
  samples: readonly LedgerEndSample[],
  sample: LedgerEndSample,
  windowMs: number = TREND_WINDOW_MS,
): LedgerEndSample[] {
  const last = samples.at(-1);
  if (last !== undefined && sample.at <= last.at) return [...samples];
  if (last !== undefined && sample.offset < last.offset) return [sample];
  const next = [...samples, sample];
  const windowStart = sample.at - windowMs;
  let first = 0;
  while (first + 1 < next.length && (next[first + 1]?.at ?? Infinity) <= windowStart) first++;
  return next.slice(Math.max(first, next.length - MAX_SAMPLES));
}

export type LedgerEndTrend = {
  /** Offsets added between the oldest and the newest sample. */
  added: number;
  /** Milliseconds between them. */
  spanMs: number;
};

/** How much the ledger end moved over the samples; undefined before there are two. */
export function trendOf(samples: readonly LedgerEndSample[]): LedgerEndTrend | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || samples.length < 2) return undefined;
  return { added: last.offset - first.offset, spanMs: last.at - first.at };
}

/**
 * "+12 in the last minute", "No new offsets in the last 9 seconds": the span as it was watched,
 * which is longer than the window when polling paused (a hidden tab) and resumed.
 */
export function describeTrend({ added, spanMs }: LedgerEndTrend): string {
  const seconds = Math.max(1, Math.round(spanMs / 1000));
  const minutes = Math.round(spanMs / 60_000);
  const span =
    seconds < 59
      ? `the last ${formatCount(seconds, 'second', 'seconds')}`
      : minutes <= 1
        ? 'the last minute'
        : `the last ${String(minutes)} minutes`;
  return added === 0 ? `No new offsets in ${span}` : `+${String(added)} in ${span}`;
}

/**
 * The samples as an SVG polyline's `points` in a `width` × `height` box: time along, offset up
 * (from the lowest to the highest offset seen, a flat line at the bottom when they are all one).
 */
export function sparklinePoints(
  samples: readonly LedgerEndSample[],
  width: number,
  height: number,
): string {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || samples.length < 2) return '';
  const span = last.at - first.at || 1;
  const low = first.offset;
  const range = last.offset - low;
  const round = (value: number) => Math.round(value * 10) / 10;
  return samples
    .map(({ at, offset }) => {
      const x = ((at - first.at) / span) * width;
      const y = range === 0 ? height : height - ((offset - low) / range) * height;
      return `${String(round(x))},${String(round(y))}`;
    })
    .join(' ');
}

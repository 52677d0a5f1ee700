import { Box, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { updateQueries } from '@/api/updates';
import {
  addSample,
  describeTrend,
  sparklinePoints,
  trendOf,
  type LedgerEndSample,
} from './ledger-end-trend';
import { StatValue } from './stat-card';

/** How often the ledger end is read while the page is open (and the browser tab visible). */
export const LEDGER_END_POLL_MS = 3_000;

const SPARKLINE = { width: 96, height: 28 };

/**
 * The ledger end, polled, with how far it moved while watched: "+12 in the last minute" and a
 * sparkline. Polling stops while the tab is hidden (TanStack Query's default). A failed poll keeps
 * the last offset and says so in place, not as a toast every few seconds.
 */
export function LedgerEndStat() {
  const ledgerEnd = useSuspenseQuery({
    ...updateQueries.ledgerEnd(),
    refetchInterval: LEDGER_END_POLL_MS,
    meta: { errorDisplay: 'inline' },
  });
  const samples = useSamples({ at: ledgerEnd.dataUpdatedAt, offset: ledgerEnd.data });
  const trend = trendOf(samples);
  const points = sparklinePoints(samples, SPARKLINE.width, SPARKLINE.height);

  return (
    <StatValue
      value={String(ledgerEnd.data)}
      aside={
        points && (
          <Box
            component="svg"
            c="blue"
            width={SPARKLINE.width}
            height={SPARKLINE.height}
            viewBox={`-1 -1 ${String(SPARKLINE.width + 2)} ${String(SPARKLINE.height + 2)}`}
            aria-hidden
            style={{ flexShrink: 0, overflow: 'visible' }}
          >
            <polyline
              points={points}
              fill="none"
              stroke="currentColor"
              strokeWidth={1.5}
              strokeLinejoin="round"
            />
          </Box>
        )
      }
      detail={
        ledgerEnd.isRefetchError ? (
          <Text span size="sm" c="red">
            The last check failed; this is the offset read before.
          </Text>
        ) : trend === undefined ? (
          `Checked every ${String(LEDGER_END_POLL_MS / 1000)} seconds`
        ) : (
          describeTrend(trend)
        )
      }
    />
  );
}

/** Every answer of the poll while this is shown, trimmed to the trend's window. */
function useSamples(sample: LedgerEndSample): LedgerEndSample[] {
  const [samples, setSamples] = useState<LedgerEndSample[]>(() => [sample]);
  // A new answer arrived: stored during render (React's pattern for state that follows props),
  // so the figure and its trend never disagree for a frame.
  if (sample.at > (samples.at(-1)?.at ?? -Infinity)) setSamples(addSample(samples, sample));
  return samples;
}

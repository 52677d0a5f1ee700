import { useState } from 'react';
import {
  addSample,
  ledgerMovement,
  type LedgerEndSample,
  type LedgerMovement,
} from '@/lib/fleet/fleet-facts';

/**
 * The ledger end's movement over the last 10 s, from the reads of a polled ledger-end query
 * (`offset` read at `readAt`, the query's dataUpdatedAt). Undefined until two reads are apart.
 */
export function useLedgerMovement(
  offset: number | undefined,
  readAt: number,
): LedgerMovement | undefined {
  const [samples, setSamples] = useState<LedgerEndSample[]>([]);
  const last = samples.at(-1);
  if (offset !== undefined && readAt > 0 && (last === undefined || readAt > last.at)) {
    // A new read: kept at once (React's "adjust state while rendering"), no effect round trip.
    setSamples(addSample(samples, { at: readAt, offset }));
  }
  return ledgerMovement(samples);
}

import { useSyncExternalStore } from 'react';
import { storedChoice } from '@/lib/storage/stored-choice';

export type TimeDisplay = 'relative' | 'absolute';

/**
 * How the console shows times, the user's choice for every page and tab: "5 minutes ago" (the
 * default) or "24 Nov 2026, 14:03:27", the other on hover either way. Exports always carry ISO
 * 8601 times, whatever this says.
 */
export const timeDisplay = storedChoice<TimeDisplay>({
  key: 'ledger-console.time-display',
  choices: ['relative', 'absolute'],
  fallback: 'relative',
});

export function useTimeDisplay(): TimeDisplay {
  return useSyncExternalStore(timeDisplay.subscribe, timeDisplay.read, timeDisplay.read);
}

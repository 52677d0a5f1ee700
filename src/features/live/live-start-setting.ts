import { storedChoice } from '@/lib/storage/stored-choice';

/** How many past updates /live begins with, as offered; remembered like the console's settings. */
export const LIVE_START_CHOICES = ['0', '10', '50', '100'] as const;
export type LiveStartChoice = (typeof LIVE_START_CHOICES)[number];

export const liveStartSetting = storedChoice<LiveStartChoice>({
  key: 'ledger-console.live-start-with',
  choices: LIVE_START_CHOICES,
  fallback: '10',
});

export const LIVE_START_LABELS: Readonly<Record<LiveStartChoice, string>> = {
  '0': 'No past updates',
  '10': 'The last 10',
  '50': 'The last 50',
  '100': 'The last 100',
};

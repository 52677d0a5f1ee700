import { SegmentedControl } from '@mantine/core';
import { timeDisplay, useTimeDisplay, type TimeDisplay } from './time-display';

const OPTIONS: { label: string; value: TimeDisplay }[] = [
  { label: 'Relative', value: 'relative' },
  { label: 'Absolute', value: 'absolute' },
];

/**
 * Switches every time in the console between "5 minutes ago" and "24 Nov 2026, 14:03:27"; the
 * choice is remembered (like the colour scheme) and the other form stays on hover.
 */
export function TimeDisplayControl() {
  const value = useTimeDisplay();
  return (
    <SegmentedControl
      size="xs"
      aria-label="Times"
      data={OPTIONS}
      value={value}
      onChange={(next) => {
        timeDisplay.write(next);
      }}
    />
  );
}

import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type CancellableProgressProps = {
  /** The bar's accessible name, e.g. "Loading all users". */
  label: string;
  /** Done so far, 0–100; leave out when there is no total, and the bar only shows movement. */
  value?: number;
  /** What has been done, in words; announced as a status. */
  status: ReactNode;
  onCancel: () => void;
};

/** A long-running task the user started: a progress bar, what it has done so far, and Cancel. */
export function CancellableProgress({ label, value, status, onCancel }: CancellableProgressProps) {
  return (
    <Stack gap={6}>
      {value === undefined ? (
        // No total, so no fraction: the status text counts instead.
        <Progress value={100} animated aria-label={label} />
      ) : (
        <Progress value={value} aria-label={label} />
      )}
      <Group gap="sm">
        <Text size="sm" role="status">
          {status}
        </Text>
        <Button size="xs" variant="light" color="red" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

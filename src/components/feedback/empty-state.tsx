import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type EmptyStateProps = {
  title: string;
  description?: ReactNode;
  /** The primary action, e.g. a "Create user" button. */
  action?: ReactNode;
};

/** What a list shows when it has nothing, with the way to add the first item. */
export function EmptyState({ title, description, action }: EmptyStateProps) {
  return (
    <Stack align="center" gap="xs" py="xl" role="status">
      <Text fw={600}>{title}</Text>
      {description !== undefined && (
        <Text size="sm" c="dimmed" ta="center" maw={480}>
          {description}
        </Text>
      )}
      {action}
    </Stack>
  );
}

import { Code, Stack, Text } from '@mantine/core';
import type { ActivitySnapshot } from '@/lib/activity/activity-log';

/** One side of a change as this browser recorded it: bounded JSON text, or why there is none. */
export function SnapshotView({ title, snapshot }: { title: string; snapshot: ActivitySnapshot }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600}>
        {title}
      </Text>
      {snapshot.kind === 'json' ? (
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {snapshot.text}
        </Code>
      ) : (
        <Text size="xs" c="dimmed">
          {snapshot.kind === 'none' ? 'Nothing' : `Unknown: ${snapshot.reason}`}
        </Text>
      )}
    </Stack>
  );
}

import { Badge, Stack, Text } from '@mantine/core';
import { useSuspenseQuery, type UseSuspenseQueryResult } from '@tanstack/react-query';
import { participantQueries, type HealthStatus } from '@/api/participant';
import { PropertyList } from '@/components/property-list';
import { describeError } from '@/lib/errors/api-error';
import { formatTime } from '@/lib/text/format';

/** How often the probes run while the page is open. */
export const HEALTH_REFRESH_MS = 5_000;

type Labels = { healthy: string; unhealthy: string };

/**
 * Liveness (`/livez`) and readiness (`/readyz`), polled. Reads with suspense: render inside a
 * QueryBoundary. A failed poll is shown in place, never as a toast, because it would repeat every
 * few seconds.
 */
export function ParticipantHealth() {
  const options = { refetchInterval: HEALTH_REFRESH_MS, meta: { errorDisplay: 'inline' } } as const;
  const liveness = useSuspenseQuery({ ...participantQueries.liveness(), ...options });
  const readiness = useSuspenseQuery({ ...participantQueries.readiness(), ...options });
  const checkedAt = Math.max(liveness.dataUpdatedAt, readiness.dataUpdatedAt);

  return (
    <Stack gap="sm">
      <PropertyList
        items={[
          {
            label: 'Liveness',
            value: (
              <HealthValue query={liveness} labels={{ healthy: 'Live', unhealthy: 'Not live' }} />
            ),
          },
          {
            label: 'Readiness',
            value: (
              <HealthValue
                query={readiness}
                labels={{ healthy: 'Ready', unhealthy: 'Not ready' }}
              />
            ),
          },
        ]}
      />
      <Text size="xs" c="dimmed">
        Checked every {HEALTH_REFRESH_MS / 1000} seconds; last answer at {formatTime(checkedAt)}.
      </Text>
    </Stack>
  );
}

function HealthValue({
  query,
  labels,
}: {
  query: UseSuspenseQueryResult<HealthStatus>;
  labels: Labels;
}) {
  // A failed poll means we no longer know; showing the last answer would claim too much.
  if (query.isRefetchError) {
    return <HealthBadge color="gray" text="Unknown" detail={describeError(query.error).message} />;
  }
  const { isHealthy, detail } = query.data;
  return isHealthy ? (
    <HealthBadge color="green" text={labels.healthy} detail={detail} />
  ) : (
    <HealthBadge color="red" text={labels.unhealthy} detail={detail} />
  );
}

function HealthBadge({ color, text, detail }: { color: string; text: string; detail: string }) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={color} variant="light">
        {text}
      </Badge>
      {detail && (
        <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'pre-line' }}>
          {detail}
        </Text>
      )}
    </Stack>
  );
}

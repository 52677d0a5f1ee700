import { Badge, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { Identifier } from '@/components/identifier';
import { useLazyTooltip } from '@/components/lazy-tooltip';
import { describeError } from '@/lib/errors/api-error';
import { HEADER_HEALTH_REFRESH_MS } from './use-participant-unreachable';

const inline = { meta: { errorDisplay: 'inline' } } as const;

/** Which participant this console talks to, and whether it is live and ready, in the header. */
export function ParticipantStatus() {
  const participantId = useQuery({ ...participantQueries.participantId(), ...inline });
  const version = useQuery({ ...participantQueries.version(), ...inline });
  const polled = { refetchInterval: HEADER_HEALTH_REFRESH_MS, ...inline };
  const liveness = useQuery({ ...participantQueries.liveness(), ...polled });
  const readiness = useQuery({ ...participantQueries.readiness(), ...polled });

  const health = (() => {
    if (liveness.isError || readiness.isError) {
      const error = liveness.error ?? readiness.error;
      return { color: 'red', text: 'Unreachable', detail: describeError(error).message };
    }
    if (!liveness.data || !readiness.data) return { color: 'gray', text: 'Checking…', detail: '' };
    if (liveness.data.unreachable !== undefined) {
      return { color: 'red', text: 'Unreachable', detail: liveness.data.detail };
    }
    if (!liveness.data.isHealthy) {
      return { color: 'red', text: 'Not live', detail: liveness.data.detail };
    }
    if (!readiness.data.isHealthy) {
      return { color: 'orange', text: 'Not ready', detail: readiness.data.detail };
    }
    return { color: 'green', text: 'Live · Ready', detail: readiness.data.detail };
  })();

  const healthTooltip = useLazyTooltip<HTMLDivElement>({
    label: health.detail,
    multiline: true,
    maw: 360,
  });

  return (
    <Group gap="sm" wrap="nowrap" role="group" aria-label="Participant status" visibleFrom="md">
      {participantId.data !== undefined && (
        <Identifier value={participantId.data} label="participant id" />
      )}
      {version.data !== undefined && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          API {version.data.version}
        </Text>
      )}
      <Badge
        {...healthTooltip.trigger}
        color={health.color}
        variant="dot"
        aria-label={`Health: ${health.text}`}
      >
        {health.text}
      </Badge>
      {health.detail && healthTooltip.tooltip}
    </Group>
  );
}

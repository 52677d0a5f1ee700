import { Alert, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { describeError } from '@/lib/errors/api-error';
import { HEADER_HEALTH_REFRESH_MS, useParticipantUnreachable } from './use-participant-unreachable';
import { buttonBusy } from '@/components/form/button-busy';

/**
 * The one place that says the participant does not answer (docs/design-system.md §States): the
 * navigation, the identity and the page stay as they are, and sections wait quietly beneath it.
 * Shares the header's health queries, so it adds no requests.
 */
export function ParticipantUnreachableBanner() {
  const queryClient = useQueryClient();
  const { unreachable, isChecking } = useParticipantUnreachable();
  if (unreachable === undefined) return null;
  const { message, details } = describeError(unreachable);
  const target = details.target;

  return (
    <Alert color="red" variant="light" title="The participant does not answer" role="alert">
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {target === undefined ? message : `Ledger Console cannot reach ${target}.`} It checks
          again every {HEADER_HEALTH_REFRESH_MS / 1000} seconds; what you typed stays.
        </Text>
        <Button
          size="xs"
          variant="light"
          color="red"
          loading={buttonBusy(isChecking)}
          onClick={() => void queryClient.refetchQueries({ queryKey: participantQueries.health() })}
        >
          Retry now
        </Button>
      </Group>
    </Alert>
  );
}

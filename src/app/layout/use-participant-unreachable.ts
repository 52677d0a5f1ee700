import { useQuery } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { isParticipantUnreachable } from '@/lib/errors/api-error';

/** The header, the banner and the overview poll the same probes; the header's pace. */
export const HEADER_HEALTH_REFRESH_MS = 15_000;

/** The proxy's "cannot reach the participant" answer to the polled liveness probe, if that is the case. */
export function useParticipantUnreachable(): { unreachable: unknown; isChecking: boolean } {
  const liveness = useQuery({
    ...participantQueries.liveness(),
    refetchInterval: HEADER_HEALTH_REFRESH_MS,
    meta: { errorDisplay: 'inline' },
  });
  const unreachable: unknown =
    liveness.isError && isParticipantUnreachable(liveness.error)
      ? liveness.error
      : liveness.data?.unreachable;
  return { unreachable, isChecking: liveness.isFetching };
}

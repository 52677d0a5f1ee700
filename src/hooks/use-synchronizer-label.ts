import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { synchronizerQueries } from '@/api/synchronizers';
import { shortenIdentifier } from '@/lib/text/format';

/**
 * Names a synchronizer by its alias when the participant is connected to it, else by its shortened
 * id. Never suspends: until the connected synchronizers are known, ids are shown.
 */
export function useSynchronizerLabel(): (synchronizerId: string) => string {
  const { data: connected } = useQuery(synchronizerQueries.connected());
  return useCallback(
    (synchronizerId: string) => {
      const alias = connected?.find(
        (synchronizer) => synchronizer.synchronizerId === synchronizerId,
      )?.synchronizerAlias;
      // An empty alias names nothing.
      return alias !== undefined && alias !== '' ? alias : shortenIdentifier(synchronizerId);
    },
    [connected],
  );
}

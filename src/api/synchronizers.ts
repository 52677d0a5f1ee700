import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiClient } from './client';
import type { Schemas } from './schema';

export type ConnectedSynchronizer = Schemas['ConnectedSynchronizer'];

// ── requests ───────────────────────────────────────────────────────────────────

/** The synchronizers this participant is connected to (any authenticated caller may ask, §4.6). */
export async function listConnectedSynchronizers(
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<ConnectedSynchronizer[]> {
  const { connectedSynchronizers } = unwrap(
    await client.GET('/v2/state/connected-synchronizers', signal ? { signal } : {}),
  );
  return connectedSynchronizers ?? [];
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const synchronizerQueries = {
  all: () => ['synchronizers'] as const,
  connected: () =>
    queryOptions({
      queryKey: [...synchronizerQueries.all(), 'connected'],
      queryFn: ({ signal }) => listConnectedSynchronizers(signal),
    }),
};

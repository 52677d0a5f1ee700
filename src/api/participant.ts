import { queryOptions } from '@tanstack/react-query';
import { toApiError } from '@/lib/api-error';
import { api, unwrap } from './client';
import type { Schemas } from './schema';

export type LedgerApiVersion = Schemas['GetLedgerApiVersionResponse'];

/**
 * A health probe's answer is its status code: 200 means yes, any other HTTP answer means no (a
 * participant that a proxy cannot reach is not live either). Only a missing response is an error.
 */
export type HealthStatus = {
  isHealthy: boolean;
  /** The probe's own text (readyz), or why it failed; empty when there is nothing to say. */
  detail: string;
};

// ── requests: one per endpoint, no caching, no UI ──────────────────────────────

export async function getVersion(): Promise<LedgerApiVersion> {
  return unwrap(await api.GET('/v2/version'));
}

export async function getParticipantId(): Promise<string> {
  return unwrap(await api.GET('/v2/parties/participant-id')).participantId;
}

export async function getLiveness(): Promise<HealthStatus> {
  const { error, response } = await api.GET('/livez', { parseAs: 'text' });
  if (response.ok) return { isHealthy: true, detail: '' };
  return { isHealthy: false, detail: toApiError(response.status, error).body.cause };
}

export async function getReadiness(): Promise<HealthStatus> {
  const { data, error, response } = await api.GET('/readyz', { parseAs: 'text' });
  if (response.ok) return { isHealthy: true, detail: (data ?? '').trim() };
  // 503 carries the failed checks as plain text ("[-] ledger failed (…)"), which toApiError keeps.
  return { isHealthy: false, detail: toApiError(response.status, error).body.cause };
}

// ── cache: keys and query functions defined together ───────────────────────────

export const participantQueries = {
  all: () => ['participant'] as const,
  version: () =>
    queryOptions({ queryKey: [...participantQueries.all(), 'version'], queryFn: getVersion }),
  participantId: () =>
    queryOptions({
      queryKey: [...participantQueries.all(), 'participant-id'],
      queryFn: getParticipantId,
    }),
  health: () => [...participantQueries.all(), 'health'] as const,
  liveness: () =>
    queryOptions({ queryKey: [...participantQueries.health(), 'liveness'], queryFn: getLiveness }),
  readiness: () =>
    queryOptions({
      queryKey: [...participantQueries.health(), 'readiness'],
      queryFn: getReadiness,
    }),
};

import { queryOptions } from '@tanstack/react-query';
import { isParticipantUnreachable, toApiError, type ApiError } from '@/lib/errors/api-error';
import { api, unwrap, type ApiClient } from './client';
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
  /** Set when the console's proxy answered that it cannot reach the participant at all. */
  unreachable?: ApiError;
};

/** A failed probe's answer: plain text from the participant, or the proxy's JSON error body. */
function failedProbe(status: number, text: unknown): HealthStatus {
  let payload: unknown = text;
  if (typeof text === 'string' && text.trimStart().startsWith('{')) {
    try {
      payload = JSON.parse(text);
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  const error = toApiError(status, payload);
  return {
    isHealthy: false,
    detail: error.body.cause,
    ...(isParticipantUnreachable(error) ? { unreachable: error } : {}),
  };
}

// ── requests: one per endpoint, no caching, no UI ──────────────────────────────

// `client`: the page's participant, or another of the fleet (participants.ts).

export async function getVersion(client: ApiClient = api): Promise<LedgerApiVersion> {
  return unwrap(await client.GET('/v2/version'));
}

export async function getParticipantId(client: ApiClient = api): Promise<string> {
  return unwrap(await client.GET('/v2/parties/participant-id')).participantId;
}

export async function getLiveness(client: ApiClient = api): Promise<HealthStatus> {
  const { error, response } = await client.GET('/livez', { parseAs: 'text' });
  if (response.ok) return { isHealthy: true, detail: '' };
  return failedProbe(response.status, error);
}

export async function getReadiness(client: ApiClient = api): Promise<HealthStatus> {
  const { data, error, response } = await client.GET('/readyz', { parseAs: 'text' });
  if (response.ok) return { isHealthy: true, detail: (data ?? '').trim() };
  // 503 carries the failed checks as plain text ("[-] ledger failed (…)"), which toApiError keeps.
  return failedProbe(response.status, error);
}

// ── cache: keys and query functions defined together ───────────────────────────

export const participantQueries = {
  // Not ['participant']: keys of other participants are ['participant', name, …] (participants.ts),
  // and a participant named "health" or "version" must not share this page's entries.
  all: () => ['this-participant'] as const,
  version: () =>
    queryOptions({
      queryKey: [...participantQueries.all(), 'version'],
      queryFn: () => getVersion(),
    }),
  participantId: () =>
    queryOptions({
      queryKey: [...participantQueries.all(), 'participant-id'],
      queryFn: () => getParticipantId(),
    }),
  health: () => [...participantQueries.all(), 'health'] as const,
  liveness: () =>
    queryOptions({
      queryKey: [...participantQueries.health(), 'liveness'],
      queryFn: () => getLiveness(),
    }),
  readiness: () =>
    queryOptions({
      queryKey: [...participantQueries.health(), 'readiness'],
      queryFn: () => getReadiness(),
    }),
};

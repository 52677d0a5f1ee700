import type { Sandbox } from './sandbox-network';

/** The API base the app under test calls (vite.config.ts); the sandbox ignores the origin. */
const API_BASE = 'http://localhost:3000';

/**
 * Calls the sandbox's HTTP API the way a client would, to seed or change what a test needs;
 * fails the test on any non-2xx answer. `token` signs the request in jwt mode.
 */
export async function sandboxJson<T = unknown>(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers = new Headers();
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await sandbox.fetch(
    new Request(`${API_BASE}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${String(response.status)}: ${text}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Allocates one party per hint (in `identityProviderId`, default IdP if omitted); their ids. */
export async function seedParties(
  sandbox: Sandbox,
  hints: readonly string[],
  { identityProviderId = '', token }: { identityProviderId?: string; token?: string } = {},
): Promise<string[]> {
  const parties: string[] = [];
  for (const partyIdHint of hints) {
    const { partyDetails } = await sandboxJson<{ partyDetails: { party: string } }>(
      sandbox,
      'POST',
      '/v2/parties',
      { partyIdHint, identityProviderId, synchronizerId: '', userId: '' },
      token,
    );
    parties.push(partyDetails.party);
  }
  return parties;
}

export type SeedPartyRecord = {
  hint: string;
  /** Hosted here (default), or a party of another participant the topology tells about. */
  isLocal?: boolean;
  identityProviderId?: string;
  annotations?: Record<string, string>;
};

// Another participant's namespace, for parties hosted elsewhere.
const FOREIGN_NAMESPACE = `1220${'f0'.repeat(32)}`;

/**
 * Puts parties straight into the sandbox's store (no token needed, also in jwt mode): many at
 * once for paging tests, and parties of other participants, which no API call can create. Their
 * ids in order.
 */
export function seedPartyRecords(sandbox: Sandbox, records: readonly SeedPartyRecord[]): string[] {
  return sandbox.state.transaction(() =>
    records.map(({ hint, isLocal = true, identityProviderId = '', annotations = {} }) => {
      const party = `${hint}::${isLocal ? sandbox.state.namespace : FOREIGN_NAMESPACE}`;
      sandbox.state.parties.save({
        party,
        isLocal,
        identityProviderId: isLocal ? identityProviderId : '',
        resourceVersion: 0,
        annotations: isLocal ? annotations : {},
      });
      return party;
    }),
  );
}

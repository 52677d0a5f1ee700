import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/**
 * Calls the sandbox's HTTP API the way a client would, to seed or change what a test needs;
 * fails the test on any non-2xx answer. `token` signs the request in jwt mode.
 */
export function sandboxJson<T = unknown>(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  return sandboxSteps(sandbox, token).client.request<T>(method, path, { body });
}

/** Allocates one party per hint (in `identityProviderId`, default IdP if omitted); their ids. */
export async function seedParties(
  sandbox: Sandbox,
  hints: readonly string[],
  { identityProviderId = '', token }: { identityProviderId?: string; token?: string } = {},
): Promise<string[]> {
  const steps = sandboxSteps(sandbox, token);
  const parties: string[] = [];
  for (const hint of hints) parties.push(await steps.allocateParty(hint, { identityProviderId }));
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

import type { NetworkIntercept } from './sandbox-network';

/** The sandbox never prunes: answer as a participant pruned up to `offset`. */
export function prunedAt(offset: number): NetworkIntercept {
  return (request, sandboxFetch) =>
    new URL(request.url).pathname === '/v2/state/latest-pruned-offsets'
      ? Promise.resolve(
          Response.json({
            participantPrunedUpToInclusive: offset,
            allDivulgedContractsPrunedUpToInclusive: offset,
          }),
        )
      : sandboxFetch(request);
}

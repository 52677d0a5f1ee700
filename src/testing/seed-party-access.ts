import type { UserRight } from '@/lib/access/access-rights';
import type { Sandbox } from './sandbox-network';

export type SeedRightsHolder = {
  userId: string;
  rights: readonly UserRight[];
  identityProviderId?: string;
  isDeactivated?: boolean;
};

/**
 * Puts users with the given rights straight into the sandbox's store (no token needed, also in
 * jwt mode), for the "who can act as this party" panel.
 */
export function seedRightsHolders(sandbox: Sandbox, holders: readonly SeedRightsHolder[]): void {
  sandbox.state.transaction(() => {
    for (const { userId, rights, identityProviderId = '', isDeactivated = false } of holders) {
      sandbox.state.users.insert({
        id: userId,
        primaryParty: '',
        isDeactivated,
        resourceVersion: 0,
        annotations: {},
        identityProviderId,
        primaryPartyAuthentication: false,
      });
      sandbox.state.users.addRights(
        userId,
        rights.map((right) => ({ kind: right.kind, party: 'party' in right ? right.party : '' })),
      );
    }
  });
}

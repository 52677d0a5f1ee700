import type { Sandbox } from './sandbox-network';

export type SeedUsersOptions = {
  /** Ids are `<prefix>-0001`, `<prefix>-0002`, …, so they sort in creation order. */
  prefix?: string;
  /** `''` (default) or an IdP that exists in the sandbox. */
  identityProviderId?: string;
  /** Per-user changes, by 0-based index. */
  each?: (index: number) => {
    primaryParty?: string;
    isDeactivated?: boolean;
    annotations?: Record<string, string>;
  };
};

/**
 * Puts `count` users straight into the sandbox's store: thousands in milliseconds, for paging
 * tests. The stored users are exactly what the API would have created and lists back.
 */
export function seedUsers(
  sandbox: Sandbox,
  count: number,
  { prefix = 'user', identityProviderId = '', each }: SeedUsersOptions = {},
): string[] {
  const ids = Array.from(
    { length: count },
    (_, index) => `${prefix}-${String(index + 1).padStart(4, '0')}`,
  );
  sandbox.state.transaction(() => {
    ids.forEach((id, index) => {
      const extra = each?.(index) ?? {};
      sandbox.state.users.insert({
        id,
        primaryParty: extra.primaryParty ?? '',
        isDeactivated: extra.isDeactivated ?? false,
        resourceVersion: 0,
        annotations: extra.annotations ?? {},
        identityProviderId,
        primaryPartyAuthentication: false,
      });
    });
  });
  return ids;
}

/** Grants rights that name no party (e.g. `IdentityProviderAdmin`) straight in the store. */
export function seedUserRights(
  sandbox: Sandbox,
  userId: string,
  kinds: readonly ('ParticipantAdmin' | 'IdentityProviderAdmin')[],
): void {
  sandbox.state.users.addRights(
    userId,
    kinds.map((kind) => ({ kind, party: '' })),
  );
}

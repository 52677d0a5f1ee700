import type { UserRight } from '@/lib/access/access-rights';
import { DISPLAY_NAME_ANNOTATION } from './onboarding-input';

/** What the participant already has, as read just before planning or running. */
export type ExistingState = {
  /**
   * The user with the plan's id, when it exists. `isDeactivated` is not compared by
   * `reconcile` (an onboarding never changes it); an import reports a difference.
   */
  user?: { primaryParty: string; displayName?: string; isDeactivated?: boolean };
  /**
   * The participant refused to show the user (403): its id is taken in another identity
   * provider, where this onboarding cannot create it.
   */
  userInOtherIdentityProvider?: boolean;
  /** That user's rights (empty when there is no user). */
  userRights?: readonly UserRight[];
  /**
   * The plan's party as the IdP's requests see it, when the participant knows it: `isLocal`
   * true means hosted here and in this IdP (§5.2).
   */
  party?: { isLocal: boolean; identityProviderId: string };
};

/**
 * What was read of a plan's user and party, in the few fields of the wire records the plan is
 * compared on (the participant leaves optional fields out when they hold their default).
 */
export type ReadState = {
  user:
    | {
        primaryParty?: string;
        isDeactivated?: boolean;
        metadata?: { annotations?: Readonly<Record<string, string>> };
      }
    | undefined;
  /** The participant answered 403 for the user: it belongs to another IdP. */
  userInOtherIdentityProvider: boolean;
  /** The user's rights; empty when there is no user. */
  userRights: readonly UserRight[];
  party: { isLocal?: boolean; identityProviderId?: string } | null | undefined;
};

/** What was read, as {@link ExistingState}: the one reading of it every onboarding shares. */
export function existingStateOf({
  user,
  userInOtherIdentityProvider,
  userRights,
  party,
}: ReadState): ExistingState {
  const displayName = user?.metadata?.annotations?.[DISPLAY_NAME_ANNOTATION];
  return {
    ...(userInOtherIdentityProvider ? { userInOtherIdentityProvider } : {}),
    ...(user
      ? {
          user: {
            primaryParty: user.primaryParty ?? '',
            ...(displayName === undefined ? {} : { displayName }),
            isDeactivated: user.isDeactivated ?? false,
          },
          userRights,
        }
      : {}),
    ...(party
      ? {
          party: {
            isLocal: party.isLocal ?? false,
            identityProviderId: party.identityProviderId ?? '',
          },
        }
      : {}),
  };
}

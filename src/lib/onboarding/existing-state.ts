import type { UserRight } from '@/lib/access/access-rights';

/** What the participant already has, as read just before planning or running. */
export type ExistingState = {
  /** The user with the plan's id, when it exists. */
  user?: { primaryParty: string; displayName?: string };
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

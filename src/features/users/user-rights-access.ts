import type { UserRef } from '@/api/users';
import type { Access } from '@/lib/access/access-rights';

/**
 * Whether the caller can list this user's rights. GET /v2/users/{id}/rights has no IdP parameter,
 * so a participant admin's request always asks the default IdP and is refused for other IdPs'
 * users (ledger-api-behaviour.md §2.7); IdP admins and users themselves get their own IdP implied.
 */
export function canListUserRights(access: Access, userRef: UserRef): boolean {
  return !(access.isParticipantAdmin && userRef.identityProviderId !== '');
}

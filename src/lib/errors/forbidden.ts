import { ADMIN_ONLY_RIGHT_KINDS, type Caller, type RightKind } from '@/lib/access/access-rights';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';

export type ForbiddenDetails = {
  /** "alice (identity provider acme)": whom the participant took the caller for. */
  who?: string;
  /** "Participant admin or Identity provider admin": the rights any of which would do. */
  need?: string;
  /** "A participant admin, or an admin of identity provider acme,": who may grant them. */
  grantedBy: string;
};

/**
 * What the forbidden state says (docs/design-system.md §States): who you are, which right is
 * missing, and who can grant it — the same words on every screen, from the caller's rights.
 * `needs` are alternatives (any one of them would do).
 */
export function forbiddenDetails(
  caller: Caller | undefined,
  needs: readonly RightKind[] = [],
): ForbiddenDetails {
  const labels = needs.map((kind) => RIGHT_KIND_INFO[kind].label);
  const need =
    labels.length === 0
      ? undefined
      : labels.length === 1
        ? labels[0]
        : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1] ?? ''}`;
  const user = caller?.kind === 'user' ? caller : undefined;
  const idp = user?.identityProviderId;
  // Only a participant admin grants participant-wide rights (ledger-api-behaviour.md §4.6).
  const onlyParticipantAdmin =
    idp === undefined || idp === '' || needs.some((kind) => ADMIN_ONLY_RIGHT_KINDS.includes(kind));
  return {
    ...(user === undefined
      ? {}
      : {
          who:
            user.identityProviderId === ''
              ? `${user.userId} (default identity provider)`
              : `${user.userId} (identity provider ${user.identityProviderId})`,
        }),
    ...(need === undefined ? {} : { need }),
    grantedBy: onlyParticipantAdmin
      ? 'A participant admin'
      : `A participant admin, or an admin of identity provider ${idp},`,
  };
}

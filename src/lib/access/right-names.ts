import type { RightKind, UserRight } from './access-rights';

/** How the console names each right kind, and what it lets a user do, in plain words. */
export const RIGHT_KIND_INFO: Record<RightKind, { label: string; help: string }> = {
  CanActAs: {
    label: 'Act as',
    help: 'Submit commands on behalf of this party (also reads as it).',
  },
  CanReadAs: {
    label: 'Read as',
    help: "See this party's contracts and transactions, without acting for it.",
  },
  CanExecuteAs: {
    label: 'Execute as',
    help: 'Prepare and execute submissions as this party; grants no reads on its own.',
  },
  CanActAsAnyParty: {
    label: 'Act as any party',
    help: 'Submit commands for every party on this participant (and read as them).',
  },
  CanReadAsAnyParty: {
    label: 'Read as any party',
    help: "See every party's contracts and transactions on this participant.",
  },
  CanExecuteAsAnyParty: {
    label: 'Execute as any party',
    help: 'Prepare and execute submissions as any party; grants no reads on its own.',
  },
  ParticipantAdmin: {
    label: 'Participant admin',
    help: 'Administer the whole participant: users, identity providers, parties and packages.',
  },
  IdentityProviderAdmin: {
    label: 'Identity provider admin',
    help: "Manage the users and parties of this user's own identity provider.",
  },
};

/** Why an IdP admin sees some right kinds disabled. */
export const ADMIN_ONLY_EXPLANATION = 'Only a participant admin can grant or revoke this right.';

/** One right in words, e.g. "Act as alice::1220…" or "Participant admin". */
export function describeRight(right: UserRight): string {
  const { label } = RIGHT_KIND_INFO[right.kind];
  return 'party' in right ? `${label} ${right.party}` : label;
}

import type { UserRight } from '@/lib/access/access-rights';
import { idpName, type OnboardingPlan } from './plan-steps';

/** What a right lets the person do, in plain words. */
export function describeRightForPerson(right: UserRight, identityProviderId: string): string {
  switch (right.kind) {
    case 'CanActAs':
      return `submit commands as ${right.party} and read its contracts and transactions`;
    case 'CanReadAs':
      return `read the contracts and transactions of ${right.party}`;
    case 'CanExecuteAs':
      return `prepare and execute externally signed transactions for ${right.party}`;
    case 'IdentityProviderAdmin':
      return `administer the users and parties of ${idpName(identityProviderId)}`;
    case 'ParticipantAdmin':
      return 'administer the whole participant';
    case 'CanActAsAnyParty':
      return 'act as any party of the participant';
    case 'CanReadAsAnyParty':
      return 'read as any party of the participant';
    case 'CanExecuteAsAnyParty':
      return 'execute transactions for any party of the participant';
  }
}

export type HandOff = {
  participantId: string;
  signInUrl: string;
  /** The sign-in provider's name, when the console has one for the person's IdP. */
  providerName: string | undefined;
  plan: Pick<OnboardingPlan, 'userId' | 'identityProviderId' | 'party' | 'rights'>;
};

/** The message an admin sends the person once onboarded: plain text, to copy. */
export function handOffMessage({ participantId, signInUrl, providerName, plan }: HandOff): string {
  const signIn =
    providerName === undefined
      ? `Sign in at ${signInUrl} with a token of ${idpName(plan.identityProviderId)} for the user ${plan.userId}.`
      : `Sign in at ${signInUrl}: choose "${providerName}" and sign in as ${plan.userId} (login hint: ${plan.userId}).`;
  return [
    'You have been onboarded on a Canton participant.',
    '',
    signIn,
    '',
    `Participant: ${participantId}`,
    `Identity provider: ${plan.identityProviderId === '' ? '(default)' : plan.identityProviderId}`,
    `User id: ${plan.userId}`,
    `Party: ${plan.party}`,
    '',
    'You can now:',
    ...plan.rights.map((right) => `- ${describeRightForPerson(right, plan.identityProviderId)}`),
  ].join('\n');
}

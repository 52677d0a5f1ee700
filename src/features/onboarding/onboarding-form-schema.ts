import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { PARTY_RIGHT_KINDS, type Access, type UserRight } from '@/lib/access-rights';
import {
  displayNameProblem,
  MAX_DISPLAY_NAME_LENGTH,
  partyHintProblem,
  RIGHTS_PRESET_IDS,
  subjectProblem,
  type OnboardingInput,
  type OnboardingProblem,
} from '@/lib/onboarding-plan';

/** What the onboarding form edits. Party and rights keep both modes' values, so switching loses nothing. */
export const onboardingSchema = z
  .object({
    subject: z.string().superRefine((subject, ctx) => {
      const problem = subjectProblem(subject);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    displayName: z.string().superRefine((name, ctx) => {
      const problem = displayNameProblem(name.trim());
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    identityProviderId: z.string().max(255),
    partyMode: z.enum(['new', 'existing']),
    partyHint: z.string(),
    existingParty: z.string(),
    rightsPreset: z.enum([...RIGHTS_PRESET_IDS, 'custom']),
    customPartyRights: z.array(z.enum(PARTY_RIGHT_KINDS)),
    customIdentityProviderAdmin: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (values.partyMode === 'new') {
      const problem = partyHintProblem(values.partyHint);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['partyHint'] });
    } else if (values.existingParty === '') {
      ctx.addIssue({ code: 'custom', message: 'Choose a party', path: ['existingParty'] });
    } else if (values.existingParty.length > 255) {
      ctx.addIssue({
        code: 'custom',
        message: 'A party id has at most 255 characters',
        path: ['existingParty'],
      });
    }
    if (
      values.rightsPreset === 'custom' &&
      values.customPartyRights.length === 0 &&
      !values.customIdentityProviderAdmin
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'Choose at least one right',
        path: ['customPartyRights'],
      });
    }
  });

export type OnboardingValues = z.infer<typeof onboardingSchema>;

/** Where the form starts: empty, or an access request's values (checked like typed input). */
export type OnboardingPrefill = {
  subject?: string;
  displayName?: string;
  identityProviderId?: string;
};

export function emptyOnboardingValues(
  identityProviderId: string,
  prefill: OnboardingPrefill = {},
): OnboardingValues {
  return {
    subject: prefill.subject ?? '',
    displayName: (prefill.displayName ?? '').slice(0, MAX_DISPLAY_NAME_LENGTH + 1),
    identityProviderId,
    partyMode: 'new',
    partyHint: '',
    existingParty: '',
    rightsPreset: 'acts-as-own',
    customPartyRights: [],
    customIdentityProviderAdmin: false,
  };
}

/** The person's party id as the form stands: predicted for a new one, picked for an existing one. */
export function partyOfValues(values: OnboardingValues, namespace: string): string {
  return values.partyMode === 'new' ? `${values.partyHint}::${namespace}` : values.existingParty;
}

/** The custom rights as exact rights on the person's party. */
export function customRights(values: OnboardingValues, party: string): UserRight[] {
  return [
    ...PARTY_RIGHT_KINDS.filter((kind) => values.customPartyRights.includes(kind)).map(
      (kind): UserRight => ({ kind, party }),
    ),
    ...(values.customIdentityProviderAdmin ? [{ kind: 'IdentityProviderAdmin' } as const] : []),
  ];
}

export function toOnboardingInput(
  values: OnboardingValues,
  { access, participantNamespace }: { access: Access; participantNamespace: string },
): OnboardingInput {
  const party = partyOfValues(values, participantNamespace);
  return {
    subject: values.subject,
    displayName: values.displayName,
    identityProviderId: values.identityProviderId,
    party:
      values.partyMode === 'new'
        ? { kind: 'new', hint: values.partyHint }
        : { kind: 'existing', party: values.existingParty },
    rights:
      values.rightsPreset === 'custom'
        ? { kind: 'custom', rights: customRights(values, party) }
        : { kind: 'preset', preset: values.rightsPreset },
    access,
    participantNamespace,
  };
}

/** The form field a planning problem belongs to. */
export function fieldOfProblem(
  problem: OnboardingProblem,
  values: OnboardingValues,
): Path<OnboardingValues> {
  switch (problem.field) {
    case 'subject':
    case 'displayName':
    case 'identityProviderId':
      return problem.field;
    case 'party':
      return values.partyMode === 'new' ? 'partyHint' : 'existingParty';
    case 'rights':
      return values.rightsPreset === 'custom' ? 'customPartyRights' : 'rightsPreset';
  }
}

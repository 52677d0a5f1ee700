import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { PARTY_RIGHT_KINDS, type Access, type UserRight } from '@/lib/access/access-rights';
import {
  displayNameProblem,
  MAX_DISPLAY_NAME_LENGTH,
  partyHintProblem,
  DEFAULT_RIGHTS_PRESET,
  RIGHTS_PRESET_IDS,
  subjectProblem,
  type ExternalPartySigned,
  type OnboardingInput,
  type OnboardingProblem,
} from '@/lib/onboarding/onboarding-input';
import { MAX_PUBLIC_KEY_CHARS } from '@/lib/signing/keys';
import { MAX_SIGNATURE_CHARS } from '@/lib/signing/signatures';

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
    partyMode: z.enum(['new', 'existing', 'external']),
    partyHint: z.string(),
    existingParty: z.string(),
    /** External party: where it is hosted, its key, and how its topology is signed. */
    externalSynchronizerId: z.string().max(255),
    externalKeySource: z.enum(['generate', 'public']),
    externalPublicKey: z.string().max(MAX_PUBLIC_KEY_CHARS, 'This is too long to be a public key'),
    externalSignMethod: z.enum(['browser', 'file', 'signature']),
    externalSignature: z.string().max(MAX_SIGNATURE_CHARS, 'This is too long to be a signature'),
    rightsPreset: z.enum([...RIGHTS_PRESET_IDS, 'custom']),
    customPartyRights: z.array(z.enum(PARTY_RIGHT_KINDS)),
    customIdentityProviderAdmin: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (values.partyMode === 'new' || values.partyMode === 'external') {
      const problem = partyHintProblem(values.partyHint);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['partyHint'] });
    }
    if (values.partyMode === 'external') {
      if (values.externalSynchronizerId === '') {
        ctx.addIssue({
          code: 'custom',
          message: 'Choose a synchronizer',
          path: ['externalSynchronizerId'],
        });
      }
      if (values.externalKeySource === 'public' && values.externalPublicKey.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          message: 'Paste the person’s public key',
          path: ['externalPublicKey'],
        });
      }
    } else if (values.partyMode === 'new') {
      // The hint, checked above, is all a new party needs.
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
    externalSynchronizerId: '',
    externalKeySource: 'public',
    externalPublicKey: '',
    externalSignMethod: 'signature',
    externalSignature: '',
    rightsPreset: DEFAULT_RIGHTS_PRESET,
    customPartyRights: [],
    customIdentityProviderAdmin: false,
  };
}

/**
 * The person's party id as the form stands: predicted for a new one, picked for an existing one,
 * the hint and the key's fingerprint for an external one.
 */
export function partyOfValues(
  values: OnboardingValues,
  namespace: string,
  externalFingerprint = '',
): string {
  switch (values.partyMode) {
    case 'new':
      return `${values.partyHint}::${namespace}`;
    case 'external':
      return `${values.partyHint}::${externalFingerprint}`;
    case 'existing':
      return values.existingParty;
  }
}

/** An external party's key fingerprint and, once signed, what its allocation carries. */
export type ExternalPartyInput = { fingerprint: string; signed: ExternalPartySigned | undefined };

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
  {
    access,
    participantNamespace,
    external,
  }: { access: Access; participantNamespace: string; external?: ExternalPartyInput },
): OnboardingInput {
  const party = partyOfValues(values, participantNamespace, external?.fingerprint);
  return {
    subject: values.subject,
    displayName: values.displayName,
    identityProviderId: values.identityProviderId,
    party: partyChoiceOf(values, external),
    rights:
      values.rightsPreset === 'custom'
        ? { kind: 'custom', rights: customRights(values, party) }
        : { kind: 'preset', preset: values.rightsPreset },
    access,
    participantNamespace,
  };
}

function partyChoiceOf(
  values: OnboardingValues,
  external: ExternalPartyInput | undefined,
): OnboardingInput['party'] {
  switch (values.partyMode) {
    case 'new':
      return { kind: 'new', hint: values.partyHint };
    case 'existing':
      return { kind: 'existing', party: values.existingParty };
    case 'external':
      return {
        kind: 'external',
        hint: values.partyHint,
        fingerprint: external?.fingerprint ?? '',
        ...(external?.signed === undefined ? {} : { signed: external.signed }),
      };
  }
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
      return values.partyMode === 'existing' ? 'existingParty' : 'partyHint';
    case 'rights':
      return values.rightsPreset === 'custom' ? 'customPartyRights' : 'rightsPreset';
  }
}

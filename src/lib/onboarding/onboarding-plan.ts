import {
  idStringProblem,
  LEDGER_STRING,
  PARTY_STRING,
} from '@ledger-console/participant/identifiers';
import { UNIQUE_IDENTIFIER_SEPARATOR } from '@ledger-console/participant/unique-identifier';
import type { UserRight } from '@/lib/access/access-rights';
import {
  DISPLAY_NAME_ANNOTATION,
  displayNameProblem,
  distinctRights,
  existingPartyProblem,
  MAX_CUSTOM_RIGHTS,
  partyHintProblem,
  partyIdFor,
  rightsPreset,
  rightsProblems,
  subjectProblem,
  type ExternalPartySigned,
  type OnboardingField,
  type OnboardingInput,
  type OnboardingProblem,
} from './onboarding-input';
import {
  externalStep,
  grantStep,
  idpName,
  userPath,
  type AllocateExternalPartyStep,
  type OnboardingPlan,
  type PlanResult,
  type PlanStep,
} from './plan-steps';

/**
 * Onboarding a person in one go: a user whose id is their subject at the OpenID provider, their
 * party (a new one from a hint, or an existing one of the IdP) and least-privilege rights on it.
 * Pure, so the single-person flow and bulk import share one planner and its tests.
 *
 * The order never leaves an orphan (ledger-api-behaviour.md §2, §5): the user comes first because
 * users can be deleted and parties cannot; the party is allocated for that user (with `userId` the
 * participant also grants it CanActAs on the new party, §5.1); then the primary party is set and
 * the remaining rights granted. If any step after the user fails, deleting the user undoes all of
 * it except an allocated party, which stays for good.
 */

/**
 * The plan for `input`, or every problem with it (each tied to the form field it concerns). The
 * plan assumes nothing exists yet; `reconcile` (reconcile.ts) adjusts it to what does.
 */
export function planOnboarding(input: OnboardingInput): PlanResult {
  const problems: OnboardingProblem[] = [];
  const add = (field: OnboardingField, message: string | undefined) => {
    if (message) problems.push({ field, message });
  };

  add('subject', subjectProblem(input.subject));
  const displayName = input.displayName?.trim() ?? '';
  add('displayName', displayNameProblem(displayName));

  const { access, identityProviderId } = input;
  if (!access.canManageUsers) {
    add(
      'identityProviderId',
      'Onboarding needs the ParticipantAdmin or IdentityProviderAdmin right.',
    );
  } else if (identityProviderId !== '' && idStringProblem(LEDGER_STRING, identityProviderId)) {
    add('identityProviderId', 'Not a valid identity provider id');
  } else if (
    access.administeredIdentityProviderId !== undefined &&
    identityProviderId !== access.administeredIdentityProviderId
  ) {
    add(
      'identityProviderId',
      `As an IdP admin you onboard people into your own identity provider (${access.administeredIdentityProviderId}) only.`,
    );
  } else if (access.administeredIdentityProviderId === undefined && identityProviderId !== '') {
    // The JSON API lists rights and deletes users only through the default IdP (§2.7), so a
    // participant admin could neither check nor undo an onboarding into another IdP.
    add(
      'identityProviderId',
      'A participant admin onboards into the default identity provider; people of another identity provider are onboarded by its IdP admin.',
    );
  }

  const namespace = input.participantNamespace;
  if (
    namespace === '' ||
    namespace.includes(UNIQUE_IDENTIFIER_SEPARATOR) ||
    idStringProblem(PARTY_STRING, namespace)
  ) {
    add('party', 'The participant’s namespace is unknown, so the party id cannot be predicted.');
  }

  let party = '';
  if (input.party.kind === 'new') {
    const hintProblem = partyHintProblem(input.party.hint);
    add('party', hintProblem);
    if (!hintProblem) party = partyIdFor(input.party.hint, namespace);
  } else if (input.party.kind === 'external') {
    const hintProblem = partyHintProblem(input.party.hint);
    const fingerprintProblem = /^1220[0-9a-f]{64}$/.test(input.party.fingerprint)
      ? undefined
      : 'The key’s fingerprint is not a SHA-256 fingerprint (1220 and 64 hex digits).';
    add('party', hintProblem ?? fingerprintProblem);
    if (!hintProblem && !fingerprintProblem) {
      party = partyIdFor(input.party.hint, input.party.fingerprint);
    }
  } else {
    const partyProblem = existingPartyProblem(input.party.party);
    add('party', partyProblem);
    if (!partyProblem) party = input.party.party;
  }

  let rights: UserRight[] = [];
  if (input.rights.kind === 'preset') {
    rights = rightsPreset(input.rights.preset).rights(party);
  } else if (input.rights.rights.length === 0) {
    add('rights', 'Choose at least one right');
  } else if (input.rights.rights.length > MAX_CUSTOM_RIGHTS) {
    add('rights', `At most ${String(MAX_CUSTOM_RIGHTS)} rights`);
  } else {
    rights = distinctRights(input.rights.rights);
  }
  if (party !== '') {
    for (const message of rightsProblems(rights, party, input)) add('rights', message);
  }

  if (problems.length > 0) return { ok: false, problems };

  const userId = input.subject;
  const annotations: Record<string, string> =
    displayName === '' ? {} : { [DISPLAY_NAME_ANNOTATION]: displayName };
  const steps: PlanStep[] = [
    {
      kind: 'create-user',
      method: 'POST',
      path: '/v2/users',
      summary:
        displayName === ''
          ? `Create user ${userId} in ${idpName(identityProviderId)}, without rights yet`
          : `Create user ${userId} in ${idpName(identityProviderId)}, display name "${displayName}" as annotation ${DISPLAY_NAME_ANNOTATION}, without rights yet`,
      userId,
      identityProviderId,
      annotations,
    },
  ];
  let remaining = rights;
  if (input.party.kind === 'external') {
    const actsAsOwn = rights.some((right) => right.kind === 'CanActAs' && right.party === party);
    steps.push(
      externalStep({
        partyIdHint: input.party.hint,
        identityProviderId,
        userId: actsAsOwn ? userId : undefined,
        expectedParty: party,
        signed: input.party.signed,
      }),
    );
    if (actsAsOwn) {
      remaining = rights.filter((right) => !(right.kind === 'CanActAs' && right.party === party));
    }
  } else if (input.party.kind === 'new') {
    // Allocating "for" the user grants CanActAs; least privilege allocates without it when the
    // person is not meant to act.
    const actsAsOwn = rights.some((right) => right.kind === 'CanActAs' && right.party === party);
    steps.push({
      kind: 'allocate-party',
      method: 'POST',
      path: '/v2/parties',
      summary: actsAsOwn
        ? `Allocate party ${party} in ${idpName(identityProviderId)} for user ${userId}, which also grants it Act as ${party}`
        : `Allocate party ${party} in ${idpName(identityProviderId)} (not for the user: that would grant Act as, which the chosen rights leave out)`,
      partyIdHint: input.party.hint,
      identityProviderId,
      userId: actsAsOwn ? userId : undefined,
      expectedParty: party,
    });
    if (actsAsOwn) {
      remaining = rights.filter((right) => !(right.kind === 'CanActAs' && right.party === party));
    }
  }
  steps.push({
    kind: 'set-primary-party',
    method: 'PATCH',
    path: userPath(userId),
    summary: `Set ${party} as the primary party of ${userId} (update mask primary_party)`,
    userId,
    identityProviderId,
    party,
  });
  if (remaining.length > 0) steps.push(grantStep(userId, identityProviderId, remaining));

  return {
    ok: true,
    plan: {
      userId,
      identityProviderId,
      displayName: displayName === '' ? undefined : displayName,
      party,
      allocatesParty: input.party.kind !== 'existing',
      rights,
      steps,
      reused: [],
      conflicts: [],
      blockers: [],
    },
  };
}

/**
 * The plan with its external party's allocation signed: the topology generated for the person's
 * key and their signature of its multi-hash. Plans without such a step are returned as they are.
 */
export function withExternalSignature(
  plan: OnboardingPlan,
  signed: ExternalPartySigned,
): OnboardingPlan {
  return {
    ...plan,
    steps: plan.steps.map((step) =>
      step.kind === 'allocate-external-party' ? externalStep({ ...step, signed }) : step,
    ),
  };
}

/** The plan's external party allocation when it still waits for the person's signature. */
export function unsignedExternalStep(plan: OnboardingPlan): AllocateExternalPartyStep | undefined {
  return plan.steps.find(
    (step): step is AllocateExternalPartyStep =>
      step.kind === 'allocate-external-party' && step.signed === undefined,
  );
}

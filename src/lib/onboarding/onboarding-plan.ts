import {
  idStringProblem,
  LEDGER_STRING,
  MAX_PARTY_HINT_LENGTH,
  PARTY_STRING,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
} from '@ledger-console/participant/identifiers';
import {
  UNIQUE_IDENTIFIER_SEPARATOR,
  splitUniqueIdentifier,
} from '@ledger-console/participant/unique-identifier';
import { rightKey, type Access, type UserRight } from '@/lib/access/access-rights';
import { describeRight, RIGHT_KIND_INFO } from '@/lib/access/right-names';
import type { WireSignature } from '@/lib/signing/signatures';

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

/** The annotation the person's display name is kept under (a valid key: DNS prefix + name). */
export const DISPLAY_NAME_ANNOTATION = 'ledger-console/display-name';
export const MAX_DISPLAY_NAME_LENGTH = 200;
/** A custom right list longer than this is a mistake, not an onboarding. */
export const MAX_CUSTOM_RIGHTS = 50;

export type PartyChoice =
  /** A party to allocate now, from a hint; its id will be `<hint>::<participant namespace>`. */
  | { kind: 'new'; hint: string }
  /** A party the IdP already has. */
  | { kind: 'existing'; party: string }
  /**
   * An external party, whose key the person holds: its id is `<hint>::<fingerprint of the key>`.
   * `signed` is the generated topology and the person's signature of its multi-hash; a plan made
   * without it (bulk import, before the signatures are back) waits for it.
   */
  | { kind: 'external'; hint: string; fingerprint: string; signed?: ExternalPartySigned };

/** What `allocate` of an external party carries: the topology as generated, and its signature. */
export type ExternalPartySigned = {
  synchronizerId: string;
  /** The `generate-topology` transactions, base64, unchanged. */
  topologyTransactions: readonly string[];
  multiHashSignatures: readonly WireSignature[];
};

export const RIGHTS_PRESET_IDS = [
  'acts-as-own',
  'reads-own',
  'external-signer',
  'idp-co-admin',
] as const;
export type RightsPresetId = (typeof RIGHTS_PRESET_IDS)[number];

export type RightsChoice =
  | { kind: 'preset'; preset: RightsPresetId }
  /** Exact rights; party rights name full party ids (the own party's id is known in advance). */
  | { kind: 'custom'; rights: readonly UserRight[] };

export type OnboardingInput = {
  /** The person's subject (`sub`) at the provider: it becomes the user id. */
  subject: string;
  displayName?: string;
  identityProviderId: string;
  party: PartyChoice;
  rights: RightsChoice;
  /** What the caller may do (from its own rights). */
  access: Access;
  /** The participant's namespace, `1220…`: the part of its id after `::`. */
  participantNamespace: string;
  /**
   * Parties known to belong to the IdP, when the caller has listed them: an IdP admin may grant
   * CanActAs/CanReadAs only on those (§4.7). Without it, only the person's own party is accepted
   * for an IdP admin.
   */
  partiesOfIdentityProvider?: ReadonlySet<string>;
};

export type OnboardingField = 'subject' | 'displayName' | 'identityProviderId' | 'party' | 'rights';
export type OnboardingProblem = { field: OnboardingField; message: string };

export type RightsPreset = {
  id: RightsPresetId;
  label: string;
  /** What the person can do with it, plainly. */
  description: string;
  rights: (ownParty: string) => UserRight[];
};

export const RIGHTS_PRESETS: readonly RightsPreset[] = [
  {
    id: 'acts-as-own',
    label: 'Acts as own party',
    description:
      'Act as on their party: submit commands as it and read its contracts and transactions (acting implies reading).',
    rights: (party) => [{ kind: 'CanActAs', party }],
  },
  {
    id: 'reads-own',
    label: 'Reads own party',
    description:
      'Read as on their party: read its contracts and transactions; cannot submit commands.',
    rights: (party) => [{ kind: 'CanReadAs', party }],
  },
  {
    id: 'external-signer',
    label: 'External signer',
    description:
      'Execute as and Read as on their party: prepare transactions for it and execute them once signed outside the participant (interactive submission), and read its data (Execute as alone reads nothing); cannot submit ordinary commands. It serves a party whose transactions are signed with a key the person holds; for a party allocated here from a hint, which the participant signs for, it amounts to read access.',
    rights: (party) => [
      { kind: 'CanExecuteAs', party },
      { kind: 'CanReadAs', party },
    ],
  },
  {
    id: 'idp-co-admin',
    label: 'IdP co-admin',
    description:
      'Identity provider admin and Act as on their party: manage this identity provider’s users and parties, and act as their own party.',
    rights: (party) => [{ kind: 'IdentityProviderAdmin' }, { kind: 'CanActAs', party }],
  },
];

export function rightsPreset(id: RightsPresetId): RightsPreset {
  const preset = RIGHTS_PRESETS.find((candidate) => candidate.id === id);
  if (!preset) throw new Error(`Unknown rights preset ${id}`);
  return preset;
}

// ── steps ──────────────────────────────────────────────────────────────────────

type StepBase = { method: 'POST' | 'PATCH' | 'DELETE'; path: string; summary: string };

export type CreateUserStep = StepBase & {
  kind: 'create-user';
  method: 'POST';
  userId: string;
  identityProviderId: string;
  annotations: Record<string, string>;
};

export type AllocatePartyStep = StepBase & {
  kind: 'allocate-party';
  method: 'POST';
  partyIdHint: string;
  identityProviderId: string;
  /** Set when the person needs CanActAs on it: allocation then grants it to this user (§5.1). */
  userId: string | undefined;
  /** `<hint>::<namespace>`: the id the participant will give it. */
  expectedParty: string;
};

export type AllocateExternalPartyStep = StepBase & {
  kind: 'allocate-external-party';
  method: 'POST';
  partyIdHint: string;
  identityProviderId: string;
  /** Set when the person needs CanActAs on it: allocation then grants it to this user. */
  userId: string | undefined;
  /** `<hint>::<key fingerprint>`. */
  expectedParty: string;
  /** Undefined until the person's signature is in: such a step cannot run yet. */
  signed: ExternalPartySigned | undefined;
};

export type SetPrimaryPartyStep = StepBase & {
  kind: 'set-primary-party';
  method: 'PATCH';
  userId: string;
  identityProviderId: string;
  party: string;
};

export type GrantRightsStep = StepBase & {
  kind: 'grant-rights';
  method: 'POST';
  userId: string;
  identityProviderId: string;
  rights: UserRight[];
};

export type DeleteUserStep = StepBase & {
  kind: 'delete-user';
  method: 'DELETE';
  userId: string;
  identityProviderId: string;
};

export type PlanStep =
  | CreateUserStep
  | AllocatePartyStep
  | AllocateExternalPartyStep
  | SetPrimaryPartyStep
  | GrantRightsStep;

export type OnboardingPlan = {
  userId: string;
  identityProviderId: string;
  displayName: string | undefined;
  /** The exact party id the person ends up with. */
  party: string;
  /** Whether this plan allocates the party (false: an existing party is used). */
  allocatesParty: boolean;
  /** Every right the person should hold when the plan has run. */
  rights: UserRight[];
  /** What runs, in this order. */
  steps: PlanStep[];
  /** What already exists and is reused, for the reviewer (after {@link reconcile}). */
  reused: string[];
  /** Differences the plan will not override silently (after {@link reconcile}). */
  conflicts: string[];
  /** Why the plan cannot run as it is (after {@link reconcile}); empty when it can. */
  blockers: string[];
};

export type PlanResult =
  { ok: true; plan: OnboardingPlan } | { ok: false; problems: OnboardingProblem[] };

// ── validation ─────────────────────────────────────────────────────────────────

/** Why the participant would refuse `subject` as a user id, in a form's words. */
export function subjectProblem(subject: string): string | undefined {
  const problem = idStringProblem(USER_ID_STRING, subject);
  switch (problem?.kind) {
    case undefined:
      return undefined;
    case 'empty':
      return 'Required: the person’s subject (sub) at the identity provider';
    case 'too-long':
      return `A user id has at most ${String(problem.maxLength)} characters (this has ${String(problem.length)})`;
    case 'bad-char': {
      const shown = problem.char === ' ' ? 'A space' : `"${problem.char}"`;
      return `${shown} is not allowed in a user id: use ASCII letters, digits and ${USER_ID_SYMBOLS}`;
    }
  }
}

/** Why the participant would refuse `hint` as a party id hint (§5.1), or undefined. */
export function partyHintProblem(hint: string): string | undefined {
  if (hint === '') return 'Required: the first part of the new party id';
  if (hint.includes(UNIQUE_IDENTIFIER_SEPARATOR)) return 'A hint must not contain "::"';
  if (hint.length > MAX_PARTY_HINT_LENGTH) {
    return `A hint has at most ${String(MAX_PARTY_HINT_LENGTH)} characters (this has ${String(hint.length)})`;
  }
  // The server accepts a space in a party string; it is refused here because nobody can type such
  // an id back reliably.
  const space = hint.includes(' ');
  const problem = idStringProblem(PARTY_STRING, hint);
  if (space || problem?.kind === 'bad-char') {
    const shown = space ? 'A space' : `"${problem?.kind === 'bad-char' ? problem.char : ''}"`;
    return `${shown} is not allowed: use letters, digits, "-", "_" and ":"`;
  }
  return undefined;
}

/** The namespace of a participant id (`name::1220…`), or undefined when it is not one. */
export function namespaceOfParticipantId(participantId: string): string | undefined {
  const parts = splitUniqueIdentifier(participantId);
  if (!parts || parts.namespace === '' || parts.namespace.includes(UNIQUE_IDENTIFIER_SEPARATOR)) {
    return undefined;
  }
  return parts.namespace;
}

/** The exact id a party allocated with `hint` on this participant gets (§5.1). */
export function partyIdFor(hint: string, participantNamespace: string): string {
  return `${hint}${UNIQUE_IDENTIFIER_SEPARATOR}${participantNamespace}`;
}

function existingPartyProblem(party: string): string | undefined {
  if (party === '') return 'Choose a party';
  const problem = idStringProblem(PARTY_STRING, party);
  if (problem) return 'This is not a valid party id';
  if (!splitUniqueIdentifier(party)) return 'A party id has the form hint::namespace';
  return undefined;
}

/** Why the display name cannot be kept as given, or undefined. */
export function displayNameProblem(name: string): string | undefined {
  if (name.length > MAX_DISPLAY_NAME_LENGTH) {
    return `At most ${String(MAX_DISPLAY_NAME_LENGTH)} characters (this has ${String(name.length)})`;
  }
  // eslint-disable-next-line no-control-regex -- exactly the characters refused
  if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(name)) {
    return 'Control or direction-changing characters are not allowed';
  }
  return undefined;
}

/** The rights, once each, in their first order. */
function distinctRights(rights: readonly UserRight[]): UserRight[] {
  const seen = new Set<string>();
  return rights.filter((right) => {
    const key = rightKey(right);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function rightsProblems(
  rights: readonly UserRight[],
  ownParty: string,
  input: OnboardingInput,
): string[] {
  const problems: string[] = [];
  const { access } = input;
  for (const right of rights) {
    if (!access.canGrant(right.kind)) {
      problems.push(
        `You may not grant ${RIGHT_KIND_INFO[right.kind].label}: only a participant admin may (an identity provider admin grants Act as, Read as, Execute as and Identity provider admin).`,
      );
      continue;
    }
    if ('party' in right) {
      const partyProblem = idStringProblem(PARTY_STRING, right.party);
      if (partyProblem) {
        problems.push(`${describeRight(right)}: not a valid party id.`);
        continue;
      }
      const isIdpAdmin = access.administeredIdentityProviderId !== undefined;
      // The participant checks CanActAs/CanReadAs parties against the IdP's parties, not
      // CanExecuteAs ones (§2.2); the console holds an IdP admin to the same rule for all three,
      // since it only offers the IdP's own parties.
      if (
        isIdpAdmin &&
        right.party !== ownParty &&
        !(input.partiesOfIdentityProvider?.has(right.party) ?? false)
      ) {
        problems.push(
          `${describeRight(right)}: an IdP admin may grant rights only on parties of its own identity provider.`,
        );
      }
    }
  }
  return problems;
}

// ── planning ───────────────────────────────────────────────────────────────────

function userPath(userId: string, suffix = ''): string {
  return `/v2/users/${encodeURIComponent(userId)}${suffix}`;
}

/**
 * The plan for `input`, or every problem with it (each tied to the form field it concerns). The
 * plan assumes nothing exists yet; {@link reconcile} adjusts it to what does.
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

function externalStep(
  fields: Omit<AllocateExternalPartyStep, 'kind' | 'method' | 'path' | 'summary'>,
): AllocateExternalPartyStep {
  const { expectedParty: party, identityProviderId, userId, signed } = fields;
  const where =
    signed === undefined
      ? 'once the person has signed its topology'
      : `on ${signed.synchronizerId}`;
  return {
    ...fields,
    kind: 'allocate-external-party',
    method: 'POST',
    path: '/v2/parties/external/allocate',
    summary:
      userId === undefined
        ? `Allocate external party ${party} ${where} in ${idpName(identityProviderId)}, signed by the person's key (not for the user: that would grant Act as, which the chosen rights leave out)`
        : `Allocate external party ${party} ${where} in ${idpName(identityProviderId)} for user ${userId}, signed by the person's key, which also grants it Act as ${party}`,
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

function grantStep(
  userId: string,
  identityProviderId: string,
  rights: UserRight[],
): GrantRightsStep {
  return {
    kind: 'grant-rights',
    method: 'POST',
    path: userPath(userId, '/rights'),
    summary: `Grant ${rights.map(describeRight).join(', ')} to ${userId}`,
    userId,
    identityProviderId,
    rights,
  };
}

function idpName(identityProviderId: string): string {
  return identityProviderId === ''
    ? 'the default identity provider'
    : `identity provider ${identityProviderId}`;
}

// ── idempotent retries ─────────────────────────────────────────────────────────

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

/**
 * The plan adjusted to what exists, so running it twice changes nothing the second time: an
 * existing user is not created again, an existing party not allocated again, a primary party
 * already set not patched, and only the missing rights are granted. A party known but not of this
 * IdP, or a user whose primary party is another, is a conflict, never overridden.
 */
export function reconcile(plan: OnboardingPlan, existing: ExistingState): OnboardingPlan {
  const reused: string[] = [];
  const conflicts: string[] = [];
  const blockers: string[] = [];
  const userExists = existing.user !== undefined;
  if (existing.userInOtherIdentityProvider === true) {
    blockers.push(
      `The participant refuses to show user ${plan.userId} to ${idpName(plan.identityProviderId)}: the id is taken in another identity provider. Ask the person's provider for their subject there, or its admin to move the user.`,
    );
  }
  const held = new Set((existing.userRights ?? []).map(rightKey));

  if (existing.user) {
    reused.push(`User ${plan.userId} exists already: it is kept, not created again.`);
    if (
      plan.displayName !== undefined &&
      existing.user.displayName !== undefined &&
      existing.user.displayName !== plan.displayName
    ) {
      conflicts.push(
        `User ${plan.userId} already has the display name "${existing.user.displayName}"; it is left as it is.`,
      );
    }
  }

  if (existing.party) {
    if (existing.party.isLocal && existing.party.identityProviderId === plan.identityProviderId) {
      if (plan.allocatesParty) {
        reused.push(`Party ${plan.party} exists already in this identity provider: it is reused.`);
      }
    } else {
      blockers.push(
        plan.allocatesParty
          ? `Party ${plan.party} exists already but is not a party of ${idpName(plan.identityProviderId)} on this participant: choose another hint.`
          : `Party ${plan.party} is not a party of ${idpName(plan.identityProviderId)} on this participant: choose one of its parties.`,
      );
    }
  } else if (!plan.allocatesParty) {
    blockers.push(`Party ${plan.party} is not known to this participant.`);
  }

  const primary = existing.user?.primaryParty ?? '';
  const setsPrimary = primary === '';
  if (primary === plan.party) {
    reused.push(`${plan.party} is already the primary party of ${plan.userId}.`);
  } else if (primary !== '') {
    conflicts.push(
      `User ${plan.userId} has another primary party (${primary}); it is left as it is. Change it on the user's page if that is intended.`,
    );
  }

  const steps: PlanStep[] = [];
  let grantedByAllocation: string | undefined;
  for (const step of plan.steps) {
    if (step.kind === 'create-user' && !userExists) steps.push(step);
    if (
      (step.kind === 'allocate-party' || step.kind === 'allocate-external-party') &&
      existing.party === undefined
    ) {
      steps.push(step);
      if (step.userId !== undefined)
        grantedByAllocation = rightKey({ kind: 'CanActAs', party: plan.party });
    }
    if (step.kind === 'set-primary-party' && setsPrimary) steps.push(step);
  }
  const missing = plan.rights.filter(
    (right) => !held.has(rightKey(right)) && rightKey(right) !== grantedByAllocation,
  );
  const alreadyHeld = plan.rights.filter((right) => held.has(rightKey(right)));
  if (alreadyHeld.length > 0) {
    reused.push(`${plan.userId} already holds ${alreadyHeld.map(describeRight).join(', ')}.`);
  }
  if (missing.length > 0) steps.push(grantStep(plan.userId, plan.identityProviderId, missing));

  return {
    ...plan,
    steps,
    reused: [...plan.reused, ...reused],
    conflicts: [...plan.conflicts, ...conflicts],
    blockers: [...plan.blockers, ...blockers],
  };
}

// ── undo ───────────────────────────────────────────────────────────────────────

export type UndoPlan = {
  /** What to run, in order (at most the deletion of the user this run created). */
  steps: DeleteUserStep[];
  /** What stays whatever is undone, plainly. */
  remains: string[];
};

/**
 * How to undo the steps that completed before a failure: delete the user if this run created it
 * (which also removes its rights and primary party). A user that existed before is not touched.
 * A party allocated by the run stays: parties cannot be deleted.
 */
export function undoPlan(done: readonly PlanStep[]): UndoPlan {
  const created = done.find((step): step is CreateUserStep => step.kind === 'create-user');
  const allocated = done.find(
    (step): step is AllocatePartyStep | AllocateExternalPartyStep =>
      step.kind === 'allocate-party' || step.kind === 'allocate-external-party',
  );
  const steps: DeleteUserStep[] = created
    ? [
        {
          kind: 'delete-user',
          method: 'DELETE',
          path: userPath(created.userId),
          summary: `Delete user ${created.userId}, created by this run (its rights go with it)`,
          userId: created.userId,
          identityProviderId: created.identityProviderId,
        },
      ]
    : [];
  const remains: string[] = [];
  if (allocated?.kind === 'allocate-external-party') {
    remains.push(
      `External party ${allocated.expectedParty} was allocated and remains: parties cannot be deleted in Canton. Its key stays with the person; onboarding again with the same hint and key reuses the party.`,
    );
  } else if (allocated) {
    remains.push(
      `Party ${allocated.expectedParty} was allocated and remains: parties cannot be deleted. Onboarding again with the same hint reuses it.`,
    );
  } else {
    remains.push('No party was created by this run.');
  }
  const userId = done[0]?.userId;
  if (!created && userId !== undefined) {
    const changed = done.filter(
      (step) => step.kind !== 'allocate-party' && step.kind !== 'allocate-external-party',
    );
    if (changed.length > 0) {
      remains.push(
        `User ${userId} existed before this run and is kept, with what this run changed: ${changed.map((step) => step.summary).join('; ')}.`,
      );
    }
  }
  if (created && !allocated) {
    remains.push(`Once user ${created.userId} is deleted, nothing of this run remains.`);
  }
  return { steps, remains };
}

// ── hand-off ───────────────────────────────────────────────────────────────────

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

import { idStringProblemText } from '@/lib/forms/id-string-problem-text';
import {
  idStringProblem,
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
 * What onboarding one person takes as input (the person, their party, their rights, the
 * caller's access), the rights presets, and the rules each field must meet, worded for a form:
 * the planner (`planOnboarding`) checks every field with them.
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

/**
 * The rights a person gets when whoever onboards them names none: the one-person form starts on
 * it, and a bulk import file without rights uses it. The least that lets them work: act (and so
 * read) as their own party, nothing on any other party, no admin right.
 */
export const DEFAULT_RIGHTS_PRESET: RightsPresetId = 'acts-as-own';

export function rightsPreset(id: RightsPresetId): RightsPreset {
  const preset = RIGHTS_PRESETS.find((candidate) => candidate.id === id);
  if (!preset) throw new Error(`Unknown rights preset ${id}`);
  return preset;
}

// ── validation ─────────────────────────────────────────────────────────────────

/** Why the participant would refuse `subject` as a user id, in a form's words. */
export function subjectProblem(subject: string): string | undefined {
  return idStringProblemText(idStringProblem(USER_ID_STRING, subject), {
    empty: 'Required: the person’s subject (sub) at the identity provider',
    noun: 'user id',
    showsLength: true,
    allowed: `: use ASCII letters, digits and ${USER_ID_SYMBOLS}`,
  });
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

export function existingPartyProblem(party: string): string | undefined {
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
export function distinctRights(rights: readonly UserRight[]): UserRight[] {
  const seen = new Set<string>();
  return rights.filter((right) => {
    const key = rightKey(right);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function rightsProblems(
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

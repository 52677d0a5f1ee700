import type { PartyDetails } from '@/api/parties';
import type { SignInProviderConfig } from '@/api/sign-in-providers';
import type { ConnectedSynchronizer } from '@/api/synchronizers';
import type { User } from '@/api/users';
import type { Verdict } from '@/components/verdict-list';
import { isolateIdentifier } from '@/lib/text/display-text';
import type { UserRight } from '@/lib/access/access-rights';

/** At most this many parties are looked up per check (two requests each). */
export const MAX_CHECKED_PARTIES = 10;

/** A lookup's outcome: its value, or why it failed, in plain text. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export type PartyRole = 'primary' | 'acts' | 'reads' | 'executes';

export type PartyToCheck = { party: string; roles: PartyRole[] };

export type PartyLookup = PartyToCheck & {
  /** The party as the user's IdP sees it; null when the participant does not know it. */
  details: Outcome<PartyDetails | null>;
  synchronizers: Outcome<ConnectedSynchronizer[]>;
};

export type AccessCheckInput = {
  user: User;
  rights: Outcome<readonly UserRight[]>;
  parties: readonly PartyLookup[];
  /** Parties beyond {@link MAX_CHECKED_PARTIES}, not looked up. */
  partiesNotChecked: number;
  providers: Outcome<readonly SignInProviderConfig[]>;
};

/** The primary party first, then each party of a party right, once, with what the user may do. */
export function partiesToCheck(
  user: User,
  rights: readonly UserRight[],
): { parties: PartyToCheck[]; notChecked: number } {
  const byParty = new Map<string, PartyRole[]>();
  const add = (party: string, role: PartyRole) => {
    const roles = byParty.get(party) ?? [];
    if (!roles.includes(role)) roles.push(role);
    byParty.set(party, roles);
  };
  if (user.primaryParty) add(user.primaryParty, 'primary');
  const roleOf = { CanActAs: 'acts', CanReadAs: 'reads', CanExecuteAs: 'executes' } as const;
  for (const right of rights) {
    if ('party' in right) add(right.party, roleOf[right.kind]);
  }
  const all = [...byParty].map(([party, roles]) => ({ party, roles }));
  return {
    parties: all.slice(0, MAX_CHECKED_PARTIES),
    notChecked: Math.max(0, all.length - MAX_CHECKED_PARTIES),
  };
}

const idpName = (identityProviderId: string) =>
  identityProviderId === '' ? 'the default IdP' : `IdP "${identityProviderId}"`;

const ROLE_TEXT: Record<PartyRole, string> = {
  primary: 'its primary party',
  acts: 'acts as it',
  reads: 'reads as it',
  executes: 'executes as it',
};

/** Verdicts on whether this user can sign in and work, each with what to do about it. */
export function accessVerdicts(input: AccessCheckInput): Verdict[] {
  const { user } = input;
  const idp = user.identityProviderId ?? '';
  return [
    statusVerdict(user),
    rightsVerdict(input.rights),
    primaryPartyVerdict(user, input.rights),
    ...input.parties.map((lookup, index) => partyVerdict(lookup, index, idp)),
    ...(input.partiesNotChecked > 0
      ? [
          {
            id: 'parties-not-checked',
            title: 'Further parties',
            status: 'unknown' as const,
            finding: `${String(input.partiesNotChecked)} more parties in its rights were not looked up (at most ${String(MAX_CHECKED_PARTIES)} per check).`,
          },
        ]
      : []),
    providerVerdict(user, input.providers),
  ];
}

function statusVerdict(user: User): Verdict {
  return user.isDeactivated
    ? {
        id: 'status',
        title: 'Status',
        status: 'problem',
        finding: `User "${isolateIdentifier(user.id)}" is deactivated: the participant answers 403 to its tokens, and the person sees the not-onboarded page after signing in.`,
        fix: 'Reactivate it: clear "Deactivated" on the Profile tab.',
      }
    : {
        id: 'status',
        title: 'Status',
        status: 'ok',
        finding: `User "${isolateIdentifier(user.id)}" is active: the participant accepts its tokens.`,
      };
}

function rightsVerdict(rights: Outcome<readonly UserRight[]>): Verdict {
  const base = { id: 'rights', title: 'Rights' };
  if (!rights.ok) return { ...base, status: 'unknown', finding: rights.reason };
  if (rights.value.length === 0) {
    return {
      ...base,
      status: 'warning',
      finding:
        'No rights: the person can sign in, but the participant refuses every request for a party.',
      fix: 'Grant Act as or Read as for the person’s party on the Rights tab.',
    };
  }
  return { ...base, status: 'ok', finding: summarizeRights(rights.value) };
}

/** "Acts as 1 party, reads as 2 parties; IdP admin" — the rights in short. */
export function summarizeRights(rights: readonly UserRight[]): string {
  const count = (kind: UserRight['kind']) => rights.filter((right) => right.kind === kind).length;
  const parties = (n: number) => `${String(n)} ${n === 1 ? 'party' : 'parties'}`;
  const parts = [
    count('CanActAs') > 0 ? `acts as ${parties(count('CanActAs'))}` : undefined,
    count('CanReadAs') > 0 ? `reads as ${parties(count('CanReadAs'))}` : undefined,
    count('CanExecuteAs') > 0 ? `executes as ${parties(count('CanExecuteAs'))}` : undefined,
    count('CanActAsAnyParty') > 0 ? 'acts as any party' : undefined,
    count('CanReadAsAnyParty') > 0 ? 'reads as any party' : undefined,
    count('CanExecuteAsAnyParty') > 0 ? 'executes as any party' : undefined,
    count('ParticipantAdmin') > 0 ? 'participant admin' : undefined,
    count('IdentityProviderAdmin') > 0 ? 'IdP admin' : undefined,
  ].filter((part) => part !== undefined);
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function primaryPartyVerdict(user: User, rights: Outcome<readonly UserRight[]>): Verdict {
  const base = { id: 'primary-party', title: 'Primary party' };
  const primary = user.primaryParty ?? '';
  const kinds = new Set(rights.ok ? rights.value.map((right) => right.kind) : []);
  const isAdmin = kinds.has('ParticipantAdmin') || kinds.has('IdentityProviderAdmin');
  if (primary === '') {
    return isAdmin
      ? { ...base, status: 'ok', finding: 'None, which an administrator does not need.' }
      : {
          ...base,
          status: 'warning',
          finding:
            'None: applications and this console’s composer have no party to start from for this person.',
          fix: 'Set the primary party on the Profile tab to the party the person acts as.',
        };
  }
  if (!rights.ok) {
    return {
      ...base,
      status: 'unknown',
      finding: `"${isolateIdentifier(primary)}"; ${lowerFirst(rights.reason)}`,
    };
  }
  const covered =
    kinds.has('CanActAsAnyParty') ||
    kinds.has('CanReadAsAnyParty') ||
    rights.value.some(
      (right) => 'party' in right && right.party === primary && right.kind !== 'CanExecuteAs',
    );
  return covered
    ? {
        ...base,
        status: 'ok',
        finding: `"${isolateIdentifier(primary)}", which it may act or read as.`,
      }
    : {
        ...base,
        status: 'warning',
        finding: `"${isolateIdentifier(primary)}", but the user has no right to act or read as it: requests as its primary party are refused.`,
        fix: `Grant Act as or Read as for "${isolateIdentifier(primary)}" on the Rights tab, or change the primary party.`,
      };
}

function partyVerdict(lookup: PartyLookup, index: number, idp: string): Verdict {
  const base = { id: `party-${String(index)}`, title: `Party ${lookup.party}` };
  const roles = lookup.roles.map((role) => ROLE_TEXT[role]).join(', ');
  const lead = `${roles.charAt(0).toUpperCase()}${roles.slice(1)}.`;
  if (!lookup.details.ok) {
    return { ...base, status: 'unknown', finding: `${lead} ${lookup.details.reason}` };
  }
  const details = lookup.details.value;
  if (details === null) {
    return {
      ...base,
      status: 'problem',
      finding: `${lead} This participant does not know the party: no request as it can succeed here.`,
      fix: 'Check the party id; allocate the party on this participant, or grant a right over an existing party instead.',
    };
  }
  if (!lookup.synchronizers.ok) {
    return { ...base, status: 'unknown', finding: `${lead} ${lookup.synchronizers.reason}` };
  }
  const hosting = lookup.synchronizers.value;
  const where = hosting
    .map((s) => `${s.synchronizerAlias} (${permissionText(s.permission)})`)
    .join(', ');
  if (!details.isLocal) {
    return hosting.length > 0
      ? {
          ...base,
          status: 'warning',
          finding: `${lead} Hosted here on ${where}, but not as a party of ${idpName(idp)}: it belongs to another identity provider, whose administrators manage it.`,
          fix: `Prefer a party of ${idpName(idp)}; a participant admin can tell which IdP the party belongs to.`,
        }
      : {
          ...base,
          status: 'problem',
          finding: `${lead} Known to this participant but not hosted here: commands as it cannot be submitted through this participant.`,
          fix: 'Host the party on this participant, or have the person use the participant that hosts it.',
        };
  }
  if (hosting.length === 0) {
    return {
      ...base,
      status: 'problem',
      finding: `${lead} A party of ${idpName(idp)}, but hosted on no connected synchronizer: nothing can be submitted or seen as it right now.`,
      fix: 'Reconnect the participant to the synchronizer the party was allocated on.',
    };
  }
  const canSubmit = hosting.some((s) => s.permission === 'PARTICIPANT_PERMISSION_SUBMISSION');
  if (lookup.roles.includes('acts') && !canSubmit) {
    return {
      ...base,
      status: 'warning',
      finding: `${lead} Hosted here on ${where}, without submission permission: submitting as it fails.`,
      fix: 'Host the party on this participant with submission permission.',
    };
  }
  return { ...base, status: 'ok', finding: `${lead} Hosted here on ${where}.` };
}

function permissionText(permission: string | undefined): string {
  switch (permission) {
    case 'PARTICIPANT_PERMISSION_SUBMISSION':
      return 'submission';
    case 'PARTICIPANT_PERMISSION_CONFIRMATION':
      return 'confirmation only';
    case 'PARTICIPANT_PERMISSION_OBSERVATION':
      return 'observation only';
    default:
      return 'permission unspecified';
  }
}

function providerVerdict(user: User, providers: Outcome<readonly SignInProviderConfig[]>): Verdict {
  const base = { id: 'sign-in-provider', title: 'Sign-in provider' };
  const idp = user.identityProviderId ?? '';
  if (!providers.ok) return { ...base, status: 'unknown', finding: providers.reason };
  if (providers.value.length === 0) {
    return {
      ...base,
      status: 'unknown',
      finding: `This console offers no sign-in providers: the person signs in by pasting a token from the issuer of ${idpName(idp)} whose subject is "${isolateIdentifier(user.id)}".`,
    };
  }
  const matching = providers.value.filter((provider) => provider.identityProviderId === idp);
  if (matching.length === 0) {
    return {
      ...base,
      status: 'problem',
      finding: `No configured provider for ${idpName(idp)}: the person cannot sign in through this console’s sign-in page.`,
      fix: `Add a sign-in provider for ${idpName(idp)} to the console server (--sign-in-config), or have the person paste a token from its issuer.`,
    };
  }
  const names = matching.map((provider) => `"${provider.name}"`).join(' or ');
  return {
    ...base,
    status: 'ok',
    finding: `Signs in through ${names}, as subject "${isolateIdentifier(user.id)}" (the user id must be the token’s sub).`,
  };
}

function lowerFirst(text: string): string {
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

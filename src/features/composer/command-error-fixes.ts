/**
 * What a failed command submission means in the user's terms, and the one action that fixes it
 * when the caller may take it (issue 16 item 3): add a party to Act as, ask for or grant a right,
 * pick another template or choice, open the contract, take a new command id. Pure: the composer
 * renders the sentence and turns each fix into a button or a link.
 */
import type { ApiError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';

/** The parts of the command draft a failure can be about. */
export type CommandDraftFacts = {
  actAs: readonly string[];
  readAs: readonly string[];
  /** The request's user id; '' when it is left to the participant (the caller's own). */
  userId: string;
  commands: readonly {
    templateId: string;
    contractId: string;
    choice: string;
  }[];
};

/** Whom the caller may act and read as, and whether it may change rights. */
export type SubmitterAccess = {
  actAs: 'any' | readonly string[];
  readAs: 'any' | readonly string[];
  /** The caller's own user id; undefined without a user behind the session. */
  userId: string | undefined;
  /** The caller may grant party rights to users (a participant or IdP admin). */
  canGrantPartyRights: boolean;
};

export type CommandFix =
  /** Adds these parties to this command's Act as (the caller may act as each). */
  | { kind: 'addActAs'; parties: readonly string[] }
  /** An admin grants the right on the user's page. */
  | {
      kind: 'grantRight';
      right: 'CanActAs' | 'CanReadAs';
      parties: readonly string[];
      userId: string;
    }
  /** Picks another template for this command from the catalog. */
  | { kind: 'pickTemplate'; commandIndex: number }
  /** Uploads the DAR that holds the template. */
  | { kind: 'uploadDar' }
  /** Picks another choice for this command. */
  | { kind: 'pickChoice'; commandIndex: number }
  /** Opens the contract's page (where it was created and archived). */
  | { kind: 'openContract'; contractId: string }
  /** Sets a fresh command id and keeps everything else. */
  | { kind: 'newCommandId' };

export type CommandFailure = {
  /** One or two sentences: what went wrong, in the console's words. */
  cause: string;
  fixes: CommandFix[];
};

const party = (id: string) => shortenIdentifier(id);
const partyList = (ids: readonly string[]) => ids.map(party).join(', ');
const listOf = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

const mayAct = (access: SubmitterAccess, id: string) =>
  access.actAs === 'any' || access.actAs.includes(id);
const mayRead = (access: SubmitterAccess, id: string) =>
  access.readAs === 'any' || access.readAs.includes(id) || mayAct(access, id);

/** `<pkg>:<Module>:<Entity>` → `Module:Entity`, the part both id forms share. */
const qualifiedName = (templateId: string) => templateId.trim().split(':').slice(1).join(':');

/**
 * The parties a `DAML_AUTHORIZATION_ERROR` says are missing: the required authorizers that were
 * not given, or (a fetch) the stakeholders of which any one would do. Daml's wording: "requires
 * authorizers a,b, but only c were given"; "requires one of the stakeholders a,b of the fetched
 * contract to be an authorizer, but authorizers were c".
 */
export function missingAuthorizers(
  cause: string,
): { parties: string[]; anyOneOf: boolean } | undefined {
  const required =
    /requires authorizers ([^\s]+(?:, ?[^\s]+)*), but only ([^\s]*(?:, ?[^\s]+)*) were given/.exec(
      cause,
    );
  if (required) {
    const given = new Set(listOf(required[2] ?? ''));
    const missing = listOf(required[1] ?? '').filter((entry) => !given.has(entry));
    return missing.length > 0 ? { parties: [...new Set(missing)], anyOneOf: false } : undefined;
  }
  const stakeholders =
    /requires one of the stakeholders ([^\s]+(?:, ?[^\s]+)*) of the fetched contract/.exec(cause);
  if (stakeholders) {
    return { parties: [...new Set(listOf(stakeholders[1] ?? ''))], anyOneOf: true };
  }
  return undefined;
}

function authorityFailure(
  error: ApiError,
  draft: CommandDraftFacts,
  access: SubmitterAccess,
): CommandFailure {
  const missing = missingAuthorizers(error.body.cause);
  if (!missing) {
    return {
      cause:
        'The command needs the authority of a party that is not in Act as. Add the signatories or controllers it names to Act as.',
      fixes: [],
    };
  }
  const absent = missing.parties.filter((entry) => !draft.actAs.includes(entry));
  const allowed = absent.filter((entry) => mayAct(access, entry));
  const refused = absent.filter((entry) => !mayAct(access, entry));
  const needs = missing.anyOneOf
    ? `The command needs the authority of one of ${partyList(missing.parties)}`
    : `The command needs the authority of ${partyList(missing.parties)}`;
  // A fetch needs one stakeholder: adding the first the caller may act as is enough.
  const toAdd = missing.anyOneOf ? allowed.slice(0, 1) : allowed;
  const fixes: CommandFix[] = [];
  if (toAdd.length > 0) fixes.push({ kind: 'addActAs', parties: toAdd });
  const stillRefused = missing.anyOneOf && toAdd.length > 0 ? [] : refused;
  let cause = `${needs}, which ${absent.length === 1 ? 'is' : 'are'} not in Act as.`;
  if (stillRefused.length > 0) {
    const userId = access.userId;
    if (access.canGrantPartyRights && userId !== undefined) {
      fixes.push({ kind: 'grantRight', right: 'CanActAs', parties: stillRefused, userId });
      cause += ` Your user may not act as ${partyList(stillRefused)} yet: grant it Act as first.`;
    } else {
      cause += ` Your user may not act as ${partyList(stillRefused)}: ask a participant administrator (or your identity provider's administrator) to grant it Act as.`;
    }
  }
  return { cause, fixes };
}

/** A 403 on the submit: the token's user lacks a right the request needs (the body says only NA). */
function rightsFailure(draft: CommandDraftFacts, access: SubmitterAccess): CommandFailure {
  const userId = draft.userId.trim();
  if (access.userId !== undefined && userId !== '' && userId !== access.userId) {
    return {
      cause: `The command names user ${userId}, but you are signed in as ${access.userId}: a user may submit only as itself. Clear the user id or sign in as ${userId}.`,
      fixes: [],
    };
  }
  const noActAs = draft.actAs.filter((entry) => !mayAct(access, entry));
  const noReadAs = draft.readAs.filter((entry) => !mayRead(access, entry));
  const missing = [
    ...(noActAs.length > 0 ? [`Act as for ${partyList(noActAs)}`] : []),
    ...(noReadAs.length > 0 ? [`Read as for ${partyList(noReadAs)}`] : []),
  ];
  if (missing.length === 0) {
    return {
      cause:
        'The participant refused the submission for your user: it lacks a right for one of the Act as or Read as parties, or the user is deactivated.',
      fixes: [],
    };
  }
  const cause = `Your user is missing ${missing.join(' and ')}.`;
  if (access.canGrantPartyRights && access.userId !== undefined) {
    const fixes: CommandFix[] = [];
    if (noActAs.length > 0) {
      fixes.push({
        kind: 'grantRight',
        right: 'CanActAs',
        parties: noActAs,
        userId: access.userId,
      });
    }
    if (noReadAs.length > 0) {
      fixes.push({
        kind: 'grantRight',
        right: 'CanReadAs',
        parties: noReadAs,
        userId: access.userId,
      });
    }
    return { cause: `${cause} You may grant it on your user's page.`, fixes };
  }
  return {
    cause: `${cause} Ask a participant administrator (or your identity provider's administrator) to grant it.`,
    fixes: [],
  };
}

function commandIndexIn(cause: string, count: number): number | undefined {
  const match = /commands\[(\d+)\]/.exec(cause);
  if (!match) return count === 1 ? 0 : undefined;
  const index = Number(match[1]);
  return index < count ? index : undefined;
}

/**
 * The failure of a submission in the user's terms, with the fixes the caller may apply; undefined
 * for failures this does not know (the server's own message then stands alone).
 */
export function classifyCommandFailure(
  error: ApiError,
  draft: CommandDraftFacts,
  access: SubmitterAccess,
): CommandFailure | undefined {
  const { code, cause } = error.body;
  const resources = error.body.resources ?? [];
  const count = draft.commands.length;

  if (code === 'DAML_AUTHORIZATION_ERROR') return authorityFailure(error, draft, access);
  if (error.status === 403) return rightsFailure(draft, access);

  if (
    code === 'TEMPLATES_OR_INTERFACES_NOT_FOUND' ||
    code === 'JSON_API_PACKAGE_SELECTION_FAILED'
  ) {
    const missing = resources.filter(([kind]) => kind === 'TEMPLATE_ID').map(([, id]) => id ?? '');
    const byName = draft.commands.findIndex((command) =>
      missing.some((id) => qualifiedName(id) === qualifiedName(command.templateId)),
    );
    const index = byName >= 0 ? byName : commandIndexIn(cause, count);
    const templateId = index === undefined ? missing[0] : draft.commands[index]?.templateId.trim();
    const named = templateId ? `template ${templateId}` : 'such template';
    const fixes: CommandFix[] =
      index === undefined ? [] : [{ kind: 'pickTemplate', commandIndex: index }];
    fixes.push({ kind: 'uploadDar' });
    return {
      cause:
        code === 'JSON_API_PACKAGE_SELECTION_FAILED'
          ? `No package on this participant provides ${named} for the Act as parties. Pick a template it has, or upload the DAR that holds it.`
          : `The participant has no ${named}. Pick one from its packages, or upload the DAR that holds it.`,
      fixes,
    };
  }

  const unknownChoice = /Invalid template:(\S+) or choice:(\S+)/.exec(cause);
  if (unknownChoice) {
    const choice = unknownChoice[2] ?? '';
    const byChoice = draft.commands.findIndex((command) => command.choice.trim() === choice);
    const index = byChoice >= 0 ? byChoice : commandIndexIn(cause, count);
    const template = unknownChoice[1] ?? '';
    return {
      cause: `Template ${qualifiedName(template) || template} has no choice ${choice}. Pick one of its choices.`,
      fixes: index === undefined ? [] : [{ kind: 'pickChoice', commandIndex: index }],
    };
  }

  if (code === 'CONTRACT_NOT_FOUND' || code === 'CONTRACT_NOT_ACTIVE') {
    const contractId =
      resources.find(([kind]) => kind === 'CONTRACT_ID')?.[1] ??
      /(?:contract|id) ([0-9a-f]{20,})/i.exec(cause)?.[1];
    const shown =
      contractId === undefined ? 'The contract' : `Contract ${shortenIdentifier(contractId)}`;
    return {
      cause:
        code === 'CONTRACT_NOT_ACTIVE'
          ? `${shown} is no longer active: it was archived. Open it to see the transaction that archived it, and use an active contract instead.`
          : `${shown} is not active, or none of the Act as and Read as parties can see it. Check the contract id, or add a stakeholder to Read as.`,
      fixes: contractId === undefined ? [] : [{ kind: 'openContract', contractId }],
    };
  }

  if (code === 'DUPLICATE_COMMAND') {
    const offset = error.body.context?.completion_offset;
    return {
      cause: `A command with this command id was already accepted${offset ? ` (at offset ${offset})` : ''}, and the same user, Act as and command id within the deduplication period count as the same change. Take a new command id to submit it again.`,
      fixes: [{ kind: 'newCommandId' }],
    };
  }
  if (code === 'SUBMISSION_ALREADY_IN_FLIGHT') {
    return {
      cause:
        'A command with this command id is still being processed. Wait for it, or take a new command id if you mean a second, separate change.',
      fixes: [{ kind: 'newCommandId' }],
    };
  }
  return undefined;
}

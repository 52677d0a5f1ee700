import { describeError, isApiError } from '@/lib/errors/api-error';
import { idHint } from '@/lib/transaction-tree/update-summary';

/**
 * What a refused reassignment means, in the form's words: which field it concerns and a sentence
 * that says what to change. The participant words every refusal as INVALID_ARGUMENT with a cause
 * from its reassignment processor (sandbox-fidelity.md, "Reassignment commands"), so the cause is
 * read; its text stays in the message, as operators search logs by it.
 */
export type ReassignmentProblem = {
  field: 'submitter' | 'target' | undefined;
  message: string;
};

type Rule = {
  pattern: RegExp;
  field: ReassignmentProblem['field'];
  explain: (match: RegExpMatchArray, names: SynchronizerNames) => string;
};

/** The synchronizers of the form, to name them as the form does. */
export type SynchronizerNames = (synchronizerId: string) => string;

/** `a::1220…, b::1220…` (perhaps cut off with `...`) as their hints. */
const partyList = (parties: string) =>
  parties
    .replace(/\.\.\.$/, '')
    .split(', ')
    .filter((party) => party !== '')
    .map(idHint)
    .join(', ');

const RULES: readonly Rule[] = [
  {
    pattern: /submitter `([^`]+)` is not a stakeholder/,
    field: 'submitter',
    explain: ([, party = '']) =>
      `${idHint(party)} is not a stakeholder of this contract: only its signatories and observers may move it.`,
  },
  {
    pattern: /Claims do not authorize to act as party '([^']+)'/,
    field: 'submitter',
    explain: ([, party = '']) => `You may not act as ${idHint(party)}.`,
  },
  {
    pattern: /: (\S+) is not hosted on /,
    field: 'submitter',
    explain: ([, party = '']) =>
      `This participant does not host ${idHint(party)} on the synchronizer: allocate the party there first.`,
  },
  {
    pattern: /Unable to resolve (\S+) to a connected physical synchronizer id/,
    field: 'target',
    explain: ([, id = ''], names) =>
      `This participant is not connected to ${names(id)}: connect it first, or choose another.`,
  },
  {
    pattern: /stakeholders are not active on the target synchronizer: Set\(([^)]*)/,
    field: 'target',
    explain: ([, parties = '']) =>
      `Not every stakeholder is hosted there: ${partyList(parties)} must be allocated on the target synchronizer first.`,
  },
  {
    pattern: /stakeholders are not active: Set\(([^)]*)/,
    field: undefined,
    explain: ([, parties = '']) =>
      `Not every stakeholder is hosted on the synchronizer the contract is on: ${partyList(parties)}.`,
  },
  {
    // The package id may be cut off: causes are cut at 512 characters, and the ids before it are long.
    pattern: /on synchronizer `([^`]+)`: Participant \S+ has not vetted/,
    field: 'target',
    explain: ([, id = ''], names) =>
      `The contract's package is not vetted on ${names(id)}: vet it there first (Packages).`,
  },
  {
    pattern: /because it's not active\. Current status (\w+)/,
    field: undefined,
    explain: ([, status = '']) =>
      status === 'Archived'
        ? 'The contract was archived meanwhile: there is nothing to move.'
        : 'The contract was moved meanwhile: reload the page to see where it is.',
  },
  {
    pattern: /reassignment already completed/,
    field: undefined,
    explain: () => 'Someone completed this move meanwhile: reload the page to see where it is.',
  },
];

export function reassignmentProblem(error: unknown, names: SynchronizerNames): ReassignmentProblem {
  const { message } = describeError(error);
  if (isApiError(error)) {
    for (const rule of RULES) {
      const match = rule.pattern.exec(error.body.cause);
      if (match) return { field: rule.field, message: rule.explain(match, names) };
    }
  }
  return { field: undefined, message };
}

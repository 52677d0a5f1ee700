import { idStringProblem, PARTY_STRING } from '@ledger-console/participant/identifiers';
import { z } from 'zod';
import {
  isPartyRightKind,
  PARTY_RIGHT_KINDS,
  RIGHT_KINDS,
  rightKey,
  type PartyRightKind,
  type RightKind,
  type UserRight,
} from '@/lib/access/access-rights';
import { idStringProblemText } from '@/lib/forms/id-string-problem-text';

/** The right kinds that carry no party. */
export type OtherRightKind = Exclude<RightKind, PartyRightKind>;

export const OTHER_RIGHT_KINDS = RIGHT_KINDS.filter(
  (kind): kind is OtherRightKind => !isPartyRightKind(kind),
);

export type PartyRightRow = { kind: PartyRightKind; party: string };

/** What the rights editor edits: rows of party rights, and the party-less kinds that are on. */
export type RightsValues = { partyRights: PartyRightRow[]; otherRights: OtherRightKind[] };

export const emptyRightsValues: RightsValues = { partyRights: [], otherRights: [] };

/** Why the server would reject `party` as a Daml-LF party string, or undefined when it is valid. */
export function partyIdProblem(party: string): string | undefined {
  return idStringProblemText(idStringProblem(PARTY_STRING, party), {
    empty: 'Choose a party',
    noun: 'party id',
    showsLength: false,
    allowed: ' (letters, digits, ":", "-", "_" and space are)',
  });
}

const partySchema = z.string().superRefine((party, ctx) => {
  const problem = partyIdProblem(party);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const rightsValuesSchema = z.object({
  partyRights: z.array(z.object({ kind: z.enum(PARTY_RIGHT_KINDS), party: partySchema })),
  otherRights: z.array(z.enum(OTHER_RIGHT_KINDS)),
});

/** The editor's values as a list of distinct rights, party rights first. */
export function toUserRightList(values: RightsValues): UserRight[] {
  const rights: UserRight[] = [
    ...values.partyRights.map((row): UserRight => ({ kind: row.kind, party: row.party })),
    ...OTHER_RIGHT_KINDS.filter((kind) => values.otherRights.includes(kind)).map(
      (kind): UserRight => ({ kind }),
    ),
  ];
  const seen = new Set<string>();
  return rights.filter((right) => {
    const key = rightKey(right);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A grant or revoke form: the editor, with at least one right chosen. */
export const rightsChangeSchema = z.object({
  rights: rightsValuesSchema.refine(
    (rights) => rights.partyRights.length + rights.otherRights.length > 0,
    { message: 'Choose at least one right' },
  ),
});

export type RightsChangeValues = z.infer<typeof rightsChangeSchema>;

export const emptyRightsChangeValues: RightsChangeValues = { rights: emptyRightsValues };

/**
 * The form field a server message about a party belongs to: the first editor row with that party.
 * Messages name it as `Daml-LF Party "x"` (bad syntax) or `…: [x, y].` (unknown in the IdP).
 */
export function partyRowInCause(cause: string, values: RightsValues): number | undefined {
  const parties = partiesInCause(cause);
  const index = values.partyRights.findIndex((row) => parties.includes(row.party));
  return index < 0 ? undefined : index;
}

export function partiesInCause(cause: string): string[] {
  const quoted = /Daml-LF Party "([^"]*)"/.exec(cause)?.[1];
  if (quoted !== undefined) return [quoted];
  const listed = /\[([^\]]*)\]\.?$/.exec(cause)?.[1];
  return listed ? listed.split(', ') : [];
}

import { parseCsv, type CsvRecord } from './bulk-import-csv';
import { parsePublicKey, type PublicSigningKey } from '@/lib/signing/keys';
import { MAX_SIGNATURE_CHARS } from '@/lib/signing/signatures';
import { describeError } from '@/lib/errors/api-error';
import { isSigningInputError } from '@/lib/signing/signing-input-error';
import { type Access, type RightKind, type UserRight } from '@/lib/access/access-rights';
import { type ExistingState } from '@/lib/onboarding/existing-state';
import {
  DEFAULT_RIGHTS_PRESET,
  MAX_DISPLAY_NAME_LENGTH,
  partyIdFor,
  rightsPreset,
  RIGHTS_PRESET_IDS,
  RIGHTS_PRESETS,
  type PartyChoice,
  type RightsChoice,
  type RightsPresetId,
} from '@/lib/onboarding/onboarding-input';
import { planOnboarding } from '@/lib/onboarding/onboarding-plan';
import { type OnboardingPlan } from '@/lib/onboarding/plan-steps';
import { reconcile } from '@/lib/onboarding/reconcile';

/**
 * Bulk import of people to onboard, from a CSV or JSON file: reading and bounding the file, one
 * onboarding plan per row (`lib/onboarding/` holds every rule of a single onboarding; this
 * file adds only what a file brings: columns, duplicates between rows, verdicts and results).
 * Pure; the page does the lookups and runs the plans.
 */

// ── limits and columns ─────────────────────────────────────────────────────────

export const BULK_IMPORT_LIMITS = {
  fileBytes: 1024 * 1024,
  rows: 5000,
  /** No valid cell comes near this (a party id is at most 255 characters). */
  cellLength: 1024,
} as const;

export const IMPORT_COLUMNS = [
  'userId',
  'displayName',
  'partyHint',
  'party',
  'rights',
  'isDeactivated',
  /** The person's public key: the row's party is then external, `<partyHint>::<fingerprint>`. */
  'externalPublicKey',
] as const;

export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/**
 * Names of the right kinds in a file's `rights` cell, e.g. `actAs;readAs`: case-insensitive, and
 * the wire names (`CanReadAs`, `IdentityProviderAdmin`) work too.
 */
export const RIGHT_NAMES: Readonly<Record<string, RightKind>> = {
  actas: 'CanActAs',
  readas: 'CanReadAs',
  executeas: 'CanExecuteAs',
  idpadmin: 'IdentityProviderAdmin',
  identityprovideradmin: 'IdentityProviderAdmin',
  actasanyparty: 'CanActAsAnyParty',
  readasanyparty: 'CanReadAsAnyParty',
  executeasanyparty: 'CanExecuteAsAnyParty',
  participantadmin: 'ParticipantAdmin',
};

// ── rows ───────────────────────────────────────────────────────────────────────

export type ImportRowProblem = { column: ImportColumn | 'row'; message: string };

/** One row as read from the file, before anything is looked up. */
export type ImportRow = {
  /** 1-based data row (the header is not counted; in JSON, the array index + 1). */
  row: number;
  userId: string;
  displayName: string;
  party: PartyChoice | undefined;
  /**
   * The `rights` cell as written: a preset id, or right names separated by `;`. Undefined when the
   * file gives none (no `rights` column, or a JSON row without the field): the person then gets
   * {@link DEFAULT_RIGHTS_PRESET}, as in the one-person form.
   */
  rights: string | undefined;
  isDeactivated: boolean;
  /** The `externalPublicKey` cell as written; empty for a party the participant signs for. */
  externalPublicKey: string;
  /** That key, once read ({@link readExternalKeys}): what the topology is generated for. */
  externalKey?: PublicSigningKey;
  /** Problems reading the row's cells (the plan's own checks come later). */
  problems: ImportRowProblem[];
};

export type ParsedImportFile =
  { ok: true; format: 'csv' | 'json'; rows: ImportRow[] } | { ok: false; problem: string };

/** Reads a CSV or JSON import file, decided by its name (`.json`) or its first character. */
export function parseImportFile(fileName: string, text: string): ParsedImportFile {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > BULK_IMPORT_LIMITS.fileBytes) {
    return {
      ok: false,
      problem: `The file is larger than 1 MiB (${String(bytes)} bytes); split it into several files.`,
    };
  }
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const isJson =
    /\.json$/i.test(fileName) || (!/\.csv$/i.test(fileName) && trimmed.startsWith('['));
  return isJson ? parseJsonImport(trimmed) : parseCsvImport(text);
}

function parseCsvImport(text: string): ParsedImportFile {
  const parsed = parseCsv(text, {
    maxRecords: BULK_IMPORT_LIMITS.rows + 1,
    maxFields: IMPORT_COLUMNS.length + 10,
    // Longer cells are a problem of their row (toImportRow); this only bounds the reader.
    maxFieldLength: 64 * 1024,
  });
  if (!parsed.ok) {
    return {
      ok: false,
      problem: parsed.problem.startsWith('The file has more than')
        ? `The file has more than ${String(BULK_IMPORT_LIMITS.rows)} rows; split it into several files.`
        : `Line ${String(parsed.line)}: ${parsed.problem}.`,
    };
  }
  const [header, ...records] = parsed.records;
  if (!header) return { ok: false, problem: 'The file is empty: it needs a header and rows.' };
  const columns: ImportColumn[] = [];
  for (const name of header.fields) {
    const column = IMPORT_COLUMNS.find(
      (known) => known.toLowerCase() === name.trim().toLowerCase(),
    );
    if (!column) {
      return {
        ok: false,
        problem: `Unknown column "${clip(name, 40)}" in the header: the columns are ${IMPORT_COLUMNS.join(', ')}.`,
      };
    }
    if (columns.includes(column)) {
      return { ok: false, problem: `The column ${column} appears twice in the header.` };
    }
    columns.push(column);
  }
  if (!columns.includes('userId')) {
    return { ok: false, problem: 'The header has no userId column.' };
  }
  if (records.length === 0) return { ok: false, problem: 'The file has a header but no rows.' };
  return {
    ok: true,
    format: 'csv',
    rows: records.map((record, index) => csvRow(record, index + 1, columns)),
  };
}

function csvRow(record: CsvRecord, row: number, columns: readonly ImportColumn[]): ImportRow {
  const cells: Partial<Record<ImportColumn, string>> = {};
  const problems: ImportRowProblem[] = [];
  if (record.fields.length !== columns.length) {
    problems.push({
      column: 'row',
      message: `Has ${String(record.fields.length)} cells where the header has ${String(columns.length)} (line ${String(record.line)})`,
    });
  }
  columns.forEach((column, index) => {
    cells[column] = record.fields[index] ?? '';
  });
  return toImportRow(row, cells, problems);
}

function parseJsonImport(text: string): ParsedImportFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = `: ${clip(describeError(error).message, 200)}`;
    return { ok: false, problem: `The file is not valid JSON${detail}.` };
  }
  if (!Array.isArray(value)) {
    return { ok: false, problem: 'A JSON import file is an array of objects, one per person.' };
  }
  if (value.length === 0) return { ok: false, problem: 'The file has no rows.' };
  if (value.length > BULK_IMPORT_LIMITS.rows) {
    return {
      ok: false,
      problem: `The file has more than ${String(BULK_IMPORT_LIMITS.rows)} rows; split it into several files.`,
    };
  }
  return { ok: true, format: 'json', rows: value.map((item, index) => jsonRow(item, index + 1)) };
}

function jsonRow(item: unknown, row: number): ImportRow {
  const problems: ImportRowProblem[] = [];
  const cells: Partial<Record<ImportColumn, string>> = {};
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    problems.push({ column: 'row', message: 'Not an object' });
    return toImportRow(row, cells, problems);
  }
  for (const [key, raw] of Object.entries(item)) {
    const column = IMPORT_COLUMNS.find((known) => known === key);
    if (!column) {
      problems.push({
        column: 'row',
        message: `Unknown field "${clip(key, 40)}": the fields are ${IMPORT_COLUMNS.join(', ')}`,
      });
      continue;
    }
    if (raw === null || raw === undefined) continue;
    if (column === 'isDeactivated' && typeof raw === 'boolean') {
      cells[column] = String(raw);
    } else if (column === 'rights' && Array.isArray(raw)) {
      if (raw.every((name): name is string => typeof name === 'string')) {
        cells[column] = raw.join(';');
      } else {
        problems.push({ column, message: 'A list of right names must hold only text' });
      }
    } else if (typeof raw === 'string') {
      cells[column] = raw;
    } else {
      problems.push({ column, message: 'Must be text' });
    }
  }
  return toImportRow(row, cells, problems);
}

/** The cells of one row, whatever the format, checked for what the file itself can get wrong. */
function toImportRow(
  row: number,
  cells: Partial<Record<ImportColumn, string>>,
  problems: ImportRowProblem[],
): ImportRow {
  for (const column of IMPORT_COLUMNS) {
    const cell = cells[column];
    if (cell !== undefined && cell.length > BULK_IMPORT_LIMITS.cellLength) {
      problems.push({
        column,
        message: `Longer than ${String(BULK_IMPORT_LIMITS.cellLength)} characters`,
      });
      cells[column] = cell.slice(0, BULK_IMPORT_LIMITS.cellLength);
    }
  }
  // Spreadsheets pad cells; an id never starts or ends with a space, so the trimmed cell is meant.
  const userId = (cells.userId ?? '').trim();
  const partyHint = (cells.partyHint ?? '').trim();
  const partyId = (cells.party ?? '').trim();
  let party: PartyChoice | undefined;
  if (partyHint !== '' && partyId !== '') {
    problems.push({
      column: 'party',
      message: 'Give either partyHint (a new party) or party, not both',
    });
  } else if (partyHint !== '') {
    party = { kind: 'new', hint: partyHint };
  } else if (partyId !== '') {
    party = { kind: 'existing', party: partyId };
  } else {
    problems.push({
      column: 'partyHint',
      message: 'Required: partyHint for a new party, or party for an existing one',
    });
  }
  const deactivated = (cells.isDeactivated ?? '').trim().toLowerCase();
  let isDeactivated = false;
  if (deactivated === 'true' || deactivated === 'yes') isDeactivated = true;
  else if (deactivated !== '' && deactivated !== 'false' && deactivated !== 'no') {
    problems.push({ column: 'isDeactivated', message: 'Must be true or false (or empty)' });
  }
  return {
    row,
    userId,
    displayName: (cells.displayName ?? '').trim(),
    party,
    rights: cells.rights?.trim(),
    isDeactivated,
    externalPublicKey: (cells.externalPublicKey ?? '').trim(),
    problems,
  };
}

/**
 * The rows with their `externalPublicKey` read (asynchronously: a fingerprint is a SHA-256 of the
 * key): such a row's party becomes the external `<partyHint>::<fingerprint>`, or the row gets the
 * key's problem. Rows without the column are returned as they are.
 */
export async function readExternalKeys(rows: readonly ImportRow[]): Promise<ImportRow[]> {
  return Promise.all(
    rows.map(async (row): Promise<ImportRow> => {
      if (row.externalPublicKey === '') return row;
      if (row.party?.kind !== 'new') {
        if (row.party === undefined) return row;
        return {
          ...row,
          problems: [
            ...row.problems,
            {
              column: 'externalPublicKey',
              message:
                'An external party is a new party: give partyHint (its id is the hint and the key fingerprint), not party',
            },
          ],
        };
      }
      try {
        const key = await parsePublicKey(row.externalPublicKey);
        return {
          ...row,
          party: { kind: 'external', hint: row.party.hint, fingerprint: key.fingerprint },
          externalKey: key,
        };
      } catch (error) {
        if (!isSigningInputError(error)) throw error;
        return {
          ...row,
          problems: [...row.problems, { column: 'externalPublicKey', message: error.message }],
        };
      }
    }),
  );
}

/**
 * The `rights` cell as a choice for the planner: a preset id (`acts-as-own`), or right names
 * separated by `;` — party rights on the row's own party; no cell at all is the default preset.
 * A problem otherwise (an empty cell in a `rights` column is one: the file meant to say something).
 */
export function rightsChoiceOf(
  cell: string | undefined,
  ownParty: string,
): { choice: RightsChoice } | { problem: string } {
  if (cell === undefined) return { choice: { kind: 'preset', preset: DEFAULT_RIGHTS_PRESET } };
  const presetId = RIGHTS_PRESET_IDS.find((id) => id === cell.toLowerCase());
  if (presetId) return { choice: { kind: 'preset', preset: presetId } };
  const names = cell
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) {
    return {
      problem: `Required: a preset (${RIGHTS_PRESET_IDS.join(', ')}) or rights such as actAs;readAs`,
    };
  }
  const rights: UserRight[] = [];
  for (const name of names) {
    const kind = RIGHT_NAMES[name.toLowerCase().replace(/^can/, '')];
    if (!kind) {
      return {
        problem: `Unknown right "${clip(name, 40)}": use actAs, readAs, executeAs, idpAdmin (separated by ;) or a preset (${RIGHTS_PRESET_IDS.join(', ')})`,
      };
    }
    rights.push(
      kind === 'CanActAs' || kind === 'CanReadAs' || kind === 'CanExecuteAs'
        ? { kind, party: ownParty }
        : { kind },
    );
  }
  return { choice: { kind: 'custom', rights } };
}

// ── validation: one plan per row ───────────────────────────────────────────────

export type ImportContext = {
  access: Access;
  /** The IdP people are onboarded into: the IdP admin's own, or the default for a participant admin. */
  identityProviderId: string;
  participantNamespace: string;
};

export type ValidatedRow = ImportRow &
  ({ ok: true; plan: OnboardingPlan } | { ok: false; problems: ImportRowProblem[] });

/**
 * Each row planned on its own (id rules, hint rules, rights the caller may grant: the planner's),
 * then the rows against each other: a user id or a new party's hint that an earlier row already
 * has makes the later row invalid, naming the earlier one.
 */
export function validateImportRows(
  rows: readonly ImportRow[],
  context: ImportContext,
): ValidatedRow[] {
  return rows.map(createRowValidator(context));
}

/**
 * Validates rows one at a time, in file order, remembering the user ids and hints seen so far:
 * the same verdicts as {@link validateImportRows}, for a caller that validates a long file in
 * slices between which the page stays responsive.
 */
export function createRowValidator(context: ImportContext): (row: ImportRow) => ValidatedRow {
  const firstRowOfUser = new Map<string, number>();
  const firstRowOfHint = new Map<string, number>();
  return (row) => {
    const problems: ImportRowProblem[] = [...row.problems];
    if (row.userId !== '') {
      const first = firstRowOfUser.get(row.userId);
      if (first === undefined) firstRowOfUser.set(row.userId, row.row);
      else
        problems.push({
          column: 'userId',
          message: `Duplicate: row ${String(first)} has this user id`,
        });
    }
    if ((row.party?.kind === 'new' || row.party?.kind === 'external') && row.party.hint !== '') {
      // An external party's id is its hint and key: the same hint with another key is another party.
      const id =
        row.party.kind === 'new'
          ? row.party.hint
          : partyIdFor(row.party.hint, row.party.fingerprint);
      const first = firstRowOfHint.get(id);
      if (first === undefined) firstRowOfHint.set(id, row.row);
      else {
        problems.push({
          column: 'partyHint',
          message: `Duplicate: row ${String(first)} creates a party with this hint (to share a party, give its id in the party column)`,
        });
      }
    }
    const party = row.party ?? { kind: 'new', hint: '' };
    const ownParty =
      party.kind === 'new'
        ? partyIdFor(party.hint, context.participantNamespace)
        : party.kind === 'external'
          ? partyIdFor(party.hint, party.fingerprint)
          : party.party;
    const rights = rightsChoiceOf(row.rights, ownParty);
    if ('problem' in rights) problems.push({ column: 'rights', message: rights.problem });
    const planned = planOnboarding({
      subject: row.userId,
      displayName: row.displayName,
      identityProviderId: context.identityProviderId,
      party,
      // A row with bad rights is still planned, for the problems of its other cells.
      rights:
        'choice' in rights ? rights.choice : { kind: 'preset', preset: DEFAULT_RIGHTS_PRESET },
      access: context.access,
      participantNamespace: context.participantNamespace,
    });
    if (!planned.ok) {
      for (const problem of planned.problems) {
        // A row without any party already says so; the planner's "required" would repeat it.
        if (problem.field === 'party' && row.party === undefined) continue;
        problems.push({ column: columnOfField(problem.field, party), message: problem.message });
      }
    }
    if (problems.length > 0 || !planned.ok) return { ...row, ok: false, problems };
    return { ...row, ok: true, plan: planned.plan };
  };
}

function columnOfField(
  field: 'subject' | 'displayName' | 'identityProviderId' | 'party' | 'rights',
  party: PartyChoice,
): ImportColumn | 'row' {
  switch (field) {
    case 'subject':
      return 'userId';
    case 'displayName':
      return 'displayName';
    case 'identityProviderId':
      return 'row';
    case 'party':
      return party.kind === 'existing' ? 'party' : 'partyHint';
    case 'rights':
      return 'rights';
  }
}

/**
 * What the plan says about rows that give no rights ("no rights column: each user gets …"), or
 * undefined when every row gives its own.
 */
export function defaultRightsNotice(
  rows: readonly Pick<ImportRow, 'rights'>[],
): string | undefined {
  const without = rows.filter((row) => row.rights === undefined).length;
  if (without === 0) return undefined;
  const preset = rightsPreset(DEFAULT_RIGHTS_PRESET);
  const gets = `“${preset.label}”, what the one-person onboarding form starts with. ${preset.description}`;
  // A JSON file has fields rather than columns; the page calls both columns.
  if (without === rows.length) return `No rights column: each user gets ${gets}`;
  return `${String(without)} ${without === 1 ? 'row gives' : 'rows give'} no rights: ${without === 1 ? 'that user gets' : 'each of those users gets'} ${gets}`;
}

// ── verdicts: the plan against what exists ─────────────────────────────────────

export type RowVerdict =
  | { kind: 'invalid'; reason: string }
  /** A new user (and maybe party): every step of the plan runs. */
  | { kind: 'create'; plan: OnboardingPlan; notes: string[] }
  /** The user exists: only what it lacks runs. */
  | { kind: 'update'; plan: OnboardingPlan; notes: string[] }
  | { kind: 'skip'; reason: string }
  /** Something exists that the plan must not override (e.g. a party of another IdP). */
  | { kind: 'conflict'; reason: string };

/** What exists for a row, or why the lookup could not tell (e.g. a 403 reading its party). */
export type LookupOutcome = { ok: true; existing: ExistingState } | { ok: false; reason: string };

export function invalidVerdict(row: ValidatedRow): { kind: 'invalid'; reason: string } {
  if (row.ok) throw new Error('invalidVerdict of a valid row');
  return { kind: 'invalid', reason: describeProblems(row.problems) };
}

/** The plan reconciled with what exists; re-running a file whose rows all ran gives only skips. */
export function verdictOf(
  plan: OnboardingPlan,
  lookup: LookupOutcome,
  row: Pick<ImportRow, 'isDeactivated'>,
): RowVerdict {
  if (!lookup.ok) return { kind: 'conflict', reason: lookup.reason };
  const { existing } = lookup;
  const reconciled = reconcile(plan, existing);
  // Blockers (a party of another IdP, an unknown party) stop the row whatever else holds.
  if (reconciled.blockers.length > 0) {
    return { kind: 'conflict', reason: reconciled.blockers.join(' ') };
  }
  // Differences the planner leaves as they are (another primary party, display name) are told.
  const notes = [...reconciled.conflicts];
  const isDeactivated = existing.user?.isDeactivated;
  if (isDeactivated !== undefined && isDeactivated !== row.isDeactivated) {
    notes.push(
      `User ${plan.userId} is ${isDeactivated ? 'deactivated' : 'active'}; the import leaves that as it is.`,
    );
  }
  if (reconciled.steps.length === 0) {
    return { kind: 'skip', reason: ['Already onboarded as planned.', ...notes].join(' ') };
  }
  const kind = reconciled.steps.some((step) => step.kind === 'create-user') ? 'create' : 'update';
  return { kind, plan: reconciled, notes: [...reconciled.reused, ...notes] };
}

export function describeProblems(problems: readonly ImportRowProblem[]): string {
  return problems
    .map((problem) =>
      problem.column === 'row' ? problem.message : `${problem.column}: ${problem.message}`,
    )
    .join('; ');
}

/**
 * Why Run cannot do anything, or undefined when some row can run: a valid row to create or
 * complete, or one not checked yet (the run checks it first).
 */
export function nothingToRunReason(
  entries: readonly { row: Pick<ValidatedRow, 'ok'>; verdict: RowVerdict | undefined }[],
): string | undefined {
  const counts = { invalid: 0, conflict: 0, skip: 0 };
  for (const { row, verdict } of entries) {
    if (!row.ok || verdict?.kind === 'invalid') counts.invalid += 1;
    else if (verdict === undefined || verdict.kind === 'create' || verdict.kind === 'update') {
      return undefined;
    } else counts[verdict.kind] += 1;
  }
  const parts = [
    counts.invalid > 0 ? `${String(counts.invalid)} invalid` : '',
    counts.conflict > 0 ? `${String(counts.conflict)} blocked` : '',
    counts.skip > 0 ? `${String(counts.skip)} already onboarded` : '',
  ].filter((part) => part !== '');
  const fix =
    counts.invalid + counts.conflict > 0
      ? ' Fix the file (each row’s Details say what is wrong) and choose it again.'
      : '';
  return `Nothing to run: of ${String(entries.length)} ${entries.length === 1 ? 'row' : 'rows'}, ${parts.join(', ')}.${fix}`;
}

// ── results ────────────────────────────────────────────────────────────────────

/** `waiting`: an external party's row whose person has not signed yet; Resume runs it once signed. */
export type RowOutcome = 'created' | 'updated' | 'skipped' | 'waiting' | 'failed';

export type RowResult = {
  row: number;
  userId: string;
  party: string;
  outcome: RowOutcome;
  /** Why, in a sentence: what was done, why nothing was, or what failed and what remains. */
  reason: string;
};

export const RESULT_COLUMNS = ['row', 'userId', 'party', 'outcome', 'reason'] as const;

/** The result file's rows, for `toCsv` (which neutralises formula-like cells). */
export function resultCsvRows(results: readonly RowResult[]): string[][] {
  return results.map((result) => [
    String(result.row),
    result.userId,
    result.party,
    result.outcome,
    result.reason,
  ]);
}

export function resultsToJson(results: readonly RowResult[]): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

/** How many rows ended each way. */
export function countOutcomes(results: readonly RowResult[]): Record<RowOutcome, number> {
  const counts: Record<RowOutcome, number> = {
    created: 0,
    updated: 0,
    skipped: 0,
    waiting: 0,
    failed: 0,
  };
  for (const result of results) counts[result.outcome] += 1;
  return counts;
}

// ── external parties: multi-hashes out, signatures back ─────────────────────────

/**
 * The file of multi-hashes to sign, one line per external party row; `signature` is left empty
 * for the person (or whoever holds the keys) to fill in and give back.
 */
export const MULTI_HASH_COLUMNS = [
  'row',
  'userId',
  'party',
  'multiHashHex',
  'multiHashBase64',
  'signature',
] as const;

export type MultiHashLine = {
  row: number;
  userId: string;
  party: string;
  multiHashHex: string;
  multiHashBase64: string;
};

export function multiHashCsvRows(lines: readonly MultiHashLine[]): string[][] {
  return lines.map((line) => [
    String(line.row),
    line.userId,
    line.party,
    line.multiHashHex,
    line.multiHashBase64,
    '',
  ]);
}

export type SignatureFile =
  { ok: true; signatures: { row: number; signature: string }[] } | { ok: false; problem: string };

/**
 * Signatures given back as CSV: a header with `row` and `signature` (other columns, such as
 * those of the multi-hash file, are ignored), one line per row; empty signatures are skipped.
 * Each signature is checked later, against its row's key and multi-hash.
 */
export function parseSignatureFile(text: string): SignatureFile {
  if (new TextEncoder().encode(text).length > BULK_IMPORT_LIMITS.fileBytes) {
    return { ok: false, problem: 'The file is larger than 1 MiB.' };
  }
  const parsed = parseCsv(text, {
    maxRecords: BULK_IMPORT_LIMITS.rows + 1,
    maxFields: MULTI_HASH_COLUMNS.length + 10,
    maxFieldLength: BULK_IMPORT_LIMITS.cellLength,
  });
  if (!parsed.ok) return { ok: false, problem: `Line ${String(parsed.line)}: ${parsed.problem}.` };
  const [header, ...records] = parsed.records;
  const names = (header?.fields ?? []).map((name) => name.trim().toLowerCase());
  const rowAt = names.indexOf('row');
  const signatureAt = names.indexOf('signature');
  if (rowAt === -1 || signatureAt === -1) {
    return { ok: false, problem: 'The header needs a row column and a signature column.' };
  }
  const signatures: { row: number; signature: string }[] = [];
  const seen = new Set<number>();
  for (const record of records) {
    const rowText = (record.fields[rowAt] ?? '').trim();
    // A spreadsheet may keep the apostrophe that guarded a cell on export.
    const signature = (record.fields[signatureAt] ?? '').trim().replace(/^'/, '');
    if (signature === '') continue;
    if (!/^[1-9]\d{0,4}$/.test(rowText)) {
      return {
        ok: false,
        problem: `Line ${String(record.line)}: the row must be a row number of the import file.`,
      };
    }
    const row = Number(rowText);
    if (seen.has(row)) {
      return { ok: false, problem: `Line ${String(record.line)}: row ${rowText} is given twice.` };
    }
    if (signature.length > MAX_SIGNATURE_CHARS) {
      return { ok: false, problem: `Line ${String(record.line)}: too long to be a signature.` };
    }
    seen.add(row);
    signatures.push({ row, signature });
  }
  if (signatures.length === 0) return { ok: false, problem: 'The file holds no signature.' };
  return { ok: true, signatures };
}

// ── template ───────────────────────────────────────────────────────────────────

/** Two example people: one with a new party from a hint, one on an existing party. */
export function templateRows(participantNamespace: string): Record<ImportColumn, string>[] {
  const namespace = participantNamespace === '' ? '1220…' : participantNamespace;
  return [
    {
      userId: 'dana.lee',
      displayName: 'Dana Lee',
      partyHint: 'dana-lee',
      party: '',
      rights: 'acts-as-own',
      isDeactivated: 'false',
      externalPublicKey: '',
    },
    {
      userId: 'sam.ortiz',
      displayName: 'Sam Ortiz',
      partyHint: '',
      party: `trading-desk::${namespace}`,
      rights: 'readAs',
      isDeactivated: 'false',
      externalPublicKey: '',
    },
  ];
}

export function templateCsvRows(participantNamespace: string): string[][] {
  return templateRows(participantNamespace).map((row) =>
    IMPORT_COLUMNS.map((column) => row[column]),
  );
}

export function templateJson(participantNamespace: string): string {
  const rows = templateRows(participantNamespace).map((row) => ({
    userId: row.userId,
    displayName: row.displayName,
    ...(row.partyHint ? { partyHint: row.partyHint } : { party: row.party }),
    rights: row.rights,
    isDeactivated: row.isDeactivated === 'true',
  }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** The presets, for the page's help next to the template. */
export const RIGHTS_PRESET_HELP: readonly { id: RightsPresetId; label: string }[] =
  RIGHTS_PRESETS.map(({ id, label }) => ({ id, label }));

export { MAX_DISPLAY_NAME_LENGTH };

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accessOf, type UserRight } from '@/lib/access/access-rights';
import {
  BULK_IMPORT_LIMITS,
  countOutcomes,
  defaultRightsNotice,
  IMPORT_COLUMNS,
  nothingToRunReason,
  multiHashCsvRows,
  parseImportFile,
  parseSignatureFile,
  readExternalKeys,
  templateCsvRows,
  templateJson,
  validateImportRows,
  verdictOf,
  type ImportContext,
  type ImportRow,
  type RowVerdict,
  type ValidatedRow,
} from './bulk-import-rows';

const NAMESPACE = `1220${'ab'.repeat(32)}`;
const IDP_ADMIN: ImportContext = {
  access: accessOf({
    kind: 'user',
    userId: 'acme-admin',
    identityProviderId: 'acme',
    rights: [{ kind: 'IdentityProviderAdmin' }],
  }),
  identityProviderId: 'acme',
  participantNamespace: NAMESPACE,
};

function csv(lines: readonly string[]): string {
  return `${lines.join('\r\n')}\r\n`;
}

function rowsOf(fileName: string, text: string): ImportRow[] {
  const parsed = parseImportFile(fileName, text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.rows;
}

function validated(lines: readonly string[], context = IDP_ADMIN): ValidatedRow[] {
  return validateImportRows(rowsOf('people.csv', csv(lines)), context);
}

function problemsOf(row: ValidatedRow | undefined): string[] {
  if (!row || row.ok) return [];
  return row.problems.map((problem) => `${problem.column}: ${problem.message}`);
}

function planOf(row: ValidatedRow | undefined) {
  if (!row?.ok) throw new Error(`row is not valid: ${problemsOf(row).join('; ')}`);
  return row.plan;
}

const HEADER = 'userId,displayName,partyHint,party,rights,isDeactivated';

describe('reading an import file', () => {
  it('reads the CSV and JSON templates into the same rows', () => {
    const csvText = csv([
      IMPORT_COLUMNS.join(','),
      ...templateCsvRows(NAMESPACE).map((r) => r.join(',')),
    ]);
    const fromCsv = rowsOf('template.csv', csvText);
    const fromJson = rowsOf('template.json', templateJson(NAMESPACE));
    expect(fromCsv).toEqual(fromJson);
    expect(fromCsv).toEqual([
      {
        row: 1,
        userId: 'dana.lee',
        displayName: 'Dana Lee',
        party: { kind: 'new', hint: 'dana-lee' },
        rights: 'acts-as-own',
        isDeactivated: false,
        externalPublicKey: '',
        problems: [],
      },
      {
        row: 2,
        userId: 'sam.ortiz',
        displayName: 'Sam Ortiz',
        party: { kind: 'existing', party: `trading-desk::${NAMESPACE}` },
        rights: 'readAs',
        isDeactivated: false,
        externalPublicKey: '',
        problems: [],
      },
    ]);
  });

  it('matches header names without regard to case, in any order, and trims padded cells', () => {
    const [row] = rowsOf('x.csv', csv(['RIGHTS, UserId ,PartyHint', 'readAs,  eve  , eve']));
    expect(row).toMatchObject({
      userId: 'eve',
      party: { kind: 'new', hint: 'eve' },
      rights: 'readAs',
    });
  });

  it('tells the whole file’s problem: unknown or repeated column, no userId, no rows, not JSON', () => {
    const problem = (name: string, text: string) => {
      const parsed = parseImportFile(name, text);
      return parsed.ok ? undefined : parsed.problem;
    };
    expect(problem('a.csv', 'userId,user_name\nx,y')).toBe(
      'Unknown column "user_name" in the header: the columns are userId, displayName, partyHint, party, rights, isDeactivated, externalPublicKey.',
    );
    expect(problem('a.csv', 'userId,userid\nx,y')).toBe(
      'The column userId appears twice in the header.',
    );
    expect(problem('a.csv', 'party,rights\nx,y')).toBe('The header has no userId column.');
    expect(problem('a.csv', `${HEADER}\r\n`)).toBe('The file has a header but no rows.');
    expect(problem('a.csv', '')).toBe('The file is empty: it needs a header and rows.');
    expect(problem('a.csv', 'userId\n"open')).toBe('Line 2: A quoted field is never closed.');
    expect(problem('a.json', '{"userId":"x"}')).toBe(
      'A JSON import file is an array of objects, one per person.',
    );
    expect(problem('a.json', '[{')).toMatch(/^The file is not valid JSON/);
  });

  it('refuses a file over 1 MiB or over 5000 rows before reading rows', () => {
    const big = `userId\n${'x'.repeat(BULK_IMPORT_LIMITS.fileBytes)}`;
    expect(parseImportFile('big.csv', big)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The file is larger than 1 MiB/) as unknown,
    });
    const many = `userId,partyHint\n${'a,b\n'.repeat(5001)}`;
    expect(parseImportFile('many.csv', many)).toEqual({
      ok: false,
      problem: 'The file has more than 5000 rows; split it into several files.',
    });
    expect(parseImportFile('ok.csv', `userId,partyHint\n${'a,b\n'.repeat(5000)}`).ok).toBe(true);
    const json = JSON.stringify(Array.from({ length: 5001 }, () => ({ userId: 'a' })));
    expect(parseImportFile('many.json', json)).toMatchObject({ ok: false });
  });

  it('keeps a row with cell problems, saying which cell: party and hint both or neither, flags, cell length', () => {
    const rows = rowsOf(
      'x.csv',
      csv([
        HEADER,
        `a,,a-hint,a::${NAMESPACE},acts-as-own,`,
        'b,,,,acts-as-own,maybe',
        `c,${'n'.repeat(1025)},c,,acts-as-own,true`,
        'd,only two cells',
      ]),
    );
    expect(rows.map((row) => row.problems)).toEqual([
      [{ column: 'party', message: 'Give either partyHint (a new party) or party, not both' }],
      [
        {
          column: 'partyHint',
          message: 'Required: partyHint for a new party, or party for an existing one',
        },
        { column: 'isDeactivated', message: 'Must be true or false (or empty)' },
      ],
      [{ column: 'displayName', message: 'Longer than 1024 characters' }],
      [
        { column: 'row', message: 'Has 2 cells where the header has 6 (line 5)' },
        {
          column: 'partyHint',
          message: 'Required: partyHint for a new party, or party for an existing one',
        },
      ],
    ]);
    expect(rows[2]?.isDeactivated).toBe(true);
  });

  it('reads JSON values strictly: text cells, a boolean flag or a list of right names', () => {
    const rows = rowsOf(
      'x.json',
      JSON.stringify([
        { userId: 'a', partyHint: 'a', rights: ['actAs', 'readAs'], isDeactivated: true },
        { userId: 7, partyHint: 'b', rights: 'readAs', nickname: 'bee' },
        'not an object',
      ]),
    );
    expect(rows[0]).toMatchObject({ rights: 'actAs;readAs', isDeactivated: true, problems: [] });
    expect(rows[1]?.problems).toEqual([
      { column: 'userId', message: 'Must be text' },
      {
        column: 'row',
        message:
          'Unknown field "nickname": the fields are userId, displayName, partyHint, party, rights, isDeactivated, externalPublicKey',
      },
    ]);
    expect(rows[2]?.problems[0]).toEqual({ column: 'row', message: 'Not an object' });
  });
});

describe('validating rows', () => {
  it('plans a valid row with the onboarding planner: the exact party id, user first', () => {
    const [row] = validated([HEADER, 'dana.lee,Dana Lee,dana-lee,,acts-as-own,false']);
    const plan = planOf(row);
    expect(plan.party).toBe(`dana-lee::${NAMESPACE}`);
    expect(plan.identityProviderId).toBe('acme');
    expect(plan.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'allocate-party',
      'set-primary-party',
    ]);
  });

  it('gives rights of a custom list on the row’s own party, by short or wire names', () => {
    const [row] = validated([HEADER, 'eve,,eve,,readAs; CanExecuteAs;IdentityProviderAdmin,']);
    const own = `eve::${NAMESPACE}`;
    expect(planOf(row).rights).toEqual<UserRight[]>([
      { kind: 'CanReadAs', party: own },
      { kind: 'CanExecuteAs', party: own },
      { kind: 'IdentityProviderAdmin' },
    ]);
  });

  it('refuses bad user ids and hints with the planner’s words, per column', () => {
    const rows = validated([HEADER, 'bad id,,ok,,acts-as-own,', 'ok,,bad::hint,,acts-as-own,']);
    expect(problemsOf(rows[0])).toEqual([
      "userId: A space is not allowed in a user id: use ASCII letters, digits and @^$.!`-#+'~_|:()",
    ]);
    expect(problemsOf(rows[1])).toEqual(['partyHint: A hint must not contain "::"']);
  });

  it('marks later duplicates of a user id or a new party’s hint, naming the first row', () => {
    const rows = validated([
      HEADER,
      'ann,,ann,,acts-as-own,',
      'bob,,ann,,acts-as-own,',
      'ann,,ann2,,acts-as-own,',
      `cid,,,ann::${NAMESPACE},readAs,`,
    ]);
    expect(rows[0]?.ok).toBe(true);
    expect(problemsOf(rows[1])).toEqual([
      'partyHint: Duplicate: row 1 creates a party with this hint (to share a party, give its id in the party column)',
    ]);
    expect(problemsOf(rows[2])).toEqual(['userId: Duplicate: row 1 has this user id']);
    // Sharing a party by its id is fine: only allocating it twice is not.
    expect(rows[3]?.ok).toBe(true);
  });

  it('refuses rights an IdP admin may not grant, and unknown right names', () => {
    const rows = validated([
      HEADER,
      'ann,,ann,,actAs;participantAdmin,',
      'bob,,bob,,readAsAnyParty,',
      'cid,,cid,,superuser,',
      'dan,,dan,,,',
    ]);
    expect(problemsOf(rows[0])).toEqual([
      'rights: You may not grant Participant admin: only a participant admin may (an identity provider admin grants Act as, Read as, Execute as and Identity provider admin).',
    ]);
    expect(problemsOf(rows[1])[0]).toMatch(/^rights: You may not grant Read as any party/);
    expect(problemsOf(rows[2])).toEqual([
      'rights: Unknown right "superuser": use actAs, readAs, executeAs, idpAdmin (separated by ;) or a preset (acts-as-own, reads-own, external-signer, idp-co-admin)',
    ]);
    expect(problemsOf(rows[3])[0]).toMatch(/^rights: Required: a preset/);
  });

  it('gives the one-person form’s default rights when the file has no rights column, and says so', () => {
    // DEFAULT_RIGHTS_PRESET, which the one-person form starts on too (onboard-person.test.tsx).
    const rows = validated(['userId,displayName,partyHint', 'ann,Ann,ann', 'bob,Bob,bob']);
    expect(rows.map((row) => row.ok)).toEqual([true, true]);
    expect(planOf(rows[0]).rights).toEqual([{ kind: 'CanActAs', party: `ann::${NAMESPACE}` }]);
    expect(planOf(rows[1]).rights).toEqual([{ kind: 'CanActAs', party: `bob::${NAMESPACE}` }]);
    expect(defaultRightsNotice(rows)).toBe(
      'No rights column: each user gets “Acts as own party”, what the one-person onboarding form starts with. Act as on their party: submit commands as it and read its contracts and transactions (acting implies reading).',
    );
    // With a rights column, nothing is defaulted: an empty cell is a problem of its row.
    const given = validated([HEADER, 'cid,,cid,,readAs,', 'dan,,dan,,,']);
    expect(defaultRightsNotice(given)).toBeUndefined();
    expect(problemsOf(given[1])[0]).toMatch(/^rights: Required: a preset/);
  });

  it('defaults the rights of the JSON rows that give none, and counts them', () => {
    const rows = validateImportRows(
      rowsOf(
        'people.json',
        JSON.stringify([
          { userId: 'ann', partyHint: 'ann', rights: 'readAs' },
          { userId: 'bob', partyHint: 'bob' },
          { userId: 'cid', partyHint: 'cid', rights: null },
        ]),
      ),
      IDP_ADMIN,
    );
    expect(planOf(rows[0]).rights).toEqual([{ kind: 'CanReadAs', party: `ann::${NAMESPACE}` }]);
    expect(planOf(rows[1]).rights).toEqual([{ kind: 'CanActAs', party: `bob::${NAMESPACE}` }]);
    expect(defaultRightsNotice(rows)).toMatch(
      /^2 rows give no rights: each of those users gets “Acts as own party”/,
    );
  });

  it('lets a participant admin grant any right, into the default IdP', () => {
    const admin: ImportContext = {
      access: accessOf({
        kind: 'user',
        userId: 'participant_admin',
        identityProviderId: '',
        rights: [{ kind: 'ParticipantAdmin' }],
      }),
      identityProviderId: '',
      participantNamespace: NAMESPACE,
    };
    const [row] = validated([HEADER, 'ops,,ops,,actAs;readAsAnyParty,'], admin);
    expect(planOf(row).rights).toEqual([
      { kind: 'CanActAs', party: `ops::${NAMESPACE}` },
      { kind: 'CanReadAsAnyParty' },
    ]);
  });

  it('refuses every row for a caller who manages no users', () => {
    const nobody: ImportContext = {
      ...IDP_ADMIN,
      access: accessOf({ kind: 'user', userId: 'x', identityProviderId: 'acme', rights: [] }),
    };
    const [row] = validated([HEADER, 'ann,,ann,,acts-as-own,'], nobody);
    expect(problemsOf(row)).toContain(
      'row: Onboarding needs the ParticipantAdmin or IdentityProviderAdmin right.',
    );
  });
});

describe('verdicts against what exists', () => {
  const [row] = validated([HEADER, 'dana.lee,Dana Lee,dana-lee,,external-signer,']);
  const plan = planOf(row);
  const party = `dana-lee::${NAMESPACE}`;
  const inIdp = { isLocal: true, identityProviderId: 'acme' };

  it('creates everything when nothing exists', () => {
    const verdict = verdictOf(plan, { ok: true, existing: {} }, { isDeactivated: false });
    expect(verdict.kind).toBe('create');
  });

  it('skips a row whose user and party exist as planned', () => {
    const verdict = verdictOf(
      plan,
      {
        ok: true,
        existing: {
          user: { primaryParty: party, displayName: 'Dana Lee', isDeactivated: false },
          userRights: [
            { kind: 'CanReadAs', party },
            { kind: 'CanExecuteAs', party },
          ],
          party: inIdp,
        },
      },
      { isDeactivated: false },
    );
    expect(verdict).toEqual({ kind: 'skip', reason: 'Already onboarded as planned.' });
  });

  it('plans only the missing rights of an existing user', () => {
    const verdict = verdictOf(
      plan,
      {
        ok: true,
        existing: {
          user: { primaryParty: party },
          userRights: [{ kind: 'CanReadAs', party }],
          party: inIdp,
        },
      },
      { isDeactivated: false },
    );
    expect(verdict.kind).toBe('update');
    if (verdict.kind !== 'update') return;
    expect(verdict.plan.steps).toEqual([
      expect.objectContaining({ kind: 'grant-rights', rights: [{ kind: 'CanExecuteAs', party }] }),
    ]);
  });

  it('reuses a party of the caller’s IdP, and refuses one of another IdP', () => {
    const reuse = verdictOf(
      plan,
      { ok: true, existing: { party: inIdp } },
      { isDeactivated: false },
    );
    expect(reuse.kind).toBe('create');
    if (reuse.kind === 'create') {
      expect(reuse.plan.steps.map((step) => step.kind)).not.toContain('allocate-party');
    }
    const foreign = verdictOf(
      plan,
      { ok: true, existing: { party: { isLocal: false, identityProviderId: '' } } },
      { isDeactivated: false },
    );
    expect(foreign.kind).toBe('conflict');
    expect(foreign.kind === 'conflict' && foreign.reason).toBe(
      `Party ${party} exists already but is not a party of identity provider acme on this participant: choose another hint.`,
    );
  });

  it('notes an existing user’s deactivation when the row asks otherwise, and leaves it', () => {
    const existing = {
      user: { primaryParty: party, displayName: 'Dana Lee', isDeactivated: true },
      userRights: [
        { kind: 'CanReadAs', party },
        { kind: 'CanExecuteAs', party },
      ] as const,
      party: inIdp,
    };
    expect(verdictOf(plan, { ok: true, existing }, { isDeactivated: false })).toEqual({
      kind: 'skip',
      reason:
        'Already onboarded as planned. User dana.lee is deactivated; the import leaves that as it is.',
    });
    expect(verdictOf(plan, { ok: true, existing }, { isDeactivated: true })).toEqual({
      kind: 'skip',
      reason: 'Already onboarded as planned.',
    });
  });

  it('refuses an existing party the participant does not know, and a failed lookup', () => {
    const [named] = validated([HEADER, `sam,,,ghost::${NAMESPACE},readAs,`]);
    expect(verdictOf(planOf(named), { ok: true, existing: {} }, { isDeactivated: false })).toEqual({
      kind: 'conflict',
      reason: `Party ghost::${NAMESPACE} is not known to this participant.`,
    });
    expect(
      verdictOf(
        plan,
        { ok: false, reason: 'User exists in another IdP' },
        { isDeactivated: false },
      ),
    ).toEqual({ kind: 'conflict', reason: 'User exists in another IdP' });
  });
});

describe('external parties in an import file', () => {
  const rawKey = () =>
    Buffer.from(
      generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '',
      'base64url',
    ).toString('base64');

  it('reads externalPublicKey into an external party <hint>::<fingerprint>, or a problem on its column', async () => {
    const key = rawKey();
    const rows = await readExternalKeys(
      rowsOf(
        'people.csv',
        csv([
          'userId,partyHint,party,rights,externalPublicKey',
          `ext,ext,,acts-as-own,${key}`,
          'bad,bad,,acts-as-own,not-a-key',
          `both,,desk::${NAMESPACE},readAs,${key}`,
          'local,local,,acts-as-own,',
        ]),
      ),
    );
    expect(rows[0]?.party).toEqual({
      kind: 'external',
      hint: 'ext',
      fingerprint: expect.stringMatching(/^1220[0-9a-f]{64}$/) as unknown,
    });
    expect(rows[0]?.externalKey?.keyData).toBe(key);
    expect(rows[1]?.problems.map((problem) => problem.column)).toEqual(['externalPublicKey']);
    expect(rows[2]?.problems[0]?.message).toMatch(/^An external party is a new party/);
    expect(rows[3]?.party).toEqual({ kind: 'new', hint: 'local' });

    const [ext, bad, both, local] = validateImportRows(rows, IDP_ADMIN);
    const plan = planOf(ext);
    const fingerprint = rows[0]?.party?.kind === 'external' ? rows[0].party.fingerprint : '';
    expect(plan.party).toBe(`ext::${fingerprint}`);
    expect(plan.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'allocate-external-party',
      'set-primary-party',
    ]);
    expect(plan.steps[1]).toMatchObject({ signed: undefined, userId: 'ext' });
    expect(bad?.ok).toBe(false);
    expect(both?.ok).toBe(false);
    expect(local?.ok).toBe(true);
  });

  it('takes the same hint with another key as another party, the same key twice as a duplicate', async () => {
    const key = rawKey();
    const rows = await readExternalKeys(
      rowsOf(
        'people.csv',
        csv([
          'userId,partyHint,rights,externalPublicKey',
          `a,desk,acts-as-own,${key}`,
          `b,desk,acts-as-own,${rawKey()}`,
          `c,desk,acts-as-own,${key}`,
        ]),
      ),
    );
    const [a, b, c] = validateImportRows(rows, IDP_ADMIN);
    expect(a?.ok).toBe(true);
    expect(b?.ok).toBe(true);
    expect(problemsOf(c)).toEqual([
      'partyHint: Duplicate: row 1 creates a party with this hint (to share a party, give its id in the party column)',
    ]);
  });

  it('writes the multi-hashes file with an empty signature column to fill in', () => {
    expect(
      multiHashCsvRows([
        { row: 3, userId: 'a', party: 'a::1220', multiHashHex: '1220ff', multiHashBase64: 'EiD/' },
      ]),
    ).toEqual([['3', 'a', 'a::1220', '1220ff', 'EiD/', '']]);
  });

  it('reads signatures back by row, skipping empty ones and refusing what is not a row list', () => {
    expect(
      parseSignatureFile(
        csv([
          'row,userId,party,multiHashHex,multiHashBase64,signature',
          "1,a,a::x,1220,EiA=,'+abc",
          '2,b,b::x,1220,EiA=,',
          '3,c,c::x,1220,EiA=,00ff',
        ]),
      ),
    ).toEqual({
      ok: true,
      signatures: [
        { row: 1, signature: '+abc' },
        { row: 3, signature: '00ff' },
      ],
    });
    expect(parseSignatureFile(csv(['row,sig', '1,00']))).toEqual({
      ok: false,
      problem: 'The header needs a row column and a signature column.',
    });
    expect(parseSignatureFile(csv(['row,signature', 'x,00']))).toEqual({
      ok: false,
      problem: 'Line 2: the row must be a row number of the import file.',
    });
    expect(parseSignatureFile(csv(['row,signature', '1,00', '1,01']))).toEqual({
      ok: false,
      problem: 'Line 3: row 1 is given twice.',
    });
    expect(parseSignatureFile(csv(['row,signature', '1,']))).toEqual({
      ok: false,
      problem: 'The file holds no signature.',
    });
  });

  it('says why nothing can run: every row invalid, blocked or already onboarded', () => {
    const [valid, invalid] = validated([HEADER, 'ann,,ann,,readAs,', 'bad id,,bob,,readAs,']);
    if (valid === undefined || invalid === undefined) throw new Error('two rows expected');
    const verdict = (kind: 'skip' | 'conflict'): RowVerdict => ({ kind, reason: '' });
    expect(nothingToRunReason([{ row: invalid, verdict: undefined }])).toBe(
      'Nothing to run: of 1 row, 1 invalid. Fix the file (each row’s Details say what is wrong) and choose it again.',
    );
    expect(
      nothingToRunReason([
        { row: invalid, verdict: undefined },
        { row: valid, verdict: verdict('conflict') },
        { row: valid, verdict: verdict('skip') },
      ]),
    ).toBe(
      'Nothing to run: of 3 rows, 1 invalid, 1 blocked, 1 already onboarded. Fix the file (each row’s Details say what is wrong) and choose it again.',
    );
    expect(nothingToRunReason([{ row: valid, verdict: verdict('skip') }])).toBe(
      'Nothing to run: of 1 row, 1 already onboarded.',
    );
    // A valid row not checked yet can run (the run checks it first), as can one to create.
    expect(
      nothingToRunReason([
        { row: invalid, verdict: undefined },
        { row: valid, verdict: undefined },
      ]),
    ).toBeUndefined();
  });

  it('counts rows waiting for a signature apart from failures', () => {
    expect(
      countOutcomes([
        { row: 1, userId: 'a', party: 'a', outcome: 'waiting', reason: '' },
        { row: 2, userId: 'b', party: 'b', outcome: 'failed', reason: '' },
      ]),
    ).toEqual({ created: 0, updated: 0, skipped: 0, waiting: 1, failed: 1 });
  });
});

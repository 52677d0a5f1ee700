import { describe, expect, it } from 'vitest';
import { submitterScope } from './composer-access';
import {
  composerSchema,
  emptyCommand,
  emptyComposerValues,
  ledgerStringProblem,
  templateIdProblem,
  type ComposerValues,
} from './composer-form-schema';
import {
  addHistoryEntry,
  MAX_HISTORY_ENTRIES,
  parseHistory,
  recentTemplateIds,
  type HistoryEntry,
} from './composer-history';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const IOU = '#sandbox-demo:Demo.Iou:Iou';
const PACKAGE_ID = 'a'.repeat(64);

function values(overrides: Partial<ComposerValues> = {}): ComposerValues {
  return {
    ...emptyComposerValues({ userId: 'participant_admin', actAs: [ALICE], commandId: 'cmd-1' }),
    commands: [
      { ...emptyCommand('create'), templateId: IOU, createArguments: '{"issuer":"alice::1220aa"}' },
    ],
    ...overrides,
  };
}

function issues(input: ComposerValues, userIdRequired = true) {
  const result = composerSchema({ userIdRequired }).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('composerSchema', () => {
  it('accepts a complete create command', () => {
    expect(issues(values())).toEqual([]);
  });

  it('names what is missing or malformed', () => {
    expect(
      issues(
        values({
          actAs: [],
          userId: '',
          commandId: '',
          commands: [
            { ...emptyCommand('exercise'), templateId: 'Iou', choiceArgument: '{' },
            { ...emptyCommand('create'), templateId: IOU, createArguments: '[]' },
          ],
        }),
      ),
    ).toEqual([
      'commands.0.templateId',
      'commands.0.contractId',
      'commands.0.choice',
      'commands.0.choiceArgument',
      'commands.1.createArguments',
      'actAs',
      'userId',
      'commandId',
    ]);
  });

  it('needs a user id only without a user behind the session', () => {
    expect(issues(values({ userId: '' }), false)).toEqual([]);
    expect(issues(values({ userId: '' }), true)).toEqual(['userId']);
  });

  it('checks the deduplication period, ledger time and disclosed contracts', () => {
    expect(
      issues(
        values({
          deduplication: { kind: 'offset', seconds: '', offset: '-1' },
          minLedgerTime: { kind: 'absolute', absolute: 'tomorrow', relativeSeconds: '' },
          disclosedContracts: [
            { contractId: '00ab', templateId: '', createdEventBlob: '', synchronizerId: '' },
          ],
          workflowId: 'not ok!',
        }),
      ),
    ).toEqual([
      'disclosedContracts.0.createdEventBlob',
      'workflowId',
      'deduplication.offset',
      'minLedgerTime.absolute',
    ]);
  });
});

describe('ledgerStringProblem', () => {
  it("takes the participant's LedgerString characters, the dot included", () => {
    expect(ledgerStringProblem('batch.2026-11/run #3: retry_1')).toBeUndefined();
    expect(ledgerStringProblem('not ok!')).toBe('Use ASCII letters, digits, space and . # : - _ /');
    expect(ledgerStringProblem('c'.repeat(256))).toBe('At most 255 characters');
  });
});

describe('templateIdProblem', () => {
  it('accepts package-name and package-id references only', () => {
    expect(templateIdProblem(IOU)).toBeUndefined();
    expect(templateIdProblem(`${PACKAGE_ID}:Demo.Iou:Iou`)).toBeUndefined();
    expect(templateIdProblem('sandbox-demo:Demo.Iou:Iou')).toMatch(/64 lowercase hex/);
    expect(templateIdProblem('#:Demo.Iou:Iou')).toMatch(/package name/);
    expect(templateIdProblem('Demo.Iou:Iou')).toMatch(/Module/);
  });
});

describe('submitterScope', () => {
  it('lets an unidentified caller name anyone but asks for a user id', () => {
    expect(submitterScope({ kind: 'unidentified' })).toEqual({
      actAs: { kind: 'any' },
      readAs: { kind: 'any' },
      userId: undefined,
      userIdRequired: true,
    });
  });

  it('limits a user to its party rights', () => {
    const scope = submitterScope({
      kind: 'user',
      userId: 'alice.anderson',
      identityProviderId: '',
      rights: [
        { kind: 'CanActAs', party: ALICE },
        { kind: 'CanReadAs', party: BOB },
      ],
    });
    expect(scope.actAs).toEqual({ kind: 'only', parties: [ALICE] });
    expect(scope.readAs).toEqual({ kind: 'only', parties: [ALICE, BOB] });
    expect(scope.userId).toBe('alice.anderson');
    expect(scope.userIdRequired).toBe(false);
  });

  it('opens up with the any-party rights', () => {
    const scope = submitterScope({
      kind: 'user',
      userId: 'ops',
      identityProviderId: '',
      rights: [{ kind: 'CanReadAsAnyParty' }, { kind: 'CanActAs', party: ALICE }],
    });
    expect(scope.actAs).toEqual({ kind: 'only', parties: [ALICE] });
    expect(scope.readAs).toEqual({ kind: 'any' });
  });
});

describe('history', () => {
  const entry = (id: string, templateId = IOU): HistoryEntry => ({
    id,
    submittedAt: 0,
    request: {
      commandId: id,
      actAs: [ALICE],
      commands: [{ CreateCommand: { templateId, createArguments: {} } }],
    },
    updateId: `1220${id}`,
    offset: 1,
    created: [{ contractId: `00${id}`, templateId: `${PACKAGE_ID}:Demo.Iou:Iou` }],
  });

  it('keeps the newest entries, bounded', () => {
    let entries: HistoryEntry[] = [];
    for (let i = 0; i < MAX_HISTORY_ENTRIES + 5; i++)
      entries = addHistoryEntry(entries, entry(`c${String(i)}`));
    expect(entries).toHaveLength(MAX_HISTORY_ENTRIES);
    expect(entries[0]?.id).toBe(`c${String(MAX_HISTORY_ENTRIES + 4)}`);
  });

  it('offers recent templates once each, and survives corrupt storage', () => {
    expect(recentTemplateIds([entry('a'), entry('b')])).toEqual([
      IOU,
      `${PACKAGE_ID}:Demo.Iou:Iou`,
    ]);
    expect(parseHistory('not json')).toEqual([]);
    expect(parseHistory(JSON.stringify([{ id: 1 }, entry('a')]))).toEqual([entry('a')]);
  });
});

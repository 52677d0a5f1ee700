import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from '@/lib/api-error';
import { submitterScope } from './composer-access';
import {
  composerErrorField,
  composerSchema,
  emptyCommand,
  emptyComposerValues,
  fromJsCommands,
  templateIdProblem,
  toJsCommands,
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

function error(status: number, body: Partial<ApiError['body']> & { code: string }): ApiError {
  return new ApiError(status, { cause: '', ...body });
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

describe('templateIdProblem', () => {
  it('accepts package-name and package-id references only', () => {
    expect(templateIdProblem(IOU)).toBeUndefined();
    expect(templateIdProblem(`${PACKAGE_ID}:Demo.Iou:Iou`)).toBeUndefined();
    expect(templateIdProblem('sandbox-demo:Demo.Iou:Iou')).toMatch(/64 lowercase hex/);
    expect(templateIdProblem('#:Demo.Iou:Iou')).toMatch(/package name/);
    expect(templateIdProblem('Demo.Iou:Iou')).toMatch(/Module/);
  });
});

describe('toJsCommands / fromJsCommands', () => {
  it('maps every command kind and option, and back', () => {
    const input = values({
      commands: [
        { ...emptyCommand('create'), templateId: IOU, createArguments: '{"a":1}' },
        {
          ...emptyCommand('exercise'),
          templateId: IOU,
          contractId: '00cid',
          choice: 'Iou_Split',
          choiceArgument: '{"splitAmount":"1"}',
        },
        {
          ...emptyCommand('createAndExercise'),
          templateId: IOU,
          createArguments: '{"a":2}',
          choice: 'Archive',
        },
        {
          ...emptyCommand('exerciseByKey'),
          templateId: IOU,
          contractKey: '{"bank":"b"}',
          choice: 'Go',
        },
      ],
      readAs: [BOB],
      workflowId: 'wf',
      deduplication: { kind: 'duration', seconds: '1.5', offset: '' },
      minLedgerTime: { kind: 'relative', absolute: '', relativeSeconds: '30' },
      disclosedContracts: [
        { contractId: '00x', templateId: '', createdEventBlob: 'AAE=', synchronizerId: 'sync::1' },
      ],
    });

    const request = toJsCommands(input);

    expect(request).toEqual({
      commands: [
        { CreateCommand: { templateId: IOU, createArguments: { a: 1 } } },
        {
          ExerciseCommand: {
            templateId: IOU,
            contractId: '00cid',
            choice: 'Iou_Split',
            choiceArgument: { splitAmount: '1' },
          },
        },
        {
          CreateAndExerciseCommand: {
            templateId: IOU,
            createArguments: { a: 2 },
            choice: 'Archive',
            choiceArgument: {},
          },
        },
        {
          ExerciseByKeyCommand: {
            templateId: IOU,
            contractKey: { bank: 'b' },
            choice: 'Go',
            choiceArgument: {},
          },
        },
      ],
      commandId: 'cmd-1',
      actAs: [ALICE],
      readAs: [BOB],
      userId: 'participant_admin',
      workflowId: 'wf',
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 500_000_000 } } },
      minLedgerTimeRel: { seconds: 30, nanos: 0 },
      disclosedContracts: [
        { createdEventBlob: 'AAE=', contractId: '00x', synchronizerId: 'sync::1' },
      ],
    });
    expect(toJsCommands(fromJsCommands(request, 'cmd-2'))).toEqual({
      ...request,
      commandId: 'cmd-2',
    });
  });

  it('leaves optional keys out when unset', () => {
    expect(Object.keys(toJsCommands(values({ userId: '' })))).toEqual([
      'commands',
      'commandId',
      'actAs',
    ]);
  });

  it('sends offsets and absolute times in the wire shapes', () => {
    const request = toJsCommands(
      values({
        deduplication: { kind: 'offset', seconds: '', offset: '42' },
        minLedgerTime: { kind: 'absolute', absolute: '2030-01-01T00:00:00Z', relativeSeconds: '' },
      }),
    );
    expect(request.deduplicationPeriod).toEqual({ DeduplicationOffset: { value: 42 } });
    expect(request.minLedgerTimeAbs).toBe('2030-01-01T00:00:00.000Z');
  });
});

describe('composerErrorField', () => {
  const two = values({
    commands: [
      { ...emptyCommand('create'), templateId: IOU },
      {
        ...emptyCommand('exercise'),
        templateId: '#sandbox-demo:Demo.Iou:Nope',
        contractId: '00dead',
        choice: 'Go',
      },
    ],
  });

  it('puts an unknown template on that command', () => {
    expect(
      composerErrorField(
        error(404, {
          code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
          resources: [['TEMPLATE_ID', `${PACKAGE_ID}:Demo.Iou:Nope`]],
        }),
        two,
      ),
    ).toBe('commands.1.templateId');
  });

  it('puts a 403 on the user id when the request names another user than the caller', () => {
    const refused = error(403, { code: 'NA', cause: 'PERMISSION_DENIED' });
    const asBob = { ...two, userId: 'bob' };
    expect(composerErrorField(refused, asBob, 'alice')).toBe('userId');
    // The caller's own user id, or none (defaulted): the refusal is about a party.
    expect(composerErrorField(refused, { ...two, userId: 'alice' }, 'alice')).toBe('actAs');
    expect(composerErrorField(refused, { ...two, userId: '' }, 'alice')).toBe('actAs');
    // The sandbox names the user id in its cause.
    expect(
      composerErrorField(
        error(403, {
          code: 'NA',
          cause: "user_id 'bob' of the request does not match the user 'alice' of the token",
        }),
        { ...two, userId: '' },
        'alice',
      ),
    ).toBe('userId');
  });

  it('reads the command from a decode failure', () => {
    const decodeFailure = toApiError(
      400,
      "Invalid value for: body (Invalid identifier format (bad) not matching the expected format (<package>:<moduleName>:<entityName>) at 'commands[1].ExerciseCommand.templateId')",
    );
    expect(composerErrorField(decodeFailure, two)).toBe('commands.1.templateId');
  });

  it('maps choice, contract, authorization, duplicate and argument errors', () => {
    expect(
      composerErrorField(
        error(400, {
          code: 'INVALID_ARGUMENT',
          cause: `The submitted request has invalid arguments: Invalid template:${PACKAGE_ID}:Demo.Iou:Nope or choice:Go`,
        }),
        two,
      ),
    ).toBe('commands.1.choice');
    expect(
      composerErrorField(
        error(404, { code: 'CONTRACT_NOT_FOUND', resources: [['CONTRACT_ID', '00dead']] }),
        two,
      ),
    ).toBe('commands.1.contractId');
    expect(composerErrorField(error(400, { code: 'DAML_AUTHORIZATION_ERROR' }), two)).toBe('actAs');
    expect(composerErrorField(error(403, { code: 'NA' }), two)).toBe('actAs');
    expect(composerErrorField(error(409, { code: 'DUPLICATE_COMMAND' }), two)).toBe('commandId');
    expect(
      composerErrorField(
        error(400, {
          code: 'COMMAND_PREPROCESSING_FAILED',
          cause: "Missing non-optional fields: owner at 'commands[0].createArguments'",
        }),
        two,
      ),
    ).toBe('commands.0.createArguments');
    expect(
      composerErrorField(
        error(400, { code: 'INVALID_ARGUMENT', cause: 'Unexpected fields: extra' }),
        values(),
      ),
    ).toBe('commands.0.createArguments');
    expect(
      composerErrorField(
        error(400, {
          code: 'INVALID_TOKEN',
          cause: 'The submitted request is missing a user-id: Cannot default user_id field',
        }),
        two,
      ),
    ).toBe('userId');
  });

  it('leaves the rest at the top of the form', () => {
    expect(composerErrorField(error(503, { code: 'UNAVAILABLE' }), two)).toBeUndefined();
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

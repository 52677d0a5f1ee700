import { describe, expect, it } from 'vitest';
import { fromJsCommands, templateIdInChosenForm, toJsCommands } from './composer-form-mappers';
import { emptyCommand, emptyComposerValues, type ComposerValues } from './composer-form-schema';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const IOU = '#sandbox-demo:Demo.Iou:Iou';

/** One create command, acting as Alice; `overrides` replace whole fields. */
function values(overrides: Partial<ComposerValues> = {}): ComposerValues {
  const defaults = { userId: 'participant_admin', actAs: [ALICE], commandId: 'cmd-1' };
  const create = {
    ...emptyCommand('create'),
    templateId: IOU,
    createArguments: '{"issuer":"alice::1220aa"}',
  };
  return { ...emptyComposerValues(defaults), commands: [create], ...overrides };
}

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

describe('templateIdInChosenForm', () => {
  const PKG = 'b'.repeat(64);
  const OTHER = 'c'.repeat(64);
  const templates = [
    { byId: `${PKG}:Demo.Iou:Iou`, byName: '#sandbox-demo:Demo.Iou:Iou' },
    { byId: `${PKG}:Demo.Iou:IouTransfer`, byName: '#sandbox-demo:Demo.Iou:IouTransfer' },
  ];

  it('keeps the package-name form the user typed', () => {
    expect(templateIdInChosenForm(`${PKG}:Demo.Iou:Iou`, [IOU], templates)).toBe(IOU);
  });

  it('writes another template of the result by package name when the user wrote names', () => {
    expect(templateIdInChosenForm(`${PKG}:Demo.Iou:IouTransfer`, [IOU], templates)).toBe(
      '#sandbox-demo:Demo.Iou:IouTransfer',
    );
  });

  it('keeps the package-id form the user chose', () => {
    expect(templateIdInChosenForm(`${PKG}:Demo.Iou:Iou`, [`${PKG}:Demo.Iou:Iou`], templates)).toBe(
      `${PKG}:Demo.Iou:Iou`,
    );
    expect(
      templateIdInChosenForm(`${PKG}:Demo.Iou:IouTransfer`, [`${PKG}:Demo.Iou:Iou`], templates),
    ).toBe(`${PKG}:Demo.Iou:IouTransfer`);
  });

  it('keeps an id it cannot name otherwise', () => {
    expect(templateIdInChosenForm(`${OTHER}:Other:T`, [IOU], templates)).toBe(`${OTHER}:Other:T`);
  });
});

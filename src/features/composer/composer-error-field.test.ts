import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from '@/lib/errors/api-error';
import { composerErrorField } from './composer-error-field';
import { emptyCommand, emptyComposerValues, type ComposerValues } from './composer-form-schema';

const ALICE = 'alice::1220aa';
const IOU = '#sandbox-demo:Demo.Iou:Iou';
const PACKAGE_ID = 'a'.repeat(64);

const submission = emptyComposerValues({
  userId: 'participant_admin',
  actAs: [ALICE],
  commandId: 'cmd-1',
});

function error(status: number, body: Partial<ApiError['body']> & { code: string }): ApiError {
  return new ApiError(status, { cause: '', ...body });
}

describe('composerErrorField', () => {
  const one: ComposerValues = {
    ...submission,
    commands: [
      { ...emptyCommand('create'), templateId: IOU, createArguments: '{"issuer":"alice::1220aa"}' },
    ],
  };
  const two: ComposerValues = {
    ...submission,
    commands: [
      { ...emptyCommand('create'), templateId: IOU },
      {
        ...emptyCommand('exercise'),
        templateId: '#sandbox-demo:Demo.Iou:Nope',
        contractId: '00dead',
        choice: 'Go',
      },
    ],
  };

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

  it("puts a 403 on Read as when only a Read as party is outside the caller's rights", () => {
    const refused = error(403, { code: 'NA' });
    const reading = { ...two, userId: '', readAs: ['carol::1220cc'] };
    const actAs = { kind: 'only', parties: [ALICE] } as const;
    const readAs = { kind: 'only', parties: [ALICE] } as const;
    expect(composerErrorField(refused, reading, 'alice', { actAs, readAs })).toBe('readAs');
    // Readable after all: the refusal is about Act as.
    expect(composerErrorField(refused, reading, 'alice', { actAs, readAs: { kind: 'any' } })).toBe(
      'actAs',
    );
    // An Act as party outside the rights comes first.
    expect(
      composerErrorField(refused, { ...reading, actAs: ['bob::1220bb'] }, 'alice', {
        actAs,
        readAs,
      }),
    ).toBe('actAs');
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
        one,
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

import { describe, expect, it } from 'vitest';
import {
  emptyMoveContractValues,
  moveContractSchema,
  submittersFor,
  toAssignRequest,
  toUnassignRequest,
} from './move-contract-form-schema';

describe('move contract form', () => {
  it('offers the stakeholders the caller may act as, each once', () => {
    expect(submittersFor(['bank', 'owner', 'bank'], 'any')).toEqual(['bank', 'owner']);
    expect(submittersFor(['bank', 'owner'], ['owner', 'other'])).toEqual(['owner']);
    expect(submittersFor(['bank'], [])).toEqual([]);
  });

  it('prefills a sole target, the first submitter, and the admin user only without a session user', () => {
    expect(emptyMoveContractValues(['bank'], ['global'], true)).toEqual({
      target: 'global',
      submitter: 'bank',
      userId: 'participant_admin',
    });
    expect(emptyMoveContractValues([], ['a', 'b'], false)).toEqual({
      target: '',
      submitter: '',
      userId: '',
    });
  });

  it('asks for a target, a submitter, and a valid user id where one is required', () => {
    const strict = moveContractSchema({ isUserIdRequired: true });
    const messages = (values: unknown, schema = strict) =>
      schema.safeParse(values).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(messages({ target: '', submitter: '', userId: '' })).toEqual([
      ['target', 'Choose the synchronizer to move it to'],
      ['submitter', 'Choose the stakeholder who moves it'],
      ['userId', 'Required without a signed-in user'],
    ]);
    expect(messages({ target: 't', submitter: 's', userId: 'no spaces' })?.[0]?.[0]).toBe('userId');
    expect(
      moveContractSchema({ isUserIdRequired: false }).safeParse({
        target: 't',
        submitter: 's',
        userId: '',
      }).success,
    ).toBe(true);
  });

  it('maps the values onto the two requests of a move', () => {
    const values = { target: 'global', submitter: 'bank', userId: ' admin ' };
    expect(toUnassignRequest('00ab', 'local', values)).toEqual({
      contractId: '00ab',
      source: 'local',
      target: 'global',
      submitter: 'bank',
      userId: 'admin',
    });
    expect(
      toAssignRequest(
        { reassignmentId: 'r', source: 'local', target: 'global' },
        { ...values, userId: '' },
      ),
    ).toEqual({ reassignmentId: 'r', source: 'local', target: 'global', submitter: 'bank' });
  });
});

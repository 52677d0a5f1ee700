import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import type { User } from '@/api/users';
import {
  annotationFieldInCause,
  annotationKeyProblem,
  annotationsPatch,
} from '@/lib/forms/annotations-rules';
import {
  partiesInCause,
  partyIdProblem,
  rightsChangeSchema,
  toUserRightList,
} from './rights-form-schema';
import {
  createUserErrorField,
  createUserSchema,
  emptyCreateUserValues,
  toCreateUserRequest,
  toUpdateUserRequest,
  toUserProfileValues,
  userIdProblem,
  userProfileErrorField,
  userProfileSchema,
  type CreateUserValues,
} from './user-form-schema';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';

function values(overrides: Partial<CreateUserValues> = {}): CreateUserValues {
  return { ...emptyCreateUserValues(), userId: 'ops', ...overrides };
}

function messagesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
}

const loadedUser: User = {
  id: 'ops',
  primaryParty: ALICE,
  isDeactivated: false,
  identityProviderId: 'idp-1',
  metadata: { resourceVersion: '3', annotations: { team: 'ledger', 'example.com/tier': 'gold' } },
};

describe('user ids', () => {
  it('accepts every character the server accepts, up to 128 of them', () => {
    expect(userIdProblem("a-Z.0@^$!`#+'~_|:()")).toBeUndefined();
    expect(userIdProblem('x'.repeat(128))).toBeUndefined();
  });

  it('rejects an empty id, a long one and foreign characters, naming the character', () => {
    expect(userIdProblem('')).toBe('Required');
    expect(userIdProblem('x'.repeat(129))).toBe('At most 128 characters (this has 129)');
    expect(userIdProblem('jürgen')).toMatch(
      /^"ü" is not allowed: use ASCII letters, digits and @\^\$/,
    );
    expect(userIdProblem('a b')).toMatch(/^A space is not allowed/);
    expect(userIdProblem('a/b')).toMatch(/^"\/" is not allowed/);
  });
});

describe('parties', () => {
  it('accepts Daml-LF party strings and rejects other characters', () => {
    expect(partyIdProblem(ALICE)).toBeUndefined();
    expect(partyIdProblem('')).toBe('Choose a party');
    expect(partyIdProblem('x!')).toMatch(/^"!" is not allowed in a party id/);
    expect(partyIdProblem('p'.repeat(256))).toBe('A party id has at most 255 characters');
  });

  it('reads the parties a server message names', () => {
    expect(
      partiesInCause(
        'The submitted request has invalid arguments: non expected character 0x21 in Daml-LF Party "x!"',
      ),
    ).toEqual(['x!']);
    expect(
      partiesInCause(
        'The submitted request refers to a non-existing PARTIES: Provided parties have not been found in identity_provider_id=`idp`: [a::1, b::2].',
      ),
    ).toEqual(['a::1', 'b::2']);
  });
});

describe('annotations', () => {
  it('validates keys like the server: optional DNS prefix, a name of at most 63 characters', () => {
    expect(annotationKeyProblem('team')).toBeUndefined();
    expect(annotationKeyProblem('example.com/team-a_b.c')).toBeUndefined();
    expect(annotationKeyProblem('')).toBe('Key is required');
    expect(annotationKeyProblem('a/b/c')).toMatch(/one "\/"/);
    expect(annotationKeyProblem('-team')).toMatch(/start and end with a letter or digit/);
    expect(annotationKeyProblem('ex_ample.com/team')).toMatch(/DNS name/);
    expect(annotationKeyProblem('n'.repeat(64))).toMatch(/longer than 63/);
  });

  it('rejects duplicate keys, empty values and more than 256 KiB', () => {
    const result = createUserSchema.safeParse(
      values({
        annotations: [
          { key: 'team', value: 'a' },
          { key: 'team', value: '' },
          { key: 'big', value: 'x'.repeat(256 * 1024) },
        ],
      }),
    );
    expect(messagesOf(result)).toEqual({
      'annotations.1.key': 'This key is already used',
      'annotations.1.value': 'Value is required',
      annotations: 'Annotations take 262152 bytes; the limit is 256 KiB (262144 bytes)',
    });
  });

  it('sends changed and new keys, and removed keys as "" (which deletes them)', () => {
    expect(
      annotationsPatch({ keep: '1', change: '2', drop: '3' }, [
        { key: 'keep', value: '1' },
        { key: 'change', value: 'two' },
        { key: 'add', value: '4' },
      ]),
    ).toEqual({ change: 'two', add: '4', drop: '' });
    expect(annotationsPatch(undefined, [])).toEqual({});
  });

  it('finds the row a server message is about', () => {
    const rows = [
      { key: 'ok', value: 'v' },
      { key: 'bad-', value: 'v' },
    ];
    expect(annotationFieldInCause("Key name segment 'bad-' has invalid syntax", rows)).toEqual({
      index: 1,
      part: 'key',
    });
    expect(
      annotationFieldInCause("The value of an annotation is empty for key: 'ok'", rows),
    ).toEqual({ index: 0, part: 'value' });
  });
});

describe('create user', () => {
  it('maps the form to one request with the user, its annotations and every kind of right', () => {
    const request = toCreateUserRequest(
      values({
        primaryParty: ALICE,
        identityProviderId: 'idp-1',
        isDeactivated: true,
        annotations: [{ key: 'team', value: 'ledger' }],
        rights: {
          partyRights: [
            { kind: 'CanActAs', party: ALICE },
            { kind: 'CanReadAs', party: BOB },
            { kind: 'CanExecuteAs', party: BOB },
            { kind: 'CanActAs', party: ALICE },
          ],
          otherRights: ['IdentityProviderAdmin', 'CanReadAsAnyParty'],
        },
      }),
    );
    expect(request).toEqual({
      user: {
        id: 'ops',
        primaryParty: ALICE,
        isDeactivated: true,
        identityProviderId: 'idp-1',
        metadata: { annotations: { team: 'ledger' } },
      },
      rights: [
        { kind: { CanActAs: { value: { party: ALICE } } } },
        { kind: { CanReadAs: { value: { party: BOB } } } },
        { kind: { CanExecuteAs: { value: { party: BOB } } } },
        { kind: { CanReadAsAnyParty: { value: {} } } },
        { kind: { IdentityProviderAdmin: { value: {} } } },
      ],
    });
  });

  it('needs a party on every party right, and a valid primary party if any', () => {
    const result = createUserSchema.safeParse(
      values({
        userId: '',
        primaryParty: 'x!',
        rights: { partyRights: [{ kind: 'CanActAs', party: '' }], otherRights: [] },
      }),
    );
    expect(messagesOf(result)).toEqual({
      userId: 'Required',
      primaryParty: expect.stringMatching(/^"!" is not allowed/) as unknown,
      'rights.partyRights.0.party': 'Choose a party',
    });
    expect(createUserSchema.safeParse(values()).success).toBe(true);
  });

  it('puts server errors on the field they concern', () => {
    const form = values({
      primaryParty: ALICE,
      annotations: [{ key: 'team', value: 'x' }],
      rights: { partyRights: [{ kind: 'CanReadAs', party: BOB }], otherRights: [] },
    });
    const error = (code: string, cause: string, context?: Record<string, string>) =>
      new ApiError(400, { code, cause, ...(context ? { context } : {}) });

    expect(createUserErrorField(error('USER_ALREADY_EXISTS', 'exists'), form)).toBe('userId');
    expect(
      createUserErrorField(
        error('INVALID_FIELD', 'Invalid field id: …', { field_name: 'id' }),
        form,
      ),
    ).toBe('userId');
    expect(
      createUserErrorField(error('INVALID_ARGUMENT', `… in Daml-LF Party "${ALICE}"`), form),
    ).toBe('primaryParty');
    expect(
      createUserErrorField(
        error('UNKNOWN_RESOURCE', `… identity_provider_id=\`i\`: [${BOB}].`),
        form,
      ),
    ).toBe('rights.partyRights.0.party');
    expect(
      createUserErrorField(
        error('INVALID_ARGUMENT', "Key name segment 'team' has invalid syntax"),
        form,
      ),
    ).toBe('annotations.0.key');
    expect(
      createUserErrorField(
        error('INVALID_ARGUMENT', 'Provided identity_provider_id Id(x) has not been found.'),
        form,
      ),
    ).toBe('identityProviderId');
    expect(createUserErrorField(error('NA', 'A security-sensitive error'), form)).toBeUndefined();
  });
});

describe('rights', () => {
  it('lists distinct rights, party rights first', () => {
    expect(
      toUserRightList({
        partyRights: [
          { kind: 'CanReadAs', party: ALICE },
          { kind: 'CanReadAs', party: ALICE },
        ],
        otherRights: ['ParticipantAdmin', 'CanActAsAnyParty'],
      }),
    ).toEqual([
      { kind: 'CanReadAs', party: ALICE },
      { kind: 'CanActAsAnyParty' },
      { kind: 'ParticipantAdmin' },
    ]);
  });

  it('needs at least one right to grant or revoke', () => {
    const result = rightsChangeSchema.safeParse({ rights: { partyRights: [], otherRights: [] } });
    expect(messagesOf(result)).toEqual({ rights: 'Choose at least one right' });
  });
});

describe('edit profile', () => {
  it('starts from the loaded user', () => {
    expect(toUserProfileValues(loadedUser)).toEqual({
      primaryParty: ALICE,
      isDeactivated: false,
      annotations: [
        { key: 'example.com/tier', value: 'gold' },
        { key: 'team', value: 'ledger' },
      ],
    });
  });

  it('sends nothing when nothing changed', () => {
    expect(toUpdateUserRequest(loadedUser, toUserProfileValues(loadedUser))).toBeUndefined();
  });

  it('masks only what changed and carries the loaded resourceVersion', () => {
    const form = toUserProfileValues(loadedUser);
    expect(toUpdateUserRequest(loadedUser, { ...form, isDeactivated: true })).toEqual({
      user: {
        id: 'ops',
        primaryParty: ALICE,
        isDeactivated: true,
        identityProviderId: 'idp-1',
        metadata: { resourceVersion: '3', annotations: {} },
      },
      updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } },
    });

    const request = toUpdateUserRequest(loadedUser, {
      primaryParty: '',
      isDeactivated: false,
      annotations: [{ key: 'team', value: 'core' }],
    });
    expect(request?.updateMask.paths).toEqual(['primary_party', 'metadata.annotations']);
    expect(request?.user.primaryParty).toBe('');
    expect(request?.user.metadata?.annotations).toEqual({ team: 'core', 'example.com/tier': '' });
  });

  it('validates like the create form', () => {
    const result = userProfileSchema.safeParse({
      primaryParty: 'x!',
      isDeactivated: false,
      annotations: [{ key: 'ok', value: '' }],
    });
    expect(Object.keys(messagesOf(result)).sort()).toEqual(['annotations.0.value', 'primaryParty']);
  });

  it('puts an annotations size overflow on the annotations', () => {
    const error = new ApiError(400, { code: 'MAX_USER_ANNOTATIONS_SIZE_EXCEEDED', cause: '…' });
    expect(userProfileErrorField(error, toUserProfileValues(loadedUser))).toBe('annotations');
  });
});

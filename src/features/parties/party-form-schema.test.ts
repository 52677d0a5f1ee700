import { describe, expect, it } from 'vitest';
import type { PartyDetails } from '@/api/parties';
import { ApiError } from '@/lib/errors/api-error';
import {
  allocatePartyErrorField,
  allocatePartySchema,
  emptyAllocatePartyValues,
  partyAnnotationsErrorField,
  partyHintProblem,
  toAllocatePartyRequest,
  toPartyAnnotationsPatch,
  toPartyAnnotationsValues,
  type AllocatePartyValues,
} from './party-form-schema';

const invalidArgument = (cause: string, code = 'INVALID_ARGUMENT') =>
  new ApiError(400, { code, cause });

describe('partyHintProblem', () => {
  it('accepts an empty hint, letters, digits, ":", "-", "_" and space', () => {
    expect(partyHintProblem('')).toBeUndefined();
    expect(partyHintProblem('Alice Ops:eu-1_a')).toBeUndefined();
    expect(partyHintProblem('a'.repeat(185))).toBeUndefined();
  });

  it('names the first character the participant would refuse', () => {
    expect(partyHintProblem('alice!')).toBe(
      '"!" is not allowed: use ASCII letters, digits, ":", "-", "_" and space',
    );
    expect(partyHintProblem('zoë')).toMatch(/^"ë" is not allowed/);
  });

  it('refuses "::", which separates the hint from the namespace', () => {
    expect(partyHintProblem('alice::x')).toMatch(/must not contain "::"/);
    expect(partyHintProblem('a:b')).toBeUndefined();
  });

  it('refuses more than 185 characters', () => {
    expect(partyHintProblem('a'.repeat(186))).toBe('At most 185 characters (this has 186)');
  });
});

describe('allocatePartySchema', () => {
  const values = (change: Partial<AllocatePartyValues> = {}) => ({
    ...emptyAllocatePartyValues(),
    ...change,
  });

  it('accepts an empty form: the participant then picks the name', () => {
    expect(allocatePartySchema({ isSynchronizerRequired: false }).safeParse(values()).success).toBe(
      true,
    );
  });

  it('requires a synchronizer only when several are connected', () => {
    const result = allocatePartySchema({ isSynchronizerRequired: true }).safeParse(values());
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['synchronizerId'], 'Choose a synchronizer'],
    ]);
  });

  it('checks the hint, the user id to grant and the annotations', () => {
    const result = allocatePartySchema({ isSynchronizerRequired: false }).safeParse(
      values({
        partyIdHint: 'a::b',
        userId: 'no spaces',
        annotations: [{ key: 'bad key', value: '' }],
      }),
    );
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'partyIdHint',
      'userId',
      'annotations.0.key',
      'annotations.0.value',
    ]);
  });
});

describe('toAllocatePartyRequest', () => {
  it('sends every field, with the annotations as a map', () => {
    expect(
      toAllocatePartyRequest({
        partyIdHint: 'alice',
        identityProviderId: 'acme',
        synchronizerId: 'local::1220ab',
        userId: 'ops',
        annotations: [{ key: 'team', value: 'ops' }],
      }),
    ).toEqual({
      partyIdHint: 'alice',
      identityProviderId: 'acme',
      synchronizerId: 'local::1220ab',
      userId: 'ops',
      localMetadata: { annotations: { team: 'ops' } },
    });
  });
});

describe('allocatePartyErrorField', () => {
  const values = { ...emptyAllocatePartyValues(), partyIdHint: 'alice', userId: 'ops' };

  it('puts a duplicate or malformed hint on the hint field', () => {
    expect(
      allocatePartyErrorField(
        invalidArgument(
          'The submitted request has invalid arguments: Party already exists: party alice::1220 is already allocated on this node',
        ),
        values,
      ),
    ).toBe('partyIdHint');
    expect(
      allocatePartyErrorField(
        invalidArgument('…: non expected character 0x21 in Daml-LF Party "alice"'),
        values,
      ),
    ).toBe('partyIdHint');
    expect(allocatePartyErrorField(invalidArgument('…: Invalid party ID: too long'), values)).toBe(
      'partyIdHint',
    );
  });

  it('puts an unknown user on the user field and an unknown IdP on the IdP field', () => {
    expect(
      allocatePartyErrorField(
        new ApiError(404, { code: 'USER_NOT_FOUND', cause: 'allocating party failed' }),
        values,
      ),
    ).toBe('userId');
    expect(
      allocatePartyErrorField(
        invalidArgument('…: Provided identity_provider_id Id(gone) has not been found.'),
        values,
      ),
    ).toBe('identityProviderId');
  });

  it('puts an unknown synchronizer on the synchronizer field', () => {
    expect(
      allocatePartyErrorField(invalidArgument('Unknown synchronizer id x::1220'), values),
    ).toBe('synchronizerId');
  });

  it('puts an annotation problem on its row, and anything else nowhere', () => {
    const withAnnotation = { ...values, annotations: [{ key: 'team', value: 'a' }] };
    expect(
      allocatePartyErrorField(
        invalidArgument("…: The value of an annotation is empty for key: 'team'"),
        withAnnotation,
      ),
    ).toBe('annotations.0.value');
    expect(allocatePartyErrorField(invalidArgument('something else'), values)).toBeUndefined();
  });
});

describe('party annotations', () => {
  const party: PartyDetails = {
    party: 'alice::1220ab',
    isLocal: true,
    identityProviderId: '',
    localMetadata: { resourceVersion: '3', annotations: { team: 'ops', tier: 'gold' } },
  };

  it('loads the annotations as rows sorted by key', () => {
    expect(toPartyAnnotationsValues(party)).toEqual({
      annotations: [
        { key: 'team', value: 'ops' },
        { key: 'tier', value: 'gold' },
      ],
    });
  });

  it('sends changed and new keys, and removed keys as ""', () => {
    expect(
      toPartyAnnotationsPatch(party, {
        annotations: [
          { key: 'team', value: 'night' },
          { key: 'site', value: 'zrh' },
        ],
      }),
    ).toEqual({ team: 'night', site: 'zrh', tier: '' });
  });

  it('is undefined when nothing changed', () => {
    expect(toPartyAnnotationsPatch(party, toPartyAnnotationsValues(party))).toBeUndefined();
  });

  it('puts a size overflow on the annotations as a whole', () => {
    expect(
      partyAnnotationsErrorField(
        new ApiError(400, {
          code: 'MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED',
          cause: 'too big',
        }),
        toPartyAnnotationsValues(party),
      ),
    ).toBe('annotations');
  });
});

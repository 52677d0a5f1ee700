import { describe, expect, it } from 'vitest';
import { allocatePartyCall } from '@/api/parties';
import { allocatePartyCommands, partyAnnotationsCommands } from './parties-copy-as';
import { emptyAllocatePartyValues, toAllocatePartyRequest } from './party-form-schema';

describe('allocatePartyCommands', () => {
  const values = {
    ...emptyAllocatePartyValues('acme-idp'),
    partyIdHint: 'carol',
    userId: 'carol.user',
    annotations: [{ key: 'desk', value: 'fx' }],
  };

  it('copies exactly the request the form submits', () => {
    const { request } = allocatePartyCommands(values);
    expect(request).toEqual(allocatePartyCall(toAllocatePartyRequest(values)));
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v2/parties',
      body: {
        partyIdHint: 'carol',
        identityProviderId: 'acme-idp',
        userId: 'carol.user',
        localMetadata: { annotations: { desk: 'fx' } },
      },
    });
  });

  it('writes parties.allocate with the hint, and none without a hint or with a synchronizer', () => {
    expect(allocatePartyCommands(values).cantonConsole).toBe(
      'participant.ledger_api.parties.allocate(party = "carol", annotations = Map("desk" -> "fx"), identityProviderId = "acme-idp", userId = "carol.user")',
    );
    expect(allocatePartyCommands({ ...values, partyIdHint: '' }).cantonConsole).toBeUndefined();
    expect(
      allocatePartyCommands({ ...values, synchronizerId: 'sync::1220' }).cantonConsole,
    ).toBeUndefined();
  });
});

describe('partyAnnotationsCommands', () => {
  const party = {
    party: 'carol::1220cc',
    isLocal: true,
    identityProviderId: '',
    localMetadata: { resourceVersion: '4', annotations: { desk: 'fx', old: 'x' } },
  };

  it('is the merge patch the form saves, and nothing while unchanged', () => {
    expect(
      partyAnnotationsCommands(party, {
        annotations: [
          { key: 'desk', value: 'fx' },
          { key: 'old', value: 'x' },
        ],
      }),
    ).toBeUndefined();
    const commands = partyAnnotationsCommands(party, {
      annotations: [{ key: 'desk', value: 'rates' }],
    });
    expect(commands?.request).toMatchObject({
      method: 'PATCH',
      path: '/v2/parties/carol%3A%3A1220cc',
      body: {
        partyDetails: {
          localMetadata: { resourceVersion: '4', annotations: { desk: 'rates', old: '' } },
        },
        updateMask: { paths: ['local_metadata.annotations'] },
      },
    });
    expect(commands?.cantonConsole).toBe(
      'participant.ledger_api.parties.update(party = PartyId.tryFromProtoPrimitive("carol::1220cc"), ' +
        'modifier = details => details.copy(annotations = ' +
        'details.annotations.updated("desk", "rates").removed("old")))',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createUserCall, deleteUserCall, rightsChangeCall, toWireRight } from '@/api/users';
import { toCurl } from '@/lib/text/copy-as';
import {
  emptyCreateUserValues,
  toCreateUserRequest,
  toUpdateUserRequest,
} from './user-form-schema';
import {
  createUserCommands,
  deleteUserCommands,
  moveUserCommands,
  rightsChangeCommands,
  updateUserCommands,
} from './users-copy-as';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';

describe('createUserCommands', () => {
  const values = {
    ...emptyCreateUserValues('acme-idp'),
    userId: 'ops',
    primaryParty: ALICE,
    annotations: [{ key: 'team', value: 'ops' }],
    rights: {
      partyRights: [
        { kind: 'CanActAs' as const, party: ALICE },
        { kind: 'CanReadAs' as const, party: BOB },
      ],
      otherRights: ['IdentityProviderAdmin' as const],
    },
  };

  it('copies exactly the request the form submits', () => {
    const { request } = createUserCommands(values);
    expect(request).toEqual(createUserCall(toCreateUserRequest(values)));
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v2/users');
    expect(request.body).toMatchObject({
      user: { id: 'ops', primaryParty: ALICE, identityProviderId: 'acme-idp' },
      rights: [
        { kind: { CanActAs: { value: { party: ALICE } } } },
        { kind: { CanReadAs: { value: { party: BOB } } } },
        { kind: { IdentityProviderAdmin: { value: {} } } },
      ],
    });
  });

  it('writes the Canton console call with only the arguments that differ from the defaults', () => {
    expect(createUserCommands(values).cantonConsole).toBe(
      'participant.ledger_api.users.create(id = "ops", ' +
        'actAs = Set(PartyId.tryFromProtoPrimitive("alice::1220aa")), ' +
        'primaryParty = Some(PartyId.tryFromProtoPrimitive("alice::1220aa")), ' +
        'readAs = Set(PartyId.tryFromProtoPrimitive("bob::1220bb")), ' +
        'identityProviderAdmin = true, annotations = Map("team" -> "ops"), ' +
        'identityProviderId = "acme-idp")',
    );
    expect(createUserCommands({ ...emptyCreateUserValues(), userId: 'plain' }).cantonConsole).toBe(
      'participant.ledger_api.users.create(id = "plain")',
    );
  });

  it('offers no console call for rights users.create does not take', () => {
    const withExecute = {
      ...values,
      rights: { partyRights: [{ kind: 'CanExecuteAs' as const, party: ALICE }], otherRights: [] },
    };
    expect(createUserCommands(withExecute).cantonConsole).toBeUndefined();
  });

  it('quotes a user id for the shell and for Scala', () => {
    const tricky = { ...emptyCreateUserValues(), userId: `o'"ps` };
    const { request, cantonConsole } = createUserCommands(tricky);
    expect(toCurl(request, 'http://localhost:4173')).toContain(`"id": "o'\\''\\"ps"`);
    expect(cantonConsole).toBe(`participant.ledger_api.users.create(id = "o'\\"ps")`);
  });
});

describe('updateUserCommands', () => {
  const user = {
    id: 'ops',
    primaryParty: '',
    isDeactivated: false,
    identityProviderId: '',
    metadata: { resourceVersion: '3', annotations: {} },
  };

  it('is the PATCH the profile form sends, and nothing while nothing changed', () => {
    const unchanged = { primaryParty: '', isDeactivated: false, annotations: [] };
    expect(updateUserCommands(toUpdateUserRequest(user, unchanged))).toBeUndefined();
    const commands = updateUserCommands(
      toUpdateUserRequest(user, { ...unchanged, primaryParty: ALICE }),
    );
    expect(commands?.request).toMatchObject({
      method: 'PATCH',
      path: '/v2/users/ops',
      body: { updateMask: { paths: ['primary_party'] }, user: { primaryParty: ALICE } },
    });
    expect(commands?.cantonConsole).toBe(
      'participant.ledger_api.users.update(id = "ops", modifier = user => user.copy(' +
        'primaryParty = Some(PartyId.tryFromProtoPrimitive("alice::1220aa"))))',
    );
  });

  it('writes the console modifier for exactly the fields the PATCH changes', () => {
    const withNotes = {
      ...user,
      identityProviderId: 'acme-idp',
      metadata: { resourceVersion: '3', annotations: { team: 'ops', old: 'x' } },
    };
    const commands = updateUserCommands(
      toUpdateUserRequest(withNotes, {
        primaryParty: '',
        isDeactivated: true,
        annotations: [{ key: 'team', value: 'rates' }],
      }),
    );
    expect(commands?.cantonConsole).toBe(
      'participant.ledger_api.users.update(id = "ops", modifier = user => user.copy(' +
        'isDeactivated = true, ' +
        'annotations = user.annotations.updated("team", "rates").removed("old")), ' +
        'identityProviderId = "acme-idp")',
    );
  });
});

describe('rights, delete and move', () => {
  const ref = { userId: 'ops', identityProviderId: 'acme-idp' };

  it('grants with the same body as the mutation, and a users.rights.grant line', () => {
    const rights = [
      { kind: 'CanActAs' as const, party: ALICE },
      { kind: 'CanExecuteAs' as const, party: BOB },
    ];
    const commands = rightsChangeCommands('grant', ref, rights);
    expect(commands?.request).toEqual(
      rightsChangeCall('grant', { ...ref, rights: rights.map(toWireRight) }),
    );
    expect(commands?.request.path).toBe('/v2/users/ops/rights');
    expect(commands?.cantonConsole).toBe(
      'participant.ledger_api.users.rights.grant(id = "ops", ' +
        'actAs = Set(PartyId.tryFromProtoPrimitive("alice::1220aa")), ' +
        'identityProviderId = "acme-idp", ' +
        'executeAs = Set(PartyId.tryFromProtoPrimitive("bob::1220bb")))',
    );
  });

  it('revokes with PATCH and users.rights.revoke; nothing to copy without rights', () => {
    const commands = rightsChangeCommands('revoke', ref, [{ kind: 'ParticipantAdmin' }]);
    expect(commands?.request.method).toBe('PATCH');
    expect(commands?.cantonConsole).toBe(
      'participant.ledger_api.users.rights.revoke(id = "ops", participantAdmin = true, ' +
        'identityProviderId = "acme-idp")',
    );
    expect(rightsChangeCommands('grant', ref, [])).toBeUndefined();
    expect(
      rightsChangeCommands('grant', ref, [{ kind: 'CanActAsAnyParty' }])?.cantonConsole,
    ).toBeUndefined();
  });

  it('deletes and moves with the path-encoded id', () => {
    expect(deleteUserCommands({ userId: 'a/b', identityProviderId: '' }).request).toEqual(
      deleteUserCall({ userId: 'a/b', identityProviderId: '' }),
    );
    expect(deleteUserCommands({ userId: 'a/b', identityProviderId: '' }).request.path).toBe(
      '/v2/users/a%2Fb',
    );
    expect(moveUserCommands('ops', 'acme-idp', '').request).toEqual({
      method: 'PATCH',
      path: '/v2/users/ops/identity-provider-id',
      body: { userId: 'ops', sourceIdentityProviderId: 'acme-idp', targetIdentityProviderId: '' },
    });
    expect(
      deleteUserCommands({ userId: 'ops', identityProviderId: 'acme-idp' }).cantonConsole,
    ).toBe('participant.ledger_api.users.delete(id = "ops", identityProviderId = "acme-idp")');
    expect(moveUserCommands('ops', 'acme-idp', '').cantonConsole).toBe(
      'participant.ledger_api.users.update_idp(id = "ops", sourceIdentityProviderId = "acme-idp", ' +
        'targetIdentityProviderId = "")',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { UserRight } from '@/lib/access/access-rights';
import { partyAccess, rightsGranting, type UserWithRights } from './party-access';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';

function user(
  userId: string,
  rights: UserRight[],
  { identityProviderId = '', isDeactivated = false } = {},
): UserWithRights {
  return { userId, identityProviderId, isDeactivated, rights };
}

describe('rightsGranting', () => {
  it('gives act, read and execute through CanActAs of the party', () => {
    const rights: UserRight[] = [{ kind: 'CanActAs', party: ALICE }];
    expect(rightsGranting(rights, ALICE, 'act')).toEqual(['CanActAs']);
    expect(rightsGranting(rights, ALICE, 'read')).toEqual(['CanActAs']);
    expect(rightsGranting(rights, ALICE, 'execute')).toEqual(['CanActAs']);
  });

  it('ignores party rights of other parties', () => {
    const rights: UserRight[] = [
      { kind: 'CanActAs', party: BOB },
      { kind: 'CanReadAs', party: BOB },
    ];
    expect(rightsGranting(rights, ALICE, 'act')).toEqual([]);
    expect(rightsGranting(rights, ALICE, 'read')).toEqual([]);
  });

  it('gives read only through CanReadAs, and execute only through CanExecuteAs', () => {
    const readOnly: UserRight[] = [{ kind: 'CanReadAs', party: ALICE }];
    expect(rightsGranting(readOnly, ALICE, 'act')).toEqual([]);
    expect(rightsGranting(readOnly, ALICE, 'read')).toEqual(['CanReadAs']);
    expect(rightsGranting(readOnly, ALICE, 'execute')).toEqual([]);
    const executeOnly: UserRight[] = [{ kind: 'CanExecuteAs', party: ALICE }];
    expect(rightsGranting(executeOnly, ALICE, 'read')).toEqual([]);
    expect(rightsGranting(executeOnly, ALICE, 'execute')).toEqual(['CanExecuteAs']);
  });

  it('gives every capability for every party through CanActAsAnyParty', () => {
    const rights: UserRight[] = [{ kind: 'CanActAsAnyParty' }];
    for (const capability of ['act', 'read', 'execute'] as const) {
      expect(rightsGranting(rights, ALICE, capability)).toEqual(['CanActAsAnyParty']);
    }
  });

  it('gives only read through CanReadAsAnyParty and only execute through CanExecuteAsAnyParty', () => {
    const read: UserRight[] = [{ kind: 'CanReadAsAnyParty' }];
    expect(rightsGranting(read, ALICE, 'act')).toEqual([]);
    expect(rightsGranting(read, ALICE, 'read')).toEqual(['CanReadAsAnyParty']);
    expect(rightsGranting(read, ALICE, 'execute')).toEqual([]);
    const execute: UserRight[] = [{ kind: 'CanExecuteAsAnyParty' }];
    expect(rightsGranting(execute, ALICE, 'read')).toEqual([]);
    expect(rightsGranting(execute, ALICE, 'execute')).toEqual(['CanExecuteAsAnyParty']);
  });

  it('lists every right that gives a capability, strongest first', () => {
    const rights: UserRight[] = [
      { kind: 'CanReadAsAnyParty' },
      { kind: 'CanReadAs', party: ALICE },
      { kind: 'CanActAs', party: ALICE },
    ];
    expect(rightsGranting(rights, ALICE, 'read')).toEqual([
      'CanActAs',
      'CanReadAs',
      'CanReadAsAnyParty',
    ]);
  });

  it('gives nothing through ParticipantAdmin or IdentityProviderAdmin', () => {
    const rights: UserRight[] = [{ kind: 'ParticipantAdmin' }, { kind: 'IdentityProviderAdmin' }];
    for (const capability of ['act', 'read', 'execute'] as const) {
      expect(rightsGranting(rights, ALICE, capability)).toEqual([]);
    }
  });
});

describe('partyAccess', () => {
  it('lists the users holding a capability with the rights that give it, and flags deactivated ones', () => {
    const access = partyAccess(ALICE, '', [
      user('direct', [{ kind: 'CanActAs', party: ALICE }]),
      user('reader', [{ kind: 'CanReadAs', party: ALICE }], { isDeactivated: true }),
      user('anyone', [{ kind: 'CanReadAsAnyParty' }, { kind: 'CanExecuteAsAnyParty' }]),
      user('other', [{ kind: 'CanActAs', party: BOB }]),
    ]);

    expect(access.holders).toEqual([
      {
        userId: 'direct',
        identityProviderId: '',
        isDeactivated: false,
        grantedBy: { act: ['CanActAs'], read: ['CanActAs'], execute: ['CanActAs'] },
      },
      {
        userId: 'reader',
        identityProviderId: '',
        isDeactivated: true,
        grantedBy: { act: [], read: ['CanReadAs'], execute: [] },
      },
      {
        userId: 'anyone',
        identityProviderId: '',
        isDeactivated: false,
        grantedBy: {
          act: [],
          read: ['CanReadAsAnyParty'],
          execute: ['CanExecuteAsAnyParty'],
        },
      },
    ]);
    expect(access.administrators).toEqual([]);
  });

  it('lists a participant admin apart, with what it could grant itself', () => {
    const access = partyAccess(ALICE, '', [
      user('admin', [{ kind: 'ParticipantAdmin' }]),
      user('reading-admin', [{ kind: 'ParticipantAdmin' }, { kind: 'CanReadAs', party: ALICE }]),
      user('full-admin', [{ kind: 'ParticipantAdmin' }, { kind: 'CanActAsAnyParty' }]),
    ]);

    expect(access.holders.map((row) => row.userId)).toEqual(['reading-admin', 'full-admin']);
    expect(access.administrators).toEqual([
      {
        userId: 'admin',
        identityProviderId: '',
        isDeactivated: false,
        via: 'ParticipantAdmin',
        couldGain: ['act', 'read', 'execute'],
      },
      {
        userId: 'reading-admin',
        identityProviderId: '',
        isDeactivated: false,
        via: 'ParticipantAdmin',
        couldGain: ['act', 'execute'],
      },
    ]);
  });

  it("lists IdP admins of the party's IdP only", () => {
    const access = partyAccess(ALICE, 'acme', [
      user('acme-admin', [{ kind: 'IdentityProviderAdmin' }], { identityProviderId: 'acme' }),
      user('other-admin', [{ kind: 'IdentityProviderAdmin' }], { identityProviderId: 'other' }),
      user('default-admin', [{ kind: 'IdentityProviderAdmin' }]),
    ]);

    expect(access.holders).toEqual([]);
    expect(access.administrators).toEqual([
      {
        userId: 'acme-admin',
        identityProviderId: 'acme',
        isDeactivated: false,
        via: 'IdentityProviderAdmin',
        couldGain: ['act', 'read', 'execute'],
      },
    ]);
  });

  it('names ParticipantAdmin for a user who is both kinds of admin', () => {
    const access = partyAccess(ALICE, '', [
      user('both', [{ kind: 'IdentityProviderAdmin' }, { kind: 'ParticipantAdmin' }]),
    ]);
    expect(access.administrators.map((row) => row.via)).toEqual(['ParticipantAdmin']);
  });
});

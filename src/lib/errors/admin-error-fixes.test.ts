import { describe, expect, it } from 'vitest';
import { accessFixes, adminFailure, mayBeUserElsewhere } from './admin-error-fixes';
import { ApiError } from './api-error';

const refused = new ApiError(403, {
  code: 'NA',
  cause: 'A security-sensitive error has been received',
});
const userNotFound = new ApiError(404, {
  code: 'USER_NOT_FOUND',
  cause: 'allocating party failed for unknown user "trader"',
});
const participantAdmin = { isParticipantAdmin: true, administeredIdentityProviderId: undefined };
const acmeAdmin = { isParticipantAdmin: false, administeredIdentityProviderId: 'acme-idp' };

describe('adminFailure: create user', () => {
  const change = { action: 'createUser' as const, userId: 'trader', identityProviderId: '' };

  it('names the identity provider that has the id, with open and move for a participant admin', () => {
    const failure = adminFailure(
      refused,
      { ...change, whereabouts: { identityProviderId: 'acme-idp', isDeactivated: false } },
      participantAdmin,
    );
    expect(failure?.cause).toBe(
      'A user “trader” already exists in identity provider acme-idp. User ids are unique on a participant, so it cannot also be created in the default identity provider.',
    );
    expect(failure?.fixes).toEqual([
      { kind: 'openUser', userId: 'trader', identityProviderId: 'acme-idp' },
      { kind: 'moveUser', userId: 'trader', from: 'acme-idp', to: '' },
    ]);
  });

  it('offers no move to a caller who may not move users', () => {
    const failure = adminFailure(
      refused,
      {
        ...change,
        identityProviderId: 'acme-idp',
        whereabouts: { identityProviderId: '', isDeactivated: false },
      },
      acmeAdmin,
    );
    expect(failure?.fixes.map((fix) => fix.kind)).toEqual(['openUser']);
  });

  it('keeps the server message while the user was not found elsewhere or not looked up', () => {
    expect(adminFailure(refused, change, participantAdmin)).toBeUndefined();
    expect(
      adminFailure(refused, { ...change, whereabouts: null }, participantAdmin),
    ).toBeUndefined();
    expect(
      adminFailure(
        new ApiError(409, { code: 'USER_ALREADY_EXISTS', cause: 'exists' }),
        { ...change, whereabouts: { identityProviderId: '', isDeactivated: false } },
        participantAdmin,
      ),
    ).toBeUndefined();
    expect(adminFailure(new Error('boom'), change, participantAdmin)).toBeUndefined();
  });
});

describe('adminFailure: allocate party for a user', () => {
  const change = { action: 'allocateParty' as const, userId: 'trader', identityProviderId: '' };

  it('says the user belongs to another identity provider and offers to use it', () => {
    const failure = adminFailure(
      userNotFound,
      { ...change, whereabouts: { identityProviderId: 'acme-idp', isDeactivated: false } },
      participantAdmin,
    );
    expect(failure?.cause).toMatch(
      /^User “trader” belongs to identity provider acme-idp, not to the default identity provider/,
    );
    expect(failure?.fixes).toEqual([
      { kind: 'useIdentityProvider', identityProviderId: 'acme-idp' },
      { kind: 'openUser', userId: 'trader', identityProviderId: 'acme-idp' },
    ]);
  });

  it('does not offer an identity provider the caller cannot allocate in', () => {
    const failure = adminFailure(
      userNotFound,
      {
        ...change,
        identityProviderId: 'acme-idp',
        whereabouts: { identityProviderId: 'globex', isDeactivated: false },
      },
      acmeAdmin,
    );
    expect(failure?.fixes.map((fix) => fix.kind)).toEqual(['openUser']);
  });

  it('offers to create a user that exists nowhere', () => {
    expect(adminFailure(userNotFound, { ...change, whereabouts: null }, participantAdmin)).toEqual({
      cause:
        'There is no user “trader” in the default identity provider. Create it first, or choose an existing user.',
      fixes: [{ kind: 'createUser', userId: 'trader', identityProviderId: '' }],
    });
  });

  it('has nothing to add for an allocation for nobody or another error', () => {
    expect(adminFailure(userNotFound, { ...change, userId: '' }, participantAdmin)).toBeUndefined();
    expect(adminFailure(refused, change, participantAdmin)).toBeUndefined();
  });
});

describe('mayBeUserElsewhere', () => {
  it('looks for a refused create and for an allocation whose user was not found', () => {
    expect(mayBeUserElsewhere(refused, { action: 'createUser', userId: 'trader' })).toBe(true);
    expect(mayBeUserElsewhere(userNotFound, { action: 'allocateParty', userId: 'trader' })).toBe(
      true,
    );
  });

  it('does not look for another error, the other action, or nobody', () => {
    expect(mayBeUserElsewhere(userNotFound, { action: 'createUser', userId: 'trader' })).toBe(
      false,
    );
    expect(mayBeUserElsewhere(refused, { action: 'allocateParty', userId: 'trader' })).toBe(false);
    expect(mayBeUserElsewhere(new Error('offline'), { action: 'createUser', userId: 'x' })).toBe(
      false,
    );
    expect(mayBeUserElsewhere(refused, { action: 'createUser', userId: '' })).toBe(false);
    expect(mayBeUserElsewhere(userNotFound, { action: 'allocateParty', userId: '' })).toBe(false);
  });
});

describe('accessFixes', () => {
  const facts = {
    userId: 'bob',
    identityProviderId: '',
    isDeactivated: false,
    primaryParty: 'bob::1220',
    rights: [{ kind: 'CanActAs' as const, party: 'bob::1220' }],
  };
  const admin = { canManageUser: true, canGrantReadAs: true, isSelf: false };

  it('offers nothing when the user is active and sees its primary party', () => {
    expect(accessFixes(facts, admin)).toEqual([]);
    expect(accessFixes({ ...facts, rights: [{ kind: 'CanReadAsAnyParty' }] }, admin)).toEqual([]);
  });

  it('reactivates a deactivated user, unless the caller may not or is that user', () => {
    const deactivated = { ...facts, isDeactivated: true };
    expect(accessFixes(deactivated, admin)).toEqual([
      { kind: 'reactivateUser', userId: 'bob', identityProviderId: '' },
    ]);
    expect(accessFixes(deactivated, { ...admin, canManageUser: false })).toEqual([]);
    expect(accessFixes(deactivated, { ...admin, isSelf: true })).toEqual([]);
  });

  it('grants Read as the primary party the user cannot see', () => {
    const blind = { ...facts, rights: [{ kind: 'CanExecuteAs' as const, party: 'bob::1220' }] };
    expect(accessFixes(blind, admin)).toEqual([
      {
        kind: 'grantRight',
        right: 'CanReadAs',
        party: 'bob::1220',
        userId: 'bob',
        identityProviderId: '',
      },
    ]);
    expect(accessFixes(blind, { ...admin, canGrantReadAs: false })).toEqual([]);
    expect(accessFixes({ ...blind, rights: undefined }, admin)).toEqual([]);
  });
});

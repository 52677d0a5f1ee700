import { describe, expect, it } from 'vitest';
import { existingStateOf } from './existing-state';
import { DISPLAY_NAME_ANNOTATION } from './onboarding-input';

const PARTY = `dana::1220${'ab'.repeat(32)}`;

describe('existingStateOf', () => {
  it('is empty when nothing was found', () => {
    expect(
      existingStateOf({
        user: undefined,
        userInOtherIdentityProvider: false,
        userRights: [],
        party: null,
      }),
    ).toEqual({});
  });

  it('reads the fields the participant leaves out as their defaults', () => {
    expect(
      existingStateOf({ user: {}, userInOtherIdentityProvider: false, userRights: [], party: {} }),
    ).toEqual({
      user: { primaryParty: '', isDeactivated: false },
      userRights: [],
      party: { isLocal: false, identityProviderId: '' },
    });
  });

  it('keeps the display name from its annotation, and the user’s rights', () => {
    const state = existingStateOf({
      user: {
        primaryParty: PARTY,
        isDeactivated: true,
        metadata: { annotations: { [DISPLAY_NAME_ANNOTATION]: 'Dana Doe', team: 'ops' } },
      },
      userInOtherIdentityProvider: false,
      userRights: [{ kind: 'CanActAs', party: PARTY }],
      party: { isLocal: true, identityProviderId: 'acme' },
    });

    expect(state).toEqual({
      user: { primaryParty: PARTY, displayName: 'Dana Doe', isDeactivated: true },
      userRights: [{ kind: 'CanActAs', party: PARTY }],
      party: { isLocal: true, identityProviderId: 'acme' },
    });
  });

  it('says when the user is another identity provider’s', () => {
    expect(
      existingStateOf({
        user: undefined,
        userInOtherIdentityProvider: true,
        userRights: [],
        party: undefined,
      }),
    ).toEqual({ userInOtherIdentityProvider: true });
  });
});

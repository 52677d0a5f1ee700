import { describe, expect, it } from 'vitest';
import { forbiddenDetails } from './forbidden';

describe('forbiddenDetails', () => {
  it('names the user, the missing rights in the console’s words, and the participant admin', () => {
    expect(
      forbiddenDetails({ kind: 'user', userId: 'pat', identityProviderId: '', rights: [] }, [
        'ParticipantAdmin',
        'IdentityProviderAdmin',
      ]),
    ).toEqual({
      who: 'pat (default identity provider)',
      need: 'Participant admin or Identity provider admin',
      grantedBy: 'A participant admin',
    });
  });

  it('adds the IdP admin as a granter for a user of an IdP, unless the right is participant-wide', () => {
    const trader = {
      kind: 'user' as const,
      userId: 'trader',
      identityProviderId: 'acme',
      rights: [],
    };
    expect(forbiddenDetails(trader, ['CanReadAs']).grantedBy).toBe(
      'A participant admin, or an admin of identity provider acme,',
    );
    expect(forbiddenDetails(trader, ['CanReadAsAnyParty']).grantedBy).toBe('A participant admin');
  });

  it('says nothing about who when the caller is unknown', () => {
    expect(forbiddenDetails(undefined)).toEqual({ grantedBy: 'A participant admin' });
  });
});

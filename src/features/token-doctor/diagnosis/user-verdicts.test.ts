import { describe, expect, it } from 'vitest';
import { acmeIdp, goodPayload, jwt, verdictOf } from '@/testing/token-doctor-tokens';
import { summarizeRights, userToLookUp } from './user-verdicts';

describe('user', () => {
  it('checks sub against the user-id rules', () => {
    expect(verdictOf(jwt(goodPayload()), 'subject').status).toBe('ok');
    const missing = verdictOf(jwt(goodPayload({ sub: undefined })), 'subject');
    expect(missing.status).toBe('problem');
    const badChar = verdictOf(jwt(goodPayload({ sub: 'alice smith' })), 'subject');
    expect(badChar.status).toBe('problem');
    expect(badChar.finding).toMatch(/U\+0020.*INVALID_TOKEN/);
    expect(badChar.fix).toMatch(/valid user id/);
    const long = verdictOf(jwt(goodPayload({ sub: 'a'.repeat(129) })), 'subject');
    expect(long.finding).toMatch(/129 characters long/);
    // Nothing to look up then.
    expect(verdictOf(jwt(goodPayload({ sub: 'a b' })), 'user').status).toBe('unknown');
  });

  const user = (value: Partial<{ isDeactivated: boolean; identityProviderId: string }> = {}) =>
    ({
      status: 'found',
      value: { id: 'alice', isDeactivated: false, identityProviderId: '', ...value },
    }) as const;

  it('finds an active user of the right IdP', () => {
    expect(verdictOf(jwt(goodPayload()), 'user', { user: user() }).status).toBe('ok');
  });

  it('calls a deactivated user a 403, with the fix', () => {
    const verdict = verdictOf(jwt(goodPayload()), 'user', {
      user: user({ isDeactivated: true }),
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/deactivated.*403/);
    expect(verdict.fix).toMatch(/Reactivate user "alice"/);
  });

  it('calls a missing user and one of another IdP a 403', () => {
    const missing = verdictOf(jwt(goodPayload()), 'user', { user: { status: 'not-found' } });
    expect(missing).toMatchObject({ status: 'problem' });
    expect(missing.fix).toMatch(/Create user "alice" in the default IdP/);
    const elsewhere = verdictOf(jwt(goodPayload()), 'user', {
      user: user({ identityProviderId: 'acme' }),
    });
    expect(elsewhere.status).toBe('problem');
    expect(elsewhere.finding).toMatch(/belongs to IdP "acme".*403/);
    const forbiddenToAdmin = verdictOf(jwt(goodPayload()), 'user', {
      user: { status: 'forbidden' },
      callerIsParticipantAdmin: true,
    });
    expect(forbiddenToAdmin.status).toBe('problem');
    expect(forbiddenToAdmin.finding).toMatch(/another IdP/);
  });

  it('stays unknown when the lookup could not be made', () => {
    for (const lookup of [
      { status: 'signed-out' },
      { status: 'forbidden' },
      { status: 'failed', message: 'Network down' },
    ] as const) {
      expect(verdictOf(jwt(goodPayload()), 'user', { user: lookup }).status).toBe('unknown');
    }
    expect(
      verdictOf(jwt(goodPayload()), 'user', { user: { status: 'signed-out' } }).finding,
    ).toMatch(/Sign in to look up user "alice"/);
  });

  it('sums up the rights, and warns when there are none', () => {
    const rights = verdictOf(jwt(goodPayload()), 'rights', {
      user: user(),
      rights: {
        status: 'found',
        value: [
          { kind: 'ParticipantAdmin' },
          { kind: 'CanActAs', party: 'a' },
          { kind: 'CanActAs', party: 'b' },
          { kind: 'CanReadAs', party: 'c' },
        ],
      },
    });
    expect(rights).toMatchObject({
      status: 'ok',
      finding: 'Participant admin, acts as 2 parties, reads as 1 party.',
    });
    const none = verdictOf(jwt(goodPayload()), 'rights', {
      user: user(),
      rights: { status: 'found', value: [] },
    });
    expect(none.status).toBe('warning');
    expect(none.finding).toMatch(/read-only/);
    expect(verdictOf(jwt(goodPayload()), 'rights', { user: { status: 'not-found' } }).status).toBe(
      'unknown',
    );
    expect(
      summarizeRights([{ kind: 'IdentityProviderAdmin' }, { kind: 'CanReadAsAnyParty' }]),
    ).toEqual(['IdP admin', 'reads as any party']);
  });
});

describe('the user to look up', () => {
  it('is the valid sub in the IdP the issuer selects, and nobody without one', () => {
    const context = { identityProviders: { status: 'found', value: [acmeIdp] } } as const;
    expect(userToLookUp({ subject: 'alice', issuer: acmeIdp.issuer }, context)).toEqual({
      userId: 'alice',
      identityProviderId: 'acme',
    });
    expect(userToLookUp({ subject: 'alice' }, context)).toEqual({
      userId: 'alice',
      identityProviderId: '',
    });
    expect(userToLookUp({ subject: 'not valid' }, context)).toBeUndefined();
    expect(userToLookUp({}, context)).toBeUndefined();
  });
});

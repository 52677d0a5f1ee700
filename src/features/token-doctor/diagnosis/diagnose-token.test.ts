import { describe, expect, it } from 'vitest';
import { acmeIdp, baseContext, goodPayload, jwt, NOW_S } from '@/testing/token-doctor-tokens';
import { diagnoseToken } from './diagnose-token';
import type { Verdict } from './verdict';

/** Every problem must say what to do. */
function expectFixOnProblems(verdicts: Verdict[]) {
  for (const verdict of verdicts) {
    if (verdict.status === 'problem') expect(verdict.fix, verdict.id).toMatch(/\S/);
  }
}

describe('token structure', () => {
  it('reads a good token: every verdict in order, and no problem', () => {
    const verdicts = diagnoseToken(jwt(goodPayload()), {
      ...baseContext,
      user: {
        status: 'found',
        value: { id: 'alice', isDeactivated: false, identityProviderId: '' },
      },
      rights: { status: 'found', value: [{ kind: 'CanActAs', party: 'Alice::1220' }] },
    });
    expect(verdicts.map((v) => v.id)).toEqual([
      'structure',
      'algorithm',
      'header',
      'issuer',
      'token-form',
      'participant-audience',
      'expiry',
      'not-before',
      'issued-at',
      'subject',
      'user',
      'rights',
    ]);
    expect(verdicts.filter((v) => v.status !== 'ok')).toEqual([]);
  });
});

describe('untrusted input', () => {
  it('gives every problem a fix', () => {
    const tokens = [
      jwt({ aud: ['x', 'y'], exp: 'never', nbf: NOW_S + 9999, sub: '' }, { alg: 'none' }, ''),
      jwt(goodPayload({ iss: 'https://unknown.example', exp: NOW_S - 9999 })),
    ];
    for (const token of tokens) {
      expectFixOnProblems(
        diagnoseToken(token, {
          ...baseContext,
          identityProviders: { status: 'found', value: [acmeIdp] },
          user: { status: 'not-found' },
        }),
      );
    }
  });
});

describe('participant and console setup', () => {
  it('says first when the participant ignores tokens altogether', () => {
    const verdicts = diagnoseToken(jwt(goodPayload()), {
      ...baseContext,
      participantIgnoresTokens: true,
    });
    expect(verdicts.map((v) => v.id).slice(0, 2)).toEqual(['structure', 'participant-auth']);
    expect(verdicts[1]).toMatchObject({
      status: 'warning',
      finding: expect.stringMatching(/without auth services and ignores tokens/) as string,
    });
    expect(diagnoseToken(jwt(goodPayload()), baseContext).map((v) => v.id)).not.toContain(
      'participant-auth',
    );
  });
});

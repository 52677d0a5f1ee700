import { describe, expect, it } from 'vitest';
import { goodPayload, jwt, NOW_S, verdictOf } from '@/testing/token-doctor-tokens';

describe('times', () => {
  it.each([
    [3600, 'ok', /Valid for 60 min more/],
    [200, 'warning', /Expires in 3 min/],
    [30, 'warning', /within 60 s/],
    [-30, 'warning', /within 60 s/],
    [-7200, 'problem', /Expired 2 h ago \(2026-01-15T10:00:00Z\).*401/],
  ])('judges exp at now + %i s as %s', (offset, status, finding) => {
    const verdict = verdictOf(jwt(goodPayload({ exp: NOW_S + offset })), 'expiry');
    expect(verdict.status).toBe(status);
    expect(verdict.finding).toMatch(finding);
  });

  it('warns about a token that never expires and refuses a non-numeric exp', () => {
    expect(verdictOf(jwt(goodPayload({ exp: undefined })), 'expiry').status).toBe('warning');
    expect(verdictOf(jwt(goodPayload({ exp: 'tomorrow' })), 'expiry').status).toBe('problem');
  });

  it('honours the given clock skew', () => {
    const token = jwt(goodPayload({ exp: NOW_S - 30 }));
    expect(verdictOf(token, 'expiry', { clockSkewSeconds: 0 }).status).toBe('problem');
  });

  it.each([
    ['not-before', 'nbf'],
    ['issued-at', 'iat'],
  ] as const)('judges %s (%s) in the future beyond and within the skew', (id, claim) => {
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S + 600 })), id)).toMatchObject({
      status: 'problem',
      finding: expect.stringMatching(/10 min ahead.*401/) as string,
    });
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S + 20 })), id).status).toBe('warning');
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S - 20 })), id).status).toBe('ok');
    expect(verdictOf(jwt(goodPayload({ [claim]: undefined })), id).status).toBe('ok');
  });
});

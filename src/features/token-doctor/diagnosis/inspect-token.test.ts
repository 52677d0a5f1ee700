import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { decodeToken } from '@/lib/access/token-claims';
import { baseContext, goodPayload, jwt, segment, verdictOf } from '@/testing/token-doctor-tokens';
import { diagnoseToken } from './diagnose-token';
import { inspectToken, MAX_TOKEN_BYTES, normalizePastedToken } from './inspect-token';

describe('token structure', () => {
  it('refuses more than 16 KB before decoding anything', () => {
    const huge = jwt(goodPayload({ padding: 'x'.repeat(MAX_TOKEN_BYTES) }));
    const verdicts = diagnoseToken(huge, baseContext);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ id: 'size', status: 'problem' });
    expect(verdicts[0]?.fix).toMatch(/Paste only the token/);
  });

  it.each([
    ['', /no token/],
    ['abc.def', /three base64url parts.*this has 2/],
    ['a.b.c.d.e', /encrypted token \(JWE\)/],
    [`${segment({ alg: 'RS256' })}.${segment({ sub: 'a' })}=.sig`, /outside base64url/],
    [`bm90IGpzb24.${segment({ sub: 'a' })}.sig`, /header is not/],
    [`${segment({ alg: 'RS256' })}.${segment(['array'])}.sig`, /payload is not/],
  ])('says why %j is not a readable JWT, with a fix', (token, finding) => {
    const [verdict, ...rest] = diagnoseToken(token, baseContext);
    expect(rest).toEqual([]);
    expect(verdict).toMatchObject({ id: 'structure', status: 'problem' });
    expect(verdict?.finding).toMatch(finding);
    expect(verdict?.fix).toMatch(/\S/);
  });

  it('calls an empty signature an unsigned token', () => {
    expect(verdictOf(jwt(goodPayload(), { alg: 'RS256' }, ''), 'structure')).toMatchObject({
      status: 'problem',
      finding: expect.stringMatching(/unsigned/) as string,
    });
  });

  it('decodes a token jose really signed, and keeps decodeToken working', async () => {
    const secret = new TextEncoder().encode('a-test-secret-of-at-least-32-bytes!!');
    const token = await new SignJWT({ scope: 'daml_ledger_api' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('participant_admin')
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(secret);
    const inspected = inspectToken(token);
    expect(inspected.kind).toBe('jwt');
    if (inspected.kind !== 'jwt') return;
    expect(inspected.header).toEqual({ alg: 'HS256' });
    expect(inspected.claims.subject).toBe('participant_admin');
    expect(decodeToken(token)).toMatchObject({
      kind: 'jwt',
      claims: { subject: 'participant_admin', scopes: ['daml_ledger_api'] },
    });
  });

  it('strips a Bearer prefix and line breaks from pasted text', () => {
    expect(normalizePastedToken('  Bearer abc.\n def.\r\nghi  ')).toBe('abc.def.ghi');
  });
});

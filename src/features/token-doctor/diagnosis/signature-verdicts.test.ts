import { describe, expect, it } from 'vitest';
import { acmeIdp, goodPayload, jwt, verdictOf } from '@/testing/token-doctor-tokens';

describe('header', () => {
  it.each([
    [{ alg: 'RS256', kid: 'k' }, 'ok', /RS256/],
    [{ alg: 'ES256', kid: 'k' }, 'ok', /jwt-es256-crt/],
    [{ alg: 'HS256' }, 'warning', /unsafe-jwt-hmac-256/],
    [{ alg: 'none' }, 'problem', /"none".*refuses/],
    [{ typ: 'JWT' }, 'problem', /no alg/],
    [{ alg: 'RS512', kid: 'k' }, 'problem', /"RS512".*401/],
  ])('judges alg in %j as %s', (header, status, finding) => {
    const verdict = verdictOf(jwt(goodPayload(), header), 'algorithm');
    expect(verdict.status).toBe(status);
    expect(verdict.finding).toMatch(finding);
    if (status === 'problem') expect(verdict.fix).toMatch(/\S/);
  });

  it('refuses HS256 for an issuer an IdP configuration verifies with JWKS', () => {
    const token = jwt(goodPayload({ iss: acmeIdp.issuer }), { alg: 'HS256' });
    const verdict = verdictOf(token, 'algorithm', {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict).toMatchObject({ status: 'problem' });
    expect(verdict.finding).toMatch(/IdP configuration "acme"/);
  });

  it('warns about an RS256 token without kid, and accepts HS256 without one', () => {
    const noKid = verdictOf(jwt(goodPayload(), { alg: 'RS256', typ: 'JWT' }), 'header');
    expect(noKid.status).toBe('warning');
    expect(noKid.finding).toMatch(/typ is "JWT".*no kid/);
    expect(noKid.fix).toMatch(/kid/);
    expect(verdictOf(jwt(goodPayload(), { alg: 'HS256' }), 'header').status).toBe('ok');
    expect(verdictOf(jwt(goodPayload()), 'header').finding).toMatch(/kid is "key-1"/);
  });
});

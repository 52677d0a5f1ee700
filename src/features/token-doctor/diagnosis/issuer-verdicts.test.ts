import { describe, expect, it } from 'vitest';
import { acmeIdp, goodPayload, jwt, verdictOf } from '@/testing/token-doctor-tokens';
import type { DoctorContext, SignInProviderInfo } from './doctor-context';
import { identityProviderOfToken } from './issuer-verdicts';

describe('issuer', () => {
  const acmeProvider: SignInProviderInfo = {
    id: 'acme',
    name: 'Acme SSO',
    issuer: acmeIdp.issuer,
    identityProviderId: 'acme',
  };
  const providers = [acmeProvider];
  const issuerOf = (iss: string | undefined, context: Partial<DoctorContext> = {}) =>
    verdictOf(jwt(goodPayload(iss === undefined ? {} : { iss })), 'issuer', context);

  it('sends a token without iss to the default IdP', () => {
    expect(issuerOf(undefined)).toMatchObject({ status: 'ok' });
    expect(issuerOf(undefined).finding).toMatch(/default IdP/);
    expect(identityProviderOfToken({}, {})).toEqual({ identityProviderId: '', certain: true });
  });

  it('names the IdP configuration Canton picks for an active issuer', () => {
    const context = { identityProviders: { status: 'found', value: [acmeIdp] } } as const;
    expect(issuerOf(acmeIdp.issuer, context)).toMatchObject({ status: 'ok' });
    expect(issuerOf(acmeIdp.issuer, context).finding).toMatch(/picks IdP configuration "acme"/);
    expect(identityProviderOfToken({ issuer: acmeIdp.issuer }, context)).toEqual({
      identityProviderId: 'acme',
      certain: true,
    });
  });

  it('calls an unknown issuer a 401, with the fix', () => {
    const verdict = issuerOf('https://evil.example', {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/Unknown issuer "https:\/\/evil.example".*401/);
    expect(verdict.fix).toMatch(/Add an IdP configuration/);
  });

  it('calls a deactivated IdP configuration a problem', () => {
    const verdict = issuerOf(acmeIdp.issuer, {
      identityProviders: { status: 'found', value: [{ ...acmeIdp, isDeactivated: true }] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.fix).toMatch(/Reactivate IdP configuration "acme"/);
    // Canton then looks the user up in the default IdP.
    expect(
      identityProviderOfToken(
        { issuer: acmeIdp.issuer },
        { identityProviders: { status: 'found', value: [{ ...acmeIdp, isDeactivated: true }] } },
      ).identityProviderId,
    ).toBe('');
  });

  it('points at a trailing slash, which Canton does not forgive', () => {
    const verdict = issuerOf(`${acmeIdp.issuer}/`, {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/compares issuers exactly/);
  });

  it('flags a sign-in provider whose IdP has no configuration, and one that disagrees', () => {
    const missing = issuerOf(acmeIdp.issuer, {
      providers,
      identityProviders: { status: 'found', value: [] },
    });
    expect(missing.status).toBe('problem');
    expect(missing.fix).toMatch(/Create IdP configuration "acme"/);
    const disagrees = issuerOf(acmeIdp.issuer, {
      providers: [{ ...acmeProvider, identityProviderId: '' }],
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(disagrees.status).toBe('warning');
    expect(disagrees.fix).toMatch(/identityProviderId to "acme"/);
  });

  it('falls back on the sign-in providers when the IdP configurations cannot be read', () => {
    const context = { providers, identityProviders: { status: 'forbidden' } } as const;
    const known = issuerOf(acmeIdp.issuer, context);
    expect(known.status).toBe('ok');
    expect(known.finding).toMatch(/Acme SSO.*participant admin/);
    expect(identityProviderOfToken({ issuer: acmeIdp.issuer }, context)).toEqual({
      identityProviderId: 'acme',
      certain: false,
    });
    expect(issuerOf('https://other.example', context).status).toBe('warning');
    expect(issuerOf('https://other.example', { providers: [] }).status).toBe('unknown');
    expect(issuerOf('https://other.example').status).toBe('unknown');
  });
});

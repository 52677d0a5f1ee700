import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import {
  deactivatedIdentityProvider,
  identityProviderFailure,
} from './identity-provider-error-fixes';

const conflict = (code: string, cause: string) =>
  new ApiError(409, { code, cause, errorCategory: 10 });

const configs = [
  { identityProviderId: 'acme', issuer: 'https://acme.example.com', jwksUrl: 'https://a/k' },
  { identityProviderId: 'globex', issuer: 'https://globex.example.com', jwksUrl: 'https://g/k' },
];

describe('identityProviderFailure', () => {
  it('offers to open the IdP whose id is taken', () => {
    const error = conflict(
      'IDP_CONFIG_ALREADY_EXISTS',
      'creating identity provider config failed, as identity provider "acme" already exists',
    );
    expect(identityProviderFailure(error, { identityProviderId: 'acme', issuer: 'x' })).toEqual({
      cause: expect.stringContaining('An identity provider “acme” already exists') as string,
      fix: { kind: 'openIdentityProvider', identityProviderId: 'acme' },
    });
  });

  it('names the IdP that has the issuer and offers to open it', () => {
    const error = conflict(
      'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
      'updating identity provider config failed, as identity provider with issuer "https://globex.example.com" already exists',
    );
    const failure = identityProviderFailure(error, {
      identityProviderId: 'acme',
      issuer: 'https://globex.example.com',
      configs,
    });
    expect(failure?.cause).toMatch(/^Identity provider “globex” already has the issuer/);
    expect(failure?.fix).toEqual({ kind: 'openIdentityProvider', identityProviderId: 'globex' });
  });

  it('says so without a fix when the owner of the issuer is not known here', () => {
    const error = conflict(
      'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
      'creating identity provider config failed, as identity provider with issuer "https://x.test" already exists',
    );
    const failure = identityProviderFailure(error, {
      identityProviderId: 'new',
      issuer: 'https://x.test',
      configs,
    });
    expect(failure).toEqual({
      cause: expect.stringMatching(/^Another identity provider/) as string,
    });
  });

  it('leaves other failures to the participant’s message', () => {
    expect(
      identityProviderFailure(conflict('TOO_MANY_IDENTITY_PROVIDER_CONFIGS', 'failed.'), {
        identityProviderId: 'a',
        issuer: 'b',
      }),
    ).toBeUndefined();
    expect(
      identityProviderFailure(new Error('boom'), { identityProviderId: 'a', issuer: 'b' }),
    ).toBeUndefined();
  });
});

describe('deactivatedIdentityProvider', () => {
  const deactivated = {
    identityProviderId: 'acme',
    issuer: 'https://acme.example.com',
    jwksUrl: 'https://a/k',
    isDeactivated: true,
  };

  it('offers Activate to whoever may manage IdPs', () => {
    expect(deactivatedIdentityProvider(deactivated, true)).toEqual({
      cause: expect.stringContaining('none of its users can sign in') as string,
      fix: { kind: 'activate', identityProviderId: 'acme' },
    });
  });

  it('says who can fix it to anyone else', () => {
    const failure = deactivatedIdentityProvider(deactivated, false);
    expect(failure?.fix).toBeUndefined();
    expect(failure?.cause).toMatch(/A participant admin can activate it\.$/);
  });

  it('is nothing for an active IdP', () => {
    expect(deactivatedIdentityProvider({ ...deactivated, isDeactivated: false }, true)).toBe(
      undefined,
    );
  });
});

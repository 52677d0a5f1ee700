import { describe, expect, it } from 'vitest';
import type { IdentityProviderConfig } from '@/api/identity-providers';
import { ApiError } from '@/lib/errors/api-error';
import {
  createIdentityProviderSchema,
  emptyCreateIdentityProviderValues,
  identityProviderErrorField,
  identityProviderSettingsSchema,
  insecureUrlWarning,
  toIdentityProviderConfig,
  toIdentityProviderSettingsValues,
  toStatusUpdateRequest,
  toUpdateIdentityProviderRequest,
} from './identity-provider-form-schema';

const valid = {
  ...emptyCreateIdentityProviderValues,
  identityProviderId: 'idp-id-#:-_ 1/2.3',
  issuer: 'https://auth.example.com',
  jwksUrl: 'https://auth.example.com/jwks.json',
};

const messages = (input: unknown) => {
  const result = createIdentityProviderSchema.safeParse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

const acme: IdentityProviderConfig = {
  identityProviderId: 'acme',
  isDeactivated: false,
  issuer: 'https://acme.example.com',
  jwksUrl: 'https://acme.example.com/jwks.json',
  audience: 'ledger',
};

describe('createIdentityProviderSchema', () => {
  it('accepts a LedgerString id, an issuer and an absolute JWKS URL', () => {
    expect(messages(valid)).toEqual({});
    expect(
      messages({ ...valid, jwksUrl: 'file:///etc/jwks.json', issuer: 'plain-issuer' }),
    ).toEqual({});
  });

  it('requires id, issuer and JWKS URL', () => {
    expect(messages(emptyCreateIdentityProviderValues)).toEqual({
      identityProviderId: 'Required',
      issuer: 'Required',
      jwksUrl: 'Required',
    });
    expect(messages({ ...valid, issuer: '   ' })).toEqual({ issuer: 'Required' });
  });

  it('rejects ids the participant would refuse', () => {
    expect(messages({ ...valid, identityProviderId: '!@' })).toEqual({
      identityProviderId: 'Only letters, digits and . _ : - # / and space',
    });
    expect(messages({ ...valid, identityProviderId: 'é' })).toHaveProperty('identityProviderId');
    expect(messages({ ...valid, identityProviderId: 'a'.repeat(255) })).toEqual({});
    expect(messages({ ...valid, identityProviderId: 'a'.repeat(256) })).toEqual({
      identityProviderId: 'At most 255 characters',
    });
  });

  it('rejects a JWKS URL that is not absolute', () => {
    expect(messages({ ...valid, jwksUrl: 'url.com' })).toEqual({
      jwksUrl: 'Must be an absolute URL, e.g. https://idp.example.com/jwks.json',
    });
  });

  it('maps to the config as typed, trimming issuer, URL and audience', () => {
    const values = createIdentityProviderSchema.parse({
      ...valid,
      issuer: ' https://auth.example.com ',
      audience: ' aud ',
      isDeactivated: true,
    });
    expect(toIdentityProviderConfig(values)).toEqual({
      identityProviderId: 'idp-id-#:-_ 1/2.3',
      issuer: 'https://auth.example.com',
      jwksUrl: 'https://auth.example.com/jwks.json',
      audience: 'aud',
      isDeactivated: true,
    });
  });
});

describe('toUpdateIdentityProviderRequest', () => {
  const current = toIdentityProviderSettingsValues(acme);

  it('is undefined when nothing changed', () => {
    expect(toUpdateIdentityProviderRequest(acme, current)).toBeUndefined();
  });

  it('masks only the changed fields and sends the others empty', () => {
    const request = toUpdateIdentityProviderRequest(acme, {
      ...current,
      jwksUrl: 'https://acme.example.com/keys',
    });
    expect(request).toEqual({
      identityProviderConfig: {
        identityProviderId: 'acme',
        isDeactivated: false,
        issuer: '',
        jwksUrl: 'https://acme.example.com/keys',
        audience: '',
      },
      updateMask: { paths: ['jwks_url'], unknownFields: { fields: {} } },
    });
  });

  it('clears the audience through the mask', () => {
    const request = toUpdateIdentityProviderRequest(acme, {
      issuer: 'https://new.example.com',
      jwksUrl: acme.jwksUrl,
      audience: '',
    });
    expect(request?.updateMask.paths).toEqual(['issuer', 'audience']);
    expect(request?.identityProviderConfig).toMatchObject({
      issuer: 'https://new.example.com',
      jwksUrl: '',
      audience: '',
    });
  });

  it('reads a config without audience as an empty audience', () => {
    const withoutAudience: IdentityProviderConfig = { ...acme };
    delete withoutAudience.audience;
    expect(toIdentityProviderSettingsValues(withoutAudience).audience).toBe('');
    expect(identityProviderSettingsSchema.parse({ ...current, audience: '' }).audience).toBe('');
  });
});

describe('toStatusUpdateRequest', () => {
  it('changes only is_deactivated', () => {
    expect(toStatusUpdateRequest(acme, true)).toEqual({
      identityProviderConfig: {
        identityProviderId: 'acme',
        isDeactivated: true,
        issuer: '',
        jwksUrl: '',
        audience: '',
      },
      updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } },
    });
  });
});

describe('identityProviderErrorField', () => {
  const all = ['identityProviderId', 'issuer', 'jwksUrl', 'audience'] as const;
  const error = (code: string, cause: string, context?: Record<string, string>) =>
    new ApiError(400, { code, cause, ...(context ? { context } : {}) });

  it('puts the conflicts on the id and the issuer', () => {
    expect(identityProviderErrorField(error('IDP_CONFIG_ALREADY_EXISTS', 'x'), all)).toBe(
      'identityProviderId',
    );
    expect(identityProviderErrorField(error('IDP_CONFIG_ISSUER_ALREADY_EXISTS', 'x'), all)).toBe(
      'issuer',
    );
  });

  it('puts INVALID_FIELD and MISSING_FIELD on the field they name', () => {
    expect(
      identityProviderErrorField(
        error('INVALID_FIELD', 'Invalid field jwks_url: Malformed URL', { field_name: 'jwks_url' }),
        all,
      ),
    ).toBe('jwksUrl');
    expect(
      identityProviderErrorField(
        error(
          'INVALID_FIELD',
          'The submitted command has a field with invalid value: Invalid field identity_provider_id: bad',
        ),
        all,
      ),
    ).toBe('identityProviderId');
    expect(
      identityProviderErrorField(
        error('MISSING_FIELD', 'The submitted command is missing a mandatory field: issuer'),
        all,
      ),
    ).toBe('issuer');
  });

  it('leaves other errors, and fields the form lacks, to the top of the form', () => {
    expect(
      identityProviderErrorField(error('TOO_MANY_IDENTITY_PROVIDER_CONFIGS', 'x'), all),
    ).toBeUndefined();
    expect(
      identityProviderErrorField(error('IDP_CONFIG_ALREADY_EXISTS', 'x'), ['issuer', 'jwksUrl']),
    ).toBeUndefined();
    expect(
      identityProviderErrorField(error('INVALID_FIELD', 'x', { field_name: 'update_mask' }), all),
    ).toBeUndefined();
  });
});

describe('insecure URL warnings', () => {
  it.each([
    ['http://idp.example.com/jwks', 'JWKS URL', 'swap the keys'],
    ['http://10.0.0.5:8080/realms/x', 'issuer', 'Use an https issuer'],
  ] as const)('warns about %s', (url, what, text) => {
    expect(insecureUrlWarning(url, what)).toContain(text);
  });

  it.each([
    'https://idp.example.com',
    'http://127.0.0.1:4181/acme',
    'http://localhost/x',
    'http://[::1]:80/',
    'not a url',
  ])('is silent for %s', (url) => {
    expect(insecureUrlWarning(url, 'issuer')).toBeUndefined();
  });
});

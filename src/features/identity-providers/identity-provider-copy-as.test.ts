import { describe, expect, it } from 'vitest';
import { toCurl } from '@/lib/text/copy-as';
import { firstAdminRequest } from './delegation';
import {
  createIdentityProviderCopyAs,
  deleteIdentityProviderCopyAs,
  firstIdentityProviderAdminCopyAs,
  updateIdentityProviderCopyAs,
} from './identity-provider-copy-as';
import {
  toIdentityProviderConfig,
  toStatusUpdateRequest,
  toUpdateIdentityProviderRequest,
} from './identity-provider-form-schema';

const acme = {
  identityProviderId: 'acme',
  isDeactivated: false,
  issuer: 'https://acme.example.com',
  jwksUrl: 'https://acme.example.com/jwks.json',
  audience: 'ledger-api',
};

describe('identity provider Copy as', () => {
  it('create: the POST the form sends, and the console call with every field named', () => {
    const config = toIdentityProviderConfig({
      identityProviderId: 'acme "corp"',
      issuer: 'https://auth.acme.test',
      jwksUrl: 'https://auth.acme.test/jwks',
      audience: '',
      isDeactivated: false,
    });
    const copy = createIdentityProviderCopyAs(config);
    expect(copy.request).toEqual({
      method: 'POST',
      path: '/v2/idps',
      body: { identityProviderConfig: config },
    });
    expect(copy.cantonConsole).toBe(
      'participant.ledger_api.identity_provider_config.create(identityProviderId = "acme \\"corp\\"", jwksUrl = "https://auth.acme.test/jwks", issuer = "https://auth.acme.test", audience = None)',
    );
    expect(
      createIdentityProviderCopyAs({ ...config, audience: 'x', isDeactivated: true }).cantonConsole,
    ).toContain('isDeactivated = true, jwksUrl = "https://auth.acme.test/jwks"');
    expect(
      createIdentityProviderCopyAs({ ...config, audience: 'x', isDeactivated: true }).cantonConsole,
    ).toContain('audience = Some("x")');
  });

  it('update: each changed field becomes the mask the mutation sends', () => {
    const request = toUpdateIdentityProviderRequest(acme, {
      issuer: acme.issuer,
      jwksUrl: 'https://keys.acme.test/jwks',
      audience: '',
    });
    if (!request) throw new Error('expected a change');
    const copy = updateIdentityProviderCopyAs(request);
    expect(copy.request).toEqual({ method: 'PATCH', path: '/v2/idps/acme', body: request });
    expect(request.updateMask.paths).toEqual(['jwks_url', 'audience']);
    expect(copy.cantonConsole).toBe(
      'participant.ledger_api.identity_provider_config.update(identityProviderId = "acme", isDeactivated = false, jwksUrl = "https://keys.acme.test/jwks", issuer = "", audience = None, updateMask = FieldMask(Seq("jwks_url", "audience")))',
    );
    const curl = toCurl(copy.request, 'http://127.0.0.1:4173');
    expect(curl).toContain(`-X PATCH 'http://127.0.0.1:4173/v2/idps/acme'`);
    expect(curl).toContain('"paths": [\n      "jwks_url",\n      "audience"\n    ]');
  });

  it('activate and deactivate: is_deactivated alone', () => {
    const copy = updateIdentityProviderCopyAs(toStatusUpdateRequest(acme, true));
    expect(copy.request.body).toMatchObject({
      identityProviderConfig: { isDeactivated: true, issuer: '', jwksUrl: '' },
      updateMask: { paths: ['is_deactivated'] },
    });
    expect(copy.cantonConsole).toContain('isDeactivated = true');
    expect(copy.cantonConsole).toContain('updateMask = FieldMask(Seq("is_deactivated"))');
  });

  it('delete: the DELETE of the encoded id', () => {
    expect(deleteIdentityProviderCopyAs('acme corp/1')).toEqual({
      request: { method: 'DELETE', path: '/v2/idps/acme%20corp%2F1' },
      cantonConsole:
        'participant.ledger_api.identity_provider_config.delete(identityProviderId = "acme corp/1")',
    });
  });

  it('first IdP admin: the user create with IdentityProviderAdmin only', () => {
    const copy = firstIdentityProviderAdminCopyAs(firstAdminRequest('acme', { userId: 'ada' }));
    expect(copy.request).toEqual({
      method: 'POST',
      path: '/v2/users',
      body: {
        user: { id: 'ada', primaryParty: '', isDeactivated: false, identityProviderId: 'acme' },
        rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
      },
    });
    expect(copy.cantonConsole).toBe(
      'participant.ledger_api.users.create(id = "ada", identityProviderAdmin = true, identityProviderId = "acme")',
    );
  });
});
